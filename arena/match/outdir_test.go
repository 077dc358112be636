package match_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/outdir"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/internal/testkit"
)

// fullDisk mounts a tmpfs of one page at dir and fills it, so that
// every write there fails with ENOSPC, as on a full disk. It skips the
// test where mounting is not allowed (not root, no mount namespace
// rights), saying so.
func fullDisk(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a full disk is made with a small tmpfs, which needs root")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4k"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (%v): no full disk to test with", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// TestLostStderrLogsAreReported: with the logs on a full disk (and the
// ledger and replays not), the match plays on and records every game, and
// every game's stderr log that could not be written is a warning naming
// its file, plus a count at the end; none goes missing in silence.
func TestLostStderrLogsAreReported(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
	out := t.TempDir()
	fullDisk(t, filepath.Join(out, "logs"))
	var warn testkit.SyncBuffer
	cfg := config(t, 4, 3, out)
	cfg.Warn = &warn
	sum, err := match.Run(context.Background(), cfg, fx.bots)
	if err != nil {
		t.Fatalf("a full disk for the logs stopped the match: %v", err)
	}
	recs, _ := results(t, out)
	if sum.Games != 4 || len(recs) != 4 {
		t.Fatalf("%d games played, %d recorded; want 4", sum.Games, len(recs))
	}
	text := warn.String()
	for _, r := range recs {
		for _, bot := range r.Bots {
			path := filepath.Join(out, "logs", bot, r.GameID+".stderr.log")
			if !strings.Contains(text, "stderr log "+path+" is incomplete") {
				t.Errorf("no warning for the lost log %s:\n%s", path, text)
			}
		}
	}
	if !strings.Contains(text, "no space left on device") || !strings.Contains(text, run.LostLogsText(8, 8)) {
		t.Errorf("warnings do not give the cause and the count (%q):\n%s", run.LostLogsText(8, 8), text)
	}
}

// TestFullDiskStopsTheMatchClearly: when the whole output directory's
// disk fills up, the match stops with an error that names the file it
// could not write and wraps ENOSPC; every game recorded by then is whole
// (its ledger line complete, its replay there).
func TestFullDiskStopsTheMatchClearly(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
	out := filepath.Join(t.TempDir(), "out")
	if os.Geteuid() != 0 {
		t.Skip("a full disk is made with a small tmpfs, which needs root")
	}
	os.MkdirAll(out, 0o755)
	if err := syscall.Mount("tmpfs", out, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs (%v): no full disk to test with", err)
	}
	t.Cleanup(func() { syscall.Unmount(out, syscall.MNT_DETACH) })
	_, runErr := match.Run(context.Background(), config(t, 200, 3, out), fx.bots)
	if err := runErr; !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), out) {
		t.Fatalf("a full disk: %v; want ENOSPC naming a file in %s", err, out)
	}
	recs, torn, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if err != nil || torn != nil {
		t.Fatalf("the ledger after a full disk: %v, torn %v", err, torn)
	}
	t.Logf("%d games recorded; the error: %v", len(recs), runErr)
	for _, r := range recs {
		if _, err := r.ReplaySource(out).Read(); err != nil {
			t.Errorf("game %s is recorded but its replay is not there: %v", r.GameID, err)
		}
	}
}

// TestMatchIDsDiffer: matches started at the same moment (the same
// second, almost surely) get different match ids, so their game ids and
// replay names differ.
func TestMatchIDsDiffer(t *testing.T) {
	t.Parallel()
	const runs = 3
	ids := make([][]string, runs)
	var wg sync.WaitGroup
	for i := range runs {
		fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
		cfg := config(t, 1, 5, "")
		cfg.OnGame = func(r ledger.Record) { ids[i] = append(ids[i], r.GameID) }
		wg.Go(func() {
			if _, err := match.Run(context.Background(), cfg, fx.bots); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, list := range ids {
		for _, id := range list {
			if seen[id] {
				t.Fatalf("two matches both played game %s: %v", id, ids)
			}
			seen[id] = true
		}
	}
}

// TestOutDirIsLockedAndCleaned: a match into a directory another run
// holds is refused before it plays or writes anything; a run into a
// directory a killed run left behind removes its unfinished replay files.
func TestOutDirIsLockedAndCleaned(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	lock, err := outdir.Acquire(out)
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
	_, err = match.Run(context.Background(), config(t, 2, 5, out), fx.bots)
	if !errors.Is(err, outdir.ErrBusy) {
		t.Fatalf("a match into a held directory: %v, want ErrBusy", err)
	}
	if _, serr := os.Stat(filepath.Join(out, "results.jsonl")); serr == nil {
		t.Fatal("the refused match wrote a ledger")
	}
	lock.Unlock()

	leftover := filepath.Join(out, "replays", ".banqi-x-g0000.jsonl.zst.tmp-99-1-7")
	os.MkdirAll(filepath.Dir(leftover), 0o755)
	os.WriteFile(leftover, []byte("half a replay"), 0o644)
	var warn testkit.SyncBuffer
	cfg := config(t, 2, 5, out)
	cfg.Warn = &warn
	if _, err := match.Run(context.Background(), cfg, fx.bots); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(leftover); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the unfinished replay of a killed run is still there (%v)", err)
	}
	if !strings.Contains(warn.String(), "removed 1 unfinished replay file") {
		t.Errorf("the clean-up is not reported:\n%s", warn.String())
	}
}

// TestStaleLockOfAKilledProcess: a run whose lock holder was killed
// takes the directory over and says so, naming the dead holder's pid.
func TestStaleLockOfAKilledProcess(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	// A killed holder's flock is gone with it; its note stays. The note
	// of a process that has exited, then (separate processes and a real
	// SIGKILL: arena/outdir's and cmd/arena's tests).
	child := exec.Command(os.Args[0], "-test.run=^$")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	dead := child.Process.Pid
	note := fmt.Sprintf("%d\n2025-06-01T12:00:00Z\narena match --out %s\n", dead, out)
	os.WriteFile(filepath.Join(out, outdir.LockName), []byte(note), 0o644)

	fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
	var warn testkit.SyncBuffer
	cfg := config(t, 2, 5, out)
	cfg.Warn = &warn
	if _, err := match.Run(context.Background(), cfg, fx.bots); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), fmt.Sprintf("pid %d", dead)) || !strings.Contains(warn.String(), "without releasing") {
		t.Errorf("the stale lock is not reported:\n%s", warn.String())
	}
}
