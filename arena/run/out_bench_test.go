package run_test

import (
	"context"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/run"
)

// BenchmarkOutputCost: what keeping a run's results costs. The same
// 2-ply banqi games between in-memory bots, 4 at once, with no output
// (run.Discard) and into an output directory (replays and ledger lines
// made durable), in one run; out/discard is the ratio of their times per
// game.
//
// Measured 2026-12-02 on a 2-core machine under a load of 25-45 from
// other work, each before (a syncfs per one or two games, replay files
// written in the games' goroutines) and after (replays written by the
// syncer a group at a time, 256 places), interleaved, -benchtime 1000x
// and 2000x, 3 times each: out/discard 1.2-39 before, 1.1-5.5 after;
// out-us/game 3400-14800 before, 1400-10300 after. The load moved the
// discard figure itself from 170 to 6500 us/game, so these bound rather
// than measure.
//
// Then replays packed (a group one append and one fdatasync of the
// run's pack, where each game had a file of its own, a rename, and a
// syncfs of the whole file system, which also waits for what other
// programs wrote): interleaved with the code before, the same day at a
// load of 20, -benchtime 2000x, 3 runs each: out-us/game 1958-3051
// before, 589-845 after (out/discard 1.4-5.3 before, 0.4-1.8 after, the
// discard figure moving from 370 to 1900 us/game with the load). In the
// referee's CPU profile (perf, 2000 games of `arena match`) the syncer
// went from 17% (creating the temporary files 9%, ext4 inode allocation
// 6% of it; rename 3%; syncfs 2%) to 4%,
// most of it the two syncs; compressing the replays is 5%, in the games'
// goroutines. The figure that matters is a match with real bots
// (docs/performance.md#the-output-directory).
func BenchmarkOutputCost(b *testing.B) {
	cfg := config(b, &membot.Launcher{Policy: membot.First}, 4)
	cfg.Options["max_plies"] = "2"
	n := max(b.N, 200)
	play := func(sink func() run.Sink) time.Duration {
		t0 := time.Now()
		res, err := run.Run(context.Background(), cfg, &tables{n: n}, nil, sink())
		if err != nil || res.Done != n {
			b.Fatalf("%v after %d of %d games", err, res.Done, n)
		}
		return time.Since(t0)
	}
	discard := play(func() run.Sink { return run.Discard })
	var dir *run.Dir
	out := play(func() run.Sink {
		var err error
		if dir, err = run.OpenDir(b.TempDir(), nil); err != nil {
			b.Fatal(err)
		}
		files, err := dir.Sink(nil)
		if err != nil {
			b.Fatal(err)
		}
		return files
	})
	dir.Close()
	b.ReportMetric(float64(discard.Microseconds())/float64(n), "discard-us/game")
	b.ReportMetric(float64(out.Microseconds())/float64(n), "out-us/game")
	b.ReportMetric(float64(out)/float64(discard), "out/discard")
}
