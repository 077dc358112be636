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
