package replays_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/uno" // the fixture's game
	"github.com/arena-dev/arena/internal/replaytest"
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
	rec := replays.NewRecorder(replays.Header{Game: "uno", Seats: []replays.SeatInfo{{Seat: 0, Bot: "a"}, {Seat: 1, Bot: "b"}}})
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

// TestOtherRulesRevisionIsRefused: a sound replay whose header names
// another rules revision than the engine plays is refused with ErrRules
// and both revisions, even though its moves would re-simulate: under
// other rules a match says no more about the file than a mismatch.
func TestOtherRulesRevisionIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := record(t, dir, script{seed: 7})
	if err := verifyFile(t, path); err != nil {
		t.Fatalf("the sound replay does not verify: %v", err)
	}
	for _, rules := range []int{1, 3} {
		lines := decompress(t, path)
		lines[0] = editJSON(t, lines[0], func(m map[string]any) { m["rules"] = rules })
		edited := filepath.Join(dir, fmt.Sprintf("rules%d%s", rules, replays.Ext))
		if err := os.WriteFile(edited, compress(t, joinLines(lines)), 0o644); err != nil {
			t.Fatal(err)
		}
		err := verifyFile(t, edited)
		want := fmt.Sprintf("testnim rules revision %d, this arena plays revision 0", rules)
		if !errors.Is(err, replays.ErrRules) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), edited) {
			t.Errorf("rules %d: got %v, want ErrRules naming the file and saying %q", rules, err, want)
		}
	}
}

func verifyFile(t *testing.T, path string) error {
	t.Helper()
	rp, err := replays.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return replays.Verify(rp)
}

// TestFormerReasonVerifies: a Uno game won in one hand was recorded
// "after 1 hands" before the wording was mended to "after 1 hand"; such a
// replay still verifies, and a reason the engine never gave still fails.
func TestFormerReasonVerifies(t *testing.T) {
	rec, res := replaytest.Play(t, replaytest.Game{Name: "uno", Seats: 3, Seed: 4, Options: map[string]string{"target": "1"}})
	if !strings.HasSuffix(res.Reason, " points after 1 hand") {
		t.Fatalf("reason %q: want a game won in its first hand", res.Reason)
	}
	rp, _ := replaytest.ReadBack(t, rec)
	for _, tc := range []struct {
		reason string
		ok     bool
	}{
		{res.Reason, true},
		{res.Reason + "s", true}, // as arenas before the mend recorded it
		{strings.Replace(res.Reason, "after 1 hand", "after 2 hands", 1), false},
	} {
		rp.Result.Reason = tc.reason
		err := replays.Verify(rp)
		if (err == nil) != tc.ok {
			t.Errorf("reason %q: Verify says %v, want it accepted: %v", tc.reason, err, tc.ok)
		}
	}
}
