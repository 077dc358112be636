package outdir

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// envHolder makes this test binary a lock holder: it takes the lock of
// the directory named, says "locked" on stdout, and holds it until its
// stdin closes or it is killed.
const envHolder = "ARENA_OUTDIR_HOLD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(envHolder); dir != "" {
		l, err := Acquire(dir)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("locked")
		bufio.NewReader(os.Stdin).ReadString('\n') // until the test lets go
		l.Unlock()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// holder starts a separate process that holds dir's lock and returns once
// it does.
func holder(t *testing.T, dir string) (*exec.Cmd, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envHolder+"="+dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the holder did not lock: %q", line)
	}
	return cmd, func() { stdin.Close(); cmd.Wait() }
}

// TestLockBetweenProcesses: while another process holds a directory, a
// run is refused with an error naming the directory and the holder's pid
// (and Busy says so, taking nothing);
// a holder that released cleanly leaves no stale note; one killed with
// SIGKILL leaves a note that the next holder reports as stale.
func TestLockBetweenProcesses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		end       func(cmd *exec.Cmd, release func())
		wantStale bool
	}{
		{"released", func(_ *exec.Cmd, release func()) { release() }, false},
		{"killed", func(cmd *exec.Cmd, _ func()) { cmd.Process.Kill(); cmd.Wait() }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "out")
			cmd, release := holder(t, dir)
			_, err := Acquire(dir)
			var busy *BusyError
			if !errors.As(err, &busy) || !errors.Is(err, ErrBusy) || busy.Holder.PID != cmd.Process.Pid {
				release()
				t.Fatalf("Acquire while held: %v; want a BusyError naming pid %d", err, cmd.Process.Pid)
			}
			if err := Busy(dir); !errors.As(err, &busy) || busy.Holder.PID != cmd.Process.Pid {
				t.Errorf("Busy while held: %v; want a BusyError naming pid %d", err, cmd.Process.Pid)
			}
			for _, want := range []string{dir, fmt.Sprintf("pid %d", cmd.Process.Pid), "record them twice"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal does not say %q: %v", want, err)
				}
			}
			tc.end(cmd, release)
			if err := Busy(dir); err != nil { // and the note stays, for Acquire
				t.Fatalf("Busy after the holder ended: %v", err)
			}
			l, err := Acquire(dir)
			if err != nil {
				t.Fatalf("after the holder ended: %v", err)
			}
			defer l.Unlock()
			if got := l.Stale != nil; got != tc.wantStale {
				t.Fatalf("stale note %+v, want stale %v", l.Stale, tc.wantStale)
			}
			if tc.wantStale && l.Stale.PID != cmd.Process.Pid {
				t.Errorf("stale note names pid %d, want the killed holder's %d", l.Stale.PID, cmd.Process.Pid)
			}
		})
	}
}

// TestLockWithinAProcess: a second Acquire of a held directory fails
// even in the same process (flock locks are per open file), and Unlock
// lets the next one in.
func TestLockWithinAProcess(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(dir); !errors.Is(err, ErrBusy) {
		t.Fatalf("second Acquire: %v, want ErrBusy", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, err := Acquire(dir)
	if err != nil || l2.Stale != nil {
		t.Fatalf("after Unlock: %v, stale %+v", err, l2.Stale)
	}
	l2.Unlock()
	var none *Lock
	if err := none.Unlock(); err != nil {
		t.Fatal(err)
	}
}
