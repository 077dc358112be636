package output_test

import (
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/check"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/engine"
)

// TestCheck: arena check's lines, for a person and with --json (where
// only the report is printed, as one JSON object).
func TestCheck(t *testing.T) {
	game, err := engine.Lookup("banqi")
	if err != nil {
		t.Skip("banqi is not linked in")
	}
	cfg := check.Config{Game: game, Seats: 2, Games: 2, Seed: 7, Move: time.Second, Startup: 2 * time.Second, Margin: 50 * time.Millisecond}
	rep := &check.Report{Game: "banqi", Checks: []check.Result{{Name: check.CheckStart, Status: check.Pass, Detail: "started"}}, Passed: 1, OK: true}
	cases := []struct {
		json       bool
		out, start string
	}{
		{false, "arena check: banqi, 2 seats, 2 games, seed 7, move 1s, startup 2s, margin 50ms\n" +
			"arena check: nats:alice runs elsewhere: its lines are checked here, its process (bye's exit status, process-group) where it runs\n" +
			"PASS start: started\n1 passed, 0 failed, 0 warnings, 0 skipped: compliant\n", ""},
		{true, "{\n  \"game\": \"banqi\",", ""},
	}
	for _, tc := range cases {
		var out, log strings.Builder
		o := output.Check{W: &out, Log: &log, JSON: tc.json}
		o.Start(cfg)
		o.Elsewhere(remote.Target{ID: "alice"})
		if err := o.Report(rep); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), tc.out) || log.Len() != 0 {
			t.Errorf("json %v: out\n%s\nlog %q, want out beginning\n%s", tc.json, out.String(), log.String(), tc.out)
		}
	}
	var log strings.Builder
	c := cfg
	output.Check{Log: &log}.Follow(&c)
	c.Progress(check.Progress{Stage: check.StageGame, Game: 1, Games: 2})
	if want := "arena check: game 1/2 (seat 0): starting\n"; log.String() != want || c.ProgressEvery != output.CheckEvery {
		t.Errorf("progress %q every %v, want %q every %v", log.String(), c.ProgressEvery, want, output.CheckEvery)
	}
}
