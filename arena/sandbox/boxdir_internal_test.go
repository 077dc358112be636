//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// A box directory is locked while its arena has it: another open of it
// cannot take the lock, and once removed it is gone.
func TestBoxDirIsLockedUntilRemoved(t *testing.T) {
	d, err := makeBoxDir(boxID("locktest"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		t.Error("another open of a box directory took its lock")
	}
	d.remove()
	if _, err := os.Stat(d.path); !os.IsNotExist(err) {
		t.Errorf("%s after remove: %v", d.path, err)
	}
}

// sweepBoxDirs removes exactly what a dead arena left: a directory named
// as a box of a dead arena (or of one whose pid another process took
// since), owned by an owner, that no one holds locked; not a live arena's
// (locked, or its pid's process older than the directory), not this
// arena's, not another user's, not a symbolic link, not another name.
func TestSweepRemovesOnlyDeadArenasDirectories(t *testing.T) {
	tmp := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	live := exec.Command("sleep", "60")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { live.Process.Kill(); live.Wait() }()
	deadPid, livePid := dead.Process.Pid, live.Process.Pid
	mkdir := func(name string) string {
		path := filepath.Join(tmp, name)
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
		return path
	}
	name := func(pid int, bot string) string { return fmt.Sprintf("arena-%d-1-%s-123", pid, bot) }

	left := mkdir(name(deadPid, "left"))
	os.WriteFile(filepath.Join(left, "what-the-bot-wrote"), []byte("x"), 0o600)
	taken := mkdir(name(livePid, "taken")) // its arena died long ago; the pid is another's now
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(taken, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	locked := mkdir(name(deadPid, "locked"))
	lock, err := os.Open(locked)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	kept := []string{
		locked,
		mkdir(name(livePid, "alive")), // made after its arena started
		mkdir(name(os.Getpid(), "mine")),
		mkdir(fmt.Sprintf("arena-probe-%d", deadPid)),
		mkdir("arena-uids"),
	}
	target := mkdir("target")
	link := filepath.Join(tmp, name(deadPid, "link"))
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, target, link)
	if os.Geteuid() == 0 {
		other := mkdir(name(deadPid, "other"))
		if err := os.Chown(other, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, other)
	}

	removed := sweepBoxDirs(tmp, []int{os.Geteuid()})
	want := []string{left, taken}
	slices.Sort(removed)
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	for _, path := range []string{left, taken} {
		if _, err := os.Lstat(path); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", filepath.Base(path), err)
		}
	}
	for _, path := range kept {
		if _, err := os.Lstat(path); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(path), err)
		}
	}
}
