package run_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/replays"
)

// durability follows what a crash of the machine would keep of an output
// directory: a replay file is durable once a sync that began after it was
// written has returned (OSSyncReplays: syncfs(2) of the file system, or
// each file and the directory), and a ledger line may reach the disk as
// soon as it is appended, synced or not. So, before each sync and each
// replay write, and at the end, every line the ledger holds must name a
// game whose replay was already durable: a line appended before its
// replay's sync returned is seen at the next check with its replay not
// durable, since durability only grows at a sync.
type durability struct {
	t       *testing.T
	ledger  string
	mu      sync.Mutex
	written map[string]bool // replay files written (renamed into place)
	durable map[string]bool // ... and then synced
	syncs   int
}

func (d *durability) check(when string) {
	d.t.Helper()
	recs, _, err := ledger.Read[ledger.Record](d.ledger)
	if err != nil {
		// Errorf, not Fatalf: check runs on the syncer's goroutine, which
		// Fatalf would end, leaving the run waiting for its sync.
		d.t.Errorf("%s: %v", when, err)
		return
	}
	dir := filepath.Dir(d.ledger)
	for _, r := range recs {
		if r.Replay == "" || !d.durable[filepath.Join(dir, r.Replay)] {
			d.t.Errorf("%s: the ledger has game %s, whose replay %q is not durable yet", when, r.GameID, r.Replay)
		}
	}
}

func (d *durability) write(path string, data []byte) error {
	d.mu.Lock()
	d.check("before writing " + filepath.Base(path))
	d.mu.Unlock()
	err := run.OSWriteReplay(path, data)
	if err == nil {
		d.mu.Lock()
		d.written[path] = true
		d.mu.Unlock()
	}
	return err
}

func (d *durability) sync(dir string, paths []string) error {
	d.mu.Lock()
	d.check("before a sync")
	before := make([]string, 0, len(d.written))
	for p := range d.written {
		before = append(before, p)
	}
	d.mu.Unlock()
	err := run.OSSyncReplays(dir, paths)
	if err == nil {
		d.mu.Lock()
		d.syncs++
		for _, p := range before {
			d.durable[p] = true
		}
		d.mu.Unlock()
	}
	return err
}

// TestNoLedgerLineBeforeItsReplayIsDurable: a run into an output
// directory appends a game's ledger line only once the game's replay is
// durable (see durability), at every concurrency, with and without a
// stop rule; every game counted is in the ledger, and its replay is
// there, whole, and verifies.
func TestNoLedgerLineBeforeItsReplayIsDurable(t *testing.T) {
	for _, tc := range []struct {
		name        string
		concurrency int
		stop        bool
	}{{"c1", 1, false}, {"c4", 4, false}, {"c3-stop", 3, true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, err := run.OpenDir(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			files, err := dir.Sink(nil)
			if err != nil {
				t.Fatal(err)
			}
			d := &durability{t: t, ledger: dir.LedgerPath(), written: map[string]bool{}, durable: map[string]bool{}}
			run.WatchDisk(files, d.write, d.sync)
			cfg := config(t, &membot.Launcher{Policy: membot.First}, tc.concurrency)
			cfg.Options["max_plies"] = "4"
			const n = 60
			var stop run.StopRule
			if tc.stop {
				stop = &afterN{n: n}
			}
			res, err := run.Run(context.Background(), cfg, &tables{n: n}, stop, files)
			dir.Close()
			if err != nil || res.Done != n {
				t.Fatalf("%v after %d of %d games", err, res.Done, n)
			}
			d.check("at the end")
			recs, _, err := ledger.Read[ledger.Record](dir.LedgerPath())
			if err != nil || len(recs) != res.Played {
				t.Fatalf("%d ledger lines (%v), %d games played", len(recs), err, res.Played)
			}
			for _, r := range recs {
				rp, err := replays.ReadFile(filepath.Join(dir.Path, r.Replay))
				if err == nil {
					err = replays.Verify(rp)
				}
				if err != nil {
					t.Errorf("game %s: its replay: %v", r.GameID, err)
				}
			}
			t.Logf("%d games, %d syncs of replays", len(recs), d.syncs)
		})
	}
}
