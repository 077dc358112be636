package replays_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/uno" // the fixture's game
	"github.com/arena-dev/arena/replays"
)

// TestOlderRulesRevision: a Uno replay recorded before the rules revision
// 1 (house rules whose polls no longer happen) fails as recorded under
// other rules, naming both revisions, not as a damaged file; a replay of
// the current rules records its revision.
func TestOlderRulesRevision(t *testing.T) {
	rp, err := replays.ReadFile(filepath.Join("testdata", "uno-rules0.jsonl.zst"))
	if err != nil {
		t.Fatal(err)
	}
	if rp.Header.Rules != 0 {
		t.Fatalf("fixture has rules %d", rp.Header.Rules)
	}
	g, err := engine.Lookup("uno")
	if err != nil {
		t.Fatal(err)
	}
	err = replays.Verify(rp)
	want := fmt.Sprintf("uno rules revision 0, this arena plays revision %d", g.Info().Rules)
	if !errors.Is(err, replays.ErrRules) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want it to say %q", err, want)
	}
	rec := replays.NewRecorder(replays.Header{Game: "uno", Seats: []replays.SeatInfo{{0, "a"}, {1, "b"}}})
	rec.Finish(replays.Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}, Reason: "test"})
	data, err := rec.Compressed()
	if err != nil {
		t.Fatal(err)
	}
	back, err := replays.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if back.Header.Rules != g.Info().Rules || g.Info().Rules == 0 {
		t.Errorf("header records rules %d, the engine plays %d", back.Header.Rules, g.Info().Rules)
	}
}
