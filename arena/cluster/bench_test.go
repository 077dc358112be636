package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/internal/natstest"
	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkDistributedThroughput: games per second of trivial banqi games
// (4 plies, in-memory bots) played by the local runner, and through the
// JetStream queue by one and by two workers (in this process, each on a
// connection of its own to an embedded server over TCP loopback), at the
// same concurrency. Each game is one job: the ratios are the queue's
// cost per job (publish, deliver, lease, result, verify, ack).
func BenchmarkDistributedThroughput(b *testing.B) {
	g, opts := testkit.Setup(b, "banqi", 2, map[string]string{"max_plies": "4"})
	const concurrency = 8
	cfg := run.Config{Game: g, Options: opts, MatchID: "bench", Concurrency: concurrency,
		Settings: run.Settings{Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}},
		Bots:     []bot.Spec{{Name: "a", Launcher: inMemory{&membot.Launcher{Policy: membot.First}}}, {Name: "b", Launcher: inMemory{&membot.Launcher{Policy: membot.First}}}}}
	n := max(b.N, 200)
	rate := func(res *run.Result, err error, d time.Duration) float64 {
		if err != nil || res.Done != n {
			b.Fatalf("%v after %d of %d games", err, res.Done, n)
		}
		return float64(n) / d.Seconds()
	}
	t0 := time.Now()
	res, err := run.Run(context.Background(), cfg, &fixed{n: n}, nil, run.Discard)
	local := rate(res, err, time.Since(t0))

	distributed := func(workers int) float64 {
		url := natstest.Server(b, remote.ServerOptions{StoreDir: b.TempDir()})
		dial := func() *nats.Conn { return natstest.Dial(b, url) }
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{}, workers)
		for i := range workers {
			w := &cluster.Worker{NC: dial(), Name: fmt.Sprintf("w%d", i), Bots: cfg.Bots, Concurrency: concurrency / workers}
			go func() { w.Run(ctx); done <- struct{}{} }()
		}
		defer func() {
			cancel()
			for range workers {
				<-done
			}
		}()
		nc := dial()
		c := cfg
		c.MatchID = fmt.Sprintf("bench%d", workers)
		t0 := time.Now()
		c.Executor, err = cluster.NewCoordinator(ctx, nc, c, cluster.Options{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := run.Run(context.Background(), c, &fixed{n: n}, nil, run.Discard)
		return rate(res, err, time.Since(t0))
	}
	one, two := distributed(1), distributed(2)
	b.ReportMetric(local, "local-games/s")
	b.ReportMetric(one, "1worker-games/s")
	b.ReportMetric(two, "2workers-games/s")
	b.ReportMetric(local/one, "local/1worker")
	b.ReportMetric(two/one, "2workers/1worker")
}
