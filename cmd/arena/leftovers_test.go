package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// boxDirs lists the bot directories that the arena of pid has in tmp
// (sandbox: arena-PID-N-BOT-...).
func boxDirs(t *testing.T, tmp string, pid int) []string {
	t.Helper()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("arena-%d-", pid)) {
			out = append(out, filepath.Join(tmp, e.Name()))
		}
	}
	return out
}

// startStalled starts a match of two bots that never answer a turn, with
// tmp as its temporary directory, and returns it once it has made the
// directories of both bots' processes, and them.
func startStalled(t *testing.T, tmp, staller string) (*exec.Cmd, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "match", "--game", "banqi", "--games", "2", "--out", t.TempDir(),
		"--bot", "s1=sh "+staller, "--bot", "s2=sh "+staller, "--move-time", "1m", "-q")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // a child of this test
	deadline := time.Now().Add(20 * time.Second)
	for {
		if dirs := boxDirs(t, tmp, cmd.Process.Pid); len(dirs) >= 2 {
			return cmd, dirs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the arena made no bot directories in 20s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestKilledRunsDirectoriesGoNextRun: an arena killed with SIGKILL in the
// middle of a game leaves its bots' directories behind; the next run
// removes them, and leaves those of an arena running meanwhile alone.
func TestKilledRunsDirectoriesGoNextRun(t *testing.T) {
	t.Parallel()
	scripts := t.TempDir()
	os.Chmod(filepath.Dir(scripts), 0o755) // bots of a root arena read their programs as others
	os.Chmod(scripts, 0o755)
	staller := filepath.Join(scripts, "staller.sh")
	if err := os.WriteFile(staller, []byte("read x; echo '{\"type\":\"ready\"}'; exec sleep 60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir() // the arenas' temporary directory: theirs alone

	killed, _ := startStalled(t, tmp, staller)
	if err := killed.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed.Wait()
	left := boxDirs(t, tmp, killed.Process.Pid)
	if len(left) == 0 {
		t.Fatal("the killed arena left no directories: nothing to test")
	}
	_, running := startStalled(t, tmp, staller)

	next := exec.Command(os.Args[0], "match", "--game", "banqi", "--games", "2", "--out", t.TempDir(),
		"--bot", "a=arena bot random", "--bot", "b=arena bot random", "-q")
	next.Env = append(os.Environ(), "TMPDIR="+tmp)
	if out, err := next.CombinedOutput(); err != nil {
		t.Fatalf("the next run: %v\n%s", err, out)
	}
	for _, dir := range left {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the killed arena's %s is still there after the next run (%v)", filepath.Base(dir), err)
		}
	}
	for _, dir := range running {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("the running arena's %s: %v", filepath.Base(dir), err)
		}
	}
}
