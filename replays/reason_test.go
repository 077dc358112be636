package replays_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/replaytest"
	"github.com/arena-dev/arena/replays"
)

// TestShowNamesTheReasonsSeats: the result line of `arena replay show`
// says who "seat 1" of the reason is.
func TestShowNamesTheReasonsSeats(t *testing.T) {
	rec, res := replaytest.Play(t, replaytest.Game{Name: "uno", Seats: 3, Seed: 4, Options: map[string]string{"target": "1"}})
	if !strings.HasPrefix(res.Reason, "seat 1 reached ") {
		t.Fatalf("reason %q: want one naming seat 1", res.Reason)
	}
	rp, _ := replaytest.ReadBack(t, rec)
	var b bytes.Buffer
	if err := replays.Show(&b, rp, engine.Spectator); err != nil {
		t.Fatal(err)
	}
	want := "plies: seat 1 (bob) reached "
	if !strings.Contains(b.String(), want) {
		t.Errorf("the result line does not name seat 1's bot (%q):\n%s", want, b.String()[max(0, b.Len()-400):])
	}
}
