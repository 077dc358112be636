package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTournamentUntil: a round-robin played --until its standings
// separate the top bot (greedy, clearly above two random bots) stops at
// the end of a cycle, long before its budget of --rounds, and says so;
// run again, it plays nothing more; a bad rule is the command line's
// mistake, naming it.
func TestTournamentUntil(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "cup")
	args := []string{"tournament", "run", "--name", "cup", "--game", "banqi", "--option", "max_plies=200",
		"--bot", "a=arena bot greedy", "--bot", "b=arena bot random", "--bot", "c=arena bot random",
		"--games-per-encounter", "2", "--seed", "5", "--concurrency", "2", "-q", "--until", "separated:1", "--rounds", "30"}
	_, stderr, code := arena(t, append(args, "--out", out)...)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	games := ledgerLines(out)
	const perCycle, budget = 6, 180 // 3 pairs of 2 games, 30 cycles
	if games == 0 || games%perCycle != 0 || games >= budget {
		t.Errorf("%d games: want whole cycles of %d, fewer than the budget %d", games, perCycle, budget)
	}
	if want := "the top 1 is separated at 95 % (order: a;"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
	_, stderr, code = arena(t, "tournament", "run", out, "-q")
	if code != 0 || ledgerLines(out) != games || !strings.Contains(stderr, "until separated:1@0.95: the top 1 is separated") {
		t.Errorf("resumed: exit %d, %d games (had %d), stderr %q; want nothing played, decided", code, ledgerLines(out), games, stderr)
	}
	for _, tc := range []struct{ extra, want string }{
		{"separated:one", `until: "separated:one" is not a stop rule: K "one" is not a whole number from 1; want separated:K or separated:K@C`},
		{"separated:1@1.5", `confidence "1.5" is not above 0.5 and below 1`},
	} {
		_, stderr, code := arena(t, append(slices.Clone(args), "--until", tc.extra, "--out", filepath.Join(dir, "bad"))...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("--until %s: exit %d, stderr %q; want exit %d naming %q", tc.extra, code, stderr, exitUsage, tc.want)
		}
	}
	_, stderr, code = arena(t, append(args, "--format", "swiss", "--out", filepath.Join(dir, "swiss"))...)
	if code != exitUsage || !strings.Contains(stderr, "until: separated:1 is for a round-robin") {
		t.Errorf("--format swiss --until: exit %d, stderr %q; want a usage error naming until", code, stderr)
	}
}
