package remote_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/remote"
)

// awaitServed waits for p to say want of id, through Changed: the test
// waits on what Presence tells, not on a clock.
func awaitServed(t *testing.T, p *remote.Presence, id string, want bool, what string) {
	t.Helper()
	limit := time.After(10 * time.Second) // a bound on a hang, not a measure
	for p.Served(id) != want {
		select {
		case <-p.Changed():
		case <-limit:
			t.Fatalf("%s: Served(%s) still %v", what, id, !want)
		}
	}
}

// A Presence follows a bot through what its servers do: nobody serving
// it, a server that claims it (announced), one that stops (announced),
// and one whose connection dies without a word (found by a probe), then
// a server again.
func TestPresenceFollowsServers(t *testing.T) {
	url := server(t)
	p, err := remote.NewPresence(connect(t, url), 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Track("alice")
	if p.Served("alice") {
		t.Fatal("served before anyone serves it")
	}
	for _, step := range []struct {
		what string
		stop func(nc *nats.Conn, cancel context.CancelFunc)
	}{
		{"a server that stops", func(_ *nats.Conn, cancel context.CancelFunc) { cancel() }},
		{"a server whose connection dies", func(nc *nats.Conn, _ context.CancelFunc) { nc.Close() }},
	} {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		srv := &remote.Server{NC: nc, ID: "alice", Sessions: 1, Start: inMemory(membot.Random)}
		go func() { done <- srv.Serve(ctx) }()
		awaitServed(t, p, "alice", true, step.what+", started")
		step.stop(nc, cancel)
		awaitServed(t, p, "alice", false, step.what)
		cancel()
		<-done
		nc.Close()
	}
	if p.Served("bob") {
		t.Error("a bot not followed is served")
	}
}

// A Launcher bound with a Presence is Served only while a server serves
// its bot; one without follows nothing and is taken as served.
func TestLauncherServed(t *testing.T) {
	url := server(t)
	nc := connect(t, url)
	p, err := remote.NewPresence(nc, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	b := &remote.Binding{NC: nc, Wait: time.Second, Presence: p}
	l, err := b.Bind(remote.Target{ID: "carol"}, "")
	if err != nil {
		t.Fatal(err)
	}
	served := l.(interface{ Served() bool })
	if served.Served() {
		t.Error("served before anyone serves it")
	}
	serve(t, url, "carol", 1, membot.Random)
	awaitServed(t, p, "carol", true, "served")
	if !served.Served() {
		t.Error("its Presence says served, the Launcher not")
	}
	if !(&remote.Launcher{NC: nc, ID: "dave"}).Served() {
		t.Error("a Launcher without a Presence is not served")
	}
}
