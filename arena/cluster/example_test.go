package cluster_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/engine"
)

// inMemory is an in-memory bot with a build, so that workers may play it.
type inMemory struct{ *membot.Launcher }

func (inMemory) Build() (string, error) { return "membot-first", nil }

// fixed is a Source of n games between bots 0 and 1, seats alternating.
type fixed struct{ n, next int }

func (f *fixed) Next() (run.Table, schedule.Status) {
	if f.next == f.n {
		return run.Table{}, schedule.Done
	}
	i := f.next
	f.next++
	return run.Table{Game: schedule.Game{ID: fmt.Sprint(i), Seats: []int{i % 2, 1 - i%2}}, GameID: fmt.Sprintf("g%d", i), Seed: uint64(i + 1)}, schedule.Ready
}

func (f *fixed) Result(run.Table, ledger.Record) error { return nil }

// A run whose games a worker plays: the coordinator is the run's
// Executor, the worker pulls the jobs from an embedded JetStream server.
// The bots here are in memory (a launcher with a Build); arena worker
// plays bot commands and remote bots.
func ExampleCoordinator() {
	dir, _ := os.MkdirTemp("", "jetstream-*")
	defer os.RemoveAll(dir)
	ns, _ := remote.StartServer(remote.ServerOptions{StoreDir: dir})
	defer ns.Shutdown()
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, map[string]string{"max_plies": "20"})
	cfg := run.Config{Game: g, Options: opts, MatchID: "example", Concurrency: 2,
		Settings: run.Settings{Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}},
		Bots: []bot.Spec{
			{Name: "first", Launcher: inMemory{&membot.Launcher{Policy: membot.First}}},
			{Name: "random", Launcher: inMemory{&membot.Launcher{Policy: membot.Random}}},
		}}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	workerConn, _ := nats.Connect(ns.ClientURL())
	defer workerConn.Close()
	w := &cluster.Worker{NC: workerConn, Name: "w1", Bots: cfg.Bots, Concurrency: 2}
	go w.Run(ctx)

	coordConn, _ := nats.Connect(ns.ClientURL())
	defer coordConn.Close()
	coord, err := cluster.NewCoordinator(ctx, coordConn, cfg, cluster.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg.Executor = coord
	res, err := run.Run(context.Background(), cfg, &fixed{n: 6}, nil, run.Discard)
	fmt.Println(res.Done, "games counted, last played by", res.Last.Worker, err)
	// Output: 6 games counted, last played by w1 <nil>
}
