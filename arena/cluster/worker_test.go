package cluster_test

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/natstest"
	"github.com/arena-dev/arena/internal/testkit"
)

// restartable is an embedded JetStream server the test stops and starts
// again, on the same port with the same store, as a distributed run's
// coordinator does with its own.
type restartable struct {
	t     *testing.T
	store string
	port  int
	ns    *server.Server
}

func newRestartable(t *testing.T) *restartable {
	r := &restartable{t: t, store: t.TempDir()}
	r.start()
	r.port = r.ns.Addr().(*net.TCPAddr).Port
	t.Cleanup(r.stop)
	return r
}

func (r *restartable) start() {
	ns, err := remote.StartServer(remote.ServerOptions{Port: r.port, StoreDir: r.store})
	if err != nil {
		r.t.Fatal(err)
	}
	r.ns = ns
}

func (r *restartable) stop() {
	if r.ns != nil {
		r.ns.Shutdown()
		r.ns.WaitForShutdown()
		r.ns = nil
	}
}

// waitFor polls until cond holds (an event of another goroutine).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s in 30s", what)
		}
	}
}

// waitingOnQueue is whether a worker's slot waits for a job (its pull
// request is at the consumer).
func waitingOnQueue(t *testing.T, url string) func() bool {
	js, err := jetstream.New(natstest.Dial(t, url))
	if err != nil {
		t.Fatal(err)
	}
	return func() bool {
		cons, err := js.Consumer(context.Background(), cluster.JobsStream, cluster.Consumer)
		if err != nil {
			return false
		}
		info, err := cons.Info(context.Background())
		return err == nil && info.NumWaiting > 0
	}
}

// A worker whose NATS server goes away (the run that embedded it ended,
// or restarts) says so once, in words, and waits without a line per
// failed fetch; it says when the server is back, and plays the next
// run's games. A connection that gives up reconnecting ends the worker
// with ErrServerGone, where it used to loop on "fetching a job" errors.
func TestWorkerWaitsForItsServer(t *testing.T) {
	c := cup(t, "random", "random")
	srv := newRestartable(t)
	url := srv.ns.ClientURL()
	js, err := jetstream.New(natstest.Dial(t, url))
	if err != nil {
		t.Fatal(err)
	}
	if err := cluster.Setup(context.Background(), js, cluster.Options{}); err != nil {
		t.Fatal(err)
	}
	var log testkit.SyncBuffer
	patient := &cluster.Worker{NC: natstest.Dial(t, url, nats.MaxReconnects(-1), nats.ReconnectWait(20*time.Millisecond)),
		Name: "patient", Concurrency: 1, Log: &log, Bots: stdio.Specs(commands(c.Bots))}
	runWorker(t, patient)
	gaveUp := &cluster.Worker{NC: natstest.Dial(t, url, nats.MaxReconnects(0)), Name: "gave-up", Concurrency: 1, Bots: stdio.Specs(commands(c.Bots))}
	gaveUpErr := make(chan error, 1)
	go func() { gaveUpErr <- gaveUp.Run(context.Background()) }()
	waitFor(t, "worker waiting for a job", waitingOnQueue(t, url))

	srv.stop()
	waitFor(t, "line saying the server went away", func() bool { return strings.Contains(log.String(), "went away") })
	select {
	case err := <-gaveUpErr:
		if !errors.Is(err, cluster.ErrServerGone) {
			t.Errorf("a worker whose connection closed: %v, want ErrServerGone", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a worker whose connection closed for good still runs after 30s")
	}
	srv.start()
	waitFor(t, "line saying the server is back", func() bool { return strings.Contains(log.String(), "is back") })

	// The next run on the server that came back: the worker plays it.
	out := t.TempDir()
	var warn testkit.SyncBuffer
	if _, err := tournament.Run(context.Background(), c, out, distributed(t, url, cluster.Options{}, &warn)); err != nil {
		t.Fatalf("%v\nworker: %s\ncoordinator: %s", err, log.String(), warn.String())
	}
	for _, r := range recordsOf(t, out, 2) {
		if r.Worker != "patient" {
			t.Errorf("game %s played by %q", r.GameID, r.Worker)
		}
	}
	text := log.String()
	if strings.Count(text, "went away") != 1 || strings.Count(text, "is back") != 1 || strings.Contains(text, "fetching a job") {
		t.Errorf("the worker's log, want one line for the server going, one for its return, none per fetch:\n%s", text)
	}
	t.Logf("the worker's log:\n%s", text)
}

// A machine's workers share the run's concurrency (the jobs in flight):
// evenly, the first ones one more, each at least one slot.
func TestShares(t *testing.T) {
	for _, tc := range []struct {
		concurrency, workers int
		want                 []int
	}{
		{1, 1, []int{1}},
		{2, 2, []int{1, 1}},
		{4, 2, []int{2, 2}},
		{5, 2, []int{3, 2}},
		{1, 2, []int{1, 1}}, // one idles whatever it is given
		{3, 0, []int{}},
	} {
		if got := cluster.Shares(tc.concurrency, tc.workers); !slices.Equal(got, tc.want) {
			t.Errorf("Shares(%d, %d) = %v, want %v", tc.concurrency, tc.workers, got, tc.want)
		}
	}
}
