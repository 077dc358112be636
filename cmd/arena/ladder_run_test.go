package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestLadderRunSays: what a running ladder and the commands beside it
// say. A withdrawal is said as one (it was said as "NAME.v0 admitted"),
// and a second run on the directory is refused for the directory in use
// before it starts a leaderboard (it said "leaderboard on ..." first, or
// failed on the first run's port and never named the real cause).
func TestLadderRunSays(t *testing.T) {
	t.Parallel()
	_, dir := makeLadder(t, ladderFile)
	run := start(t, nil, "ladder", "run", dir)
	run.waitFor(t, regexp.MustCompile(`^(game 1 )`))
	tests := []struct {
		name     string
		args     []string
		code     int
		says     string         // in the command's output
		not      string         // nor this
		runSays  *regexp.Regexp // and the run's stderr, then
		runNever string
	}{
		{"a second run", []string{"run", dir, "--http", "127.0.0.1:0"}, 1, "is in use by another arena run", "leaderboard on", nil, ""},
		{"a withdrawal", []string{"withdraw", dir, "greedy", "--wait"}, 0, "greedy withdrawn", "",
			regexp.MustCompile(`^(arena: greedy withdrawn \(request \S+\))$`), "v0 admitted"},
	}
	for _, tt := range tests {
		out, code := ladderCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.says) || (tt.not != "" && strings.Contains(out, tt.not)) {
			t.Errorf("%s: exit %d, want %d, saying %q and not %q:\n%s", tt.name, code, tt.code, tt.says, tt.not, out)
		}
		if tt.runSays != nil {
			run.waitFor(t, tt.runSays)
		}
		if tt.runNever != "" && strings.Contains(run.stderr(), tt.runNever) {
			t.Errorf("%s: the run says %q:\n%s", tt.name, tt.runNever, run.stderr())
		}
	}
	stopLadder(t, run, dir)
}

// TestLadderSubmitNoRun: submit --wait to a ladder nobody runs says so
// (it said only "waiting for the verdict"); Ctrl-C stops the waiting,
// and the next run judges the submission.
func TestLadderSubmitNoRun(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	_, dir := makeLadder(t, ladderFile)
	sub := start(t, nil, "ladder", "submit", dir, pyBot(t, pyRandom, ""), "--name", "py", "--command", "python3 bot.py", "--wait")
	sub.waitFor(t, regexp.MustCompile(`^(arena: no run of this ladder is going on)`))
	sub.cmd.Process.Signal(syscall.SIGINT)
	sub.wait(t)
	id := regexp.MustCompile(`request (\S+) is judged all the same`).FindStringSubmatch(sub.stderr())
	if id == nil {
		t.Fatalf("submit --wait stopped by SIGINT:\n%s", sub.stderr())
	}
	run := start(t, nil, "ladder", "run", dir)
	run.waitFor(t, regexp.MustCompile(`^(arena: py\.v1 admitted)`))
	if out, code := ladderCmd(t, "status", dir, id[1]); code != 0 || !strings.Contains(out, "admitted as py.v1") {
		t.Errorf("status: exit %d:\n%s", code, out)
	}
	stopLadder(t, run, dir)
}

// TestLadderInitSays: init says a table's size as the ladder file gives
// it; a range was said as its largest size ("uno, 4 seats" for 2-4).
func TestLadderInitSays(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ seats, says string }{
		{"2-4", "uno, 2-4 seats, 1 bundled bot (random)"},
		{"3", "uno, 3 seats, 1 bundled bot (random)"},
	} {
		tmp := t.TempDir()
		file := filepath.Join(tmp, "ladder.yaml")
		yaml := "name: cup\ngame: uno\nseats: " + tt.seats + "\nbots:\n  - name: random\n    command: arena bot random\n"
		if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, code := ladderCmd(t, "init", filepath.Join(tmp, "cup"), file); code != 0 || !strings.Contains(out, tt.says) {
			t.Errorf("seats %s: exit %d, want %q:\n%s", tt.seats, code, tt.says, out)
		}
	}
}
