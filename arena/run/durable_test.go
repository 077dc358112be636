package run_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/replays"
)

// durability follows what a crash of the machine would keep of an output
// directory: the bytes of a pack are durable once a sync of the pack
// that began after they were written has returned (OSSyncPack:
// fdatasync(2), and for a fresh pack its directory too), and a ledger
// line may reach the disk as soon as it is appended, synced or not. So,
// before each sync and each write to a pack, and at the end, every line
// the ledger holds must name a span of a pack that was already durable:
// a line appended before its replay's sync returned is seen at the next
// check with its replay not durable, since durability only grows at a
// sync.
type durability struct {
	t       *testing.T
	ledger  string
	mu      sync.Mutex
	written map[string]int64 // bytes written to each pack
	durable map[string]int64 // ... and then synced
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
		if r.Replay == "" || r.ReplayAt == nil || r.ReplayAt.End() > d.durable[filepath.Join(dir, r.Replay)] {
			d.t.Errorf("%s: the ledger has game %s, whose replay %q %v is not durable yet", when, r.GameID, r.Replay, r.ReplayAt)
		}
	}
}

func (d *durability) write(pack *os.File, data []byte) error {
	d.mu.Lock()
	d.check("before writing to " + filepath.Base(pack.Name()))
	d.mu.Unlock()
	err := run.OSWritePack(pack, data)
	if err == nil {
		d.mu.Lock()
		d.written[pack.Name()] += int64(len(data))
		d.mu.Unlock()
	}
	return err
}

func (d *durability) sync(pack *os.File, fresh bool) error {
	d.mu.Lock()
	d.check("before a sync")
	before := d.written[pack.Name()]
	d.mu.Unlock()
	err := run.OSSyncPack(pack, fresh)
	if err == nil {
		d.mu.Lock()
		d.syncs++
		d.durable[pack.Name()] = before
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
			d := &durability{t: t, ledger: dir.LedgerPath(), written: map[string]int64{}, durable: map[string]int64{}}
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
				rp, err := r.ReplaySource(dir.Path).Read()
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
