package web

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/replays"
)

// BenchmarkRead reads a ledger of 100,000 games of 100 bots (two-seat
// tables) as a server starting on it does, and reports the memory the
// state keeps per game (B/game, flat but for where each replay is) and
// its time against ledger.Read's of the same file in the same run (the
// arena's reader of a whole ledger: the baseline).
func BenchmarkRead(b *testing.B) {
	const games = 100_000
	path := filepath.Join(b.TempDir(), ledger.FileName)
	w, err := ledger.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	for i := range games {
		x, y := fmt.Sprintf("bot%d.v1", i%100), fmt.Sprintf("bot%d.v1", (i*7+3)%100)
		if x == y {
			y = "other.v1"
		}
		rec := ledger.Record{Index: i, GameID: fmt.Sprintf("cup-t%06d-g%d", i/2+1, i%2+1), Round: i/2 + 1, Seed: uint64(i) * 7919,
			Bots: []string{x, y}, Ranks: []int{1, 2}, Scores: []float64{1, 0}, Reason: "out of cards", Plies: 40,
			Replay: "replays/" + replays.PackName(i/1000+1), ReplayAt: &replays.Span{Offset: int64(i) * 900, Size: 900}}
		if err := w.AppendUnsynced(rec); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	var kept uint64
	var base, ours time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, _, err := ledger.Read[ledger.Record](path); err != nil {
			b.Fatal(err)
		}
		base += time.Since(t0)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		t0 = time.Now()
		tl, st := tail{path: path}, newState(stats.DefaultParams(), stats.DefaultSkill(), Recent)
		for {
			recs, err := tl.next(batch)
			if err != nil {
				b.Fatal(err)
			}
			st.add(recs)
			if len(recs) < batch {
				break
			}
		}
		ours += time.Since(t0)
		runtime.GC()
		runtime.ReadMemStats(&after)
		if st.visible != games {
			b.Fatalf("%d games visible, want %d", st.visible, games)
		}
		kept = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(st)
	}
	b.ReportMetric(float64(kept)/games, "B/game")
	b.ReportMetric(float64(ours)/float64(base), "x_ledger.Read")
}
