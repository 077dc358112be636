package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/shlex"
)

// readmeCommand is the first command of the README's section that
// begins with heading, as arguments to the arena (the "go run
// ./cmd/arena" dropped, continuation lines joined).
func readmeCommand(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), heading)
	if !ok {
		t.Fatalf("README.md has no %q", heading)
	}
	_, block, _ := strings.Cut(section, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	line, _, _ := strings.Cut(strings.ReplaceAll(block, "\\\n", " "), "\n")
	args, err := shlex.Split(line)
	if err != nil || len(args) < 4 || strings.Join(args[:3], " ") != "go run ./cmd/arena" {
		t.Fatalf("README's command %q (%v): want go run ./cmd/arena ...", line, err)
	}
	return args[3:]
}

// The README's distributed example: its two local workers share the
// run's concurrency, one game at a time each, so that both play (at
// concurrency 1, the default on two cores, one idled with as many slots
// as the other); every game is recorded, by a local worker.
func TestReadmeDistributedExample(t *testing.T) {
	t.Parallel()
	args := readmeCommand(t, "### Games played by workers")
	out := filepath.Join(t.TempDir(), "cup")
	for i, a := range args {
		if a == "--out" {
			args[i+1] = out
		}
	}
	args = append(args, "-q", "--option", "max_plies=40") // shorter games, the same run
	_, stderr, code := arena(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d:\n%s", args, code, stderr)
	}
	if !strings.Contains(stderr, "arena: distributed: 2 local workers, 1 game at a time each") || strings.Contains(stderr, "will idle") {
		t.Errorf("the workers' slots, want 1 each of the concurrency 2:\n%s", stderr)
	}
	workers := map[string]int{}
	for _, r := range ledgerOf(t, out) {
		workers[r.Worker]++
	}
	if workers[""] > 0 || len(workers) > 2 {
		t.Errorf("games per worker %v: want every game played by one of the two local workers", workers)
	}
	t.Logf("games per worker: %v", workers)
	// Fewer jobs in flight than workers: said before any game is played.
	idle := start(t, nil, append(args, "--concurrency", "1", "--workers", "3", "--out", filepath.Join(t.TempDir(), "idle"))...)
	idle.waitFor(t, regexp.MustCompile(`(--workers 3 at concurrency 1: .* 2 local workers will idle; give --concurrency 3)`))
	idle.cmd.Process.Signal(syscall.SIGTERM)
	idle.wait(t)
}

// The warning that the bots of the games at once want more cores than
// the machine has is about games played on this machine: a local run, or
// a distributed one's local workers; not a distributed run whose games
// workers elsewhere play.
func TestLoadWarningOnlyForGamesPlayedHere(t *testing.T) {
	t.Parallel()
	over := strconv.Itoa(runtime.NumCPU() + 1) // x 2 seats: more bots than cores, on any machine
	cup := func(out string, extra ...string) []string {
		return append([]string{"tournament", "run", "--name", "lcup", "--game", "banqi", "--option", "max_plies=20",
			"--bot", "r1=arena bot random", "--bot", "r2=arena bot random", "--games-per-encounter", "2",
			"--concurrency", over, "--out", out, "-q"}, extra...)
	}
	const warning = "bot processes busy at once on"
	for _, tc := range []struct {
		name     string
		extra    []string
		external bool // an arena worker process plays the games
		warns    bool
	}{
		{"local", nil, false, true},
		{"distributed, local worker", []string{"--distributed", "--workers", "1"}, false, true},
		{"distributed, workers elsewhere", []string{"--distributed", "--workers", "0"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			coord := start(t, nil, cup(filepath.Join(t.TempDir(), "out"), tc.extra...)...)
			if tc.external {
				url := coord.waitFor(t, workerURL)
				w := start(t, nil, "worker", "--nats", url, "--name", "far", "--bot", "r1=arena bot random", "--bot", "r2=arena bot random")
				defer func() { w.cmd.Process.Signal(syscall.SIGTERM); w.wait(t) }()
			}
			if code := coord.wait(t); code != 0 {
				t.Fatalf("exit %d:\n%s", code, coord.stderr())
			}
			if warned := strings.Contains(coord.stderr(), warning); warned != tc.warns {
				t.Errorf("warned: %v, want %v:\n%s", warned, tc.warns, coord.stderr())
			}
		})
	}
}
