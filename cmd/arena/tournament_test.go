package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/internal/proctest"
)

func tournamentArgs(out string, extra ...string) []string {
	return append([]string{"tournament", "run", "--name", "kcup", "--game", "banqi", "--option", "max_plies=200",
		"--bot", "g=arena bot greedy", "--bot", "r1=arena bot random", "--bot", "r2=arena bot random",
		"--bot", "r3=arena bot random", "--bot", "r4=arena bot random",
		"--games-per-encounter", "2", "--seed", "99", "--concurrency", "2", "--out", out, "-q"}, extra...)
}

// standingsOnly is the part of `standings --json` that must not depend on
// how the run was interrupted.
func standingsOnly(t *testing.T, dir string) string {
	t.Helper()
	out, stderr, code := arena(t, "tournament", "standings", dir, "--json")
	if code != 0 {
		t.Fatalf("standings: %s", stderr)
	}
	var st struct {
		Games     int             `json:"games"`
		Standings json.RawMessage `json:"standings"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d games %s", st.Games, st.Standings)
}

func ledgerLines(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	return bytes.Count(b, []byte("\n"))
}

// TestTournamentSurvivesSIGKILL kills the arena with SIGKILL at several
// points, resumes each time, and ends with exactly the standings of a run
// that was never killed; no bot process outlives a killed arena.
func TestTournamentSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	whole := t.TempDir()
	if _, stderr, code := arena(t, tournamentArgs(whole)...); code != 0 {
		t.Fatalf("uninterrupted run: %s", stderr)
	}
	want := standingsOnly(t, whole)
	// The same games from the same seed: with the whole run's deal secret.
	secret := filepath.Join(whole, deal.FileName)

	out := t.TempDir()
	token := fmt.Sprintf("ARENA_KILL_TOKEN=%d", time.Now().UnixNano())
	for _, killAt := range []int{3, 8, 14} {
		cmd := exec.Command(os.Args[0], tournamentArgs(out, "--deal-secret", secret)...)
		cmd.Env = append(os.Environ(), token)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the ledger to reach killAt games (an event, polled).
		deadline := time.Now().Add(60 * time.Second)
		for ledgerLines(out) < killAt && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if n := ledgerLines(out); n < killAt || n >= 20 {
			t.Fatalf("killed with %d games recorded, wanted to kill at %d of 20: %s", n, killAt, stderr.String())
		}
	}
	// The bots die with the arena (parent-death signal); give the kernel a
	// moment to deliver it, then count survivors.
	deadline := time.Now().Add(5 * time.Second)
	for len(proctest.WithEnv(token)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if left := proctest.WithEnv(token); len(left) > 0 {
		t.Errorf("bot processes outlived the killed arena: %v", left)
	}
	if _, stderr, code := arena(t, tournamentArgs(out, "--deal-secret", secret)...); code != 0 {
		t.Fatalf("resumed run: %s", stderr)
	}
	if got := standingsOnly(t, out); got != want {
		t.Fatalf("standings after kills and resume differ:\n got %s\nwant %s", got, want)
	}
	b, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
	ids := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct {
			GameID string `json:"game_id"`
		}
		json.Unmarshal([]byte(line), &r)
		if ids[r.GameID] {
			t.Fatalf("game %s recorded twice", r.GameID)
		}
		ids[r.GameID] = true
	}
}

func TestTournamentUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\ngame: banqi\nbots:\n  - name: a\n    comand: arena bot random\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "run", bad}, "line 5: field comand not found"},
		{[]string{"tournament", "run", "--resume", "--out", filepath.Join(dir, "none")}, "--resume: no tournament to resume"},
		{[]string{"tournament", "standings", dir}, "not a tournament directory"},
		{[]string{"tournament", "run", "--name", "x", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--format", "swizz", "--out", filepath.Join(dir, "o")}, `format: "swizz" is not a format`},
	}
	for _, tc := range cases {
		_, stderr, code := arena(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %q", tc.args, code, stderr, tc.want)
		}
	}
}
