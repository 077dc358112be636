package remote_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkRefereeOverNATS reports, in one run on one embedded server
// (TCP over loopback, a connection per peer):
//
//   - request-us/rt: a raw NATS request-reply loop with the same turn
//     lines to two peers in turn, each answering a fixed action from its
//     message callback, as a two-seat game alternates;
//   - request-bot-us/rt: the same loop to the same kind of peer as the
//     referee's: each peer hands the turn to an in-memory bot and
//     answers with its reply (the bridge's work, no protocol framing);
//   - referee-us/move: whole banqi games through the referee, both seats
//     remote (remote.Serve of an in-memory bot on connections of their
//     own, sessions opened by remote.Launcher);
//   - ratio: referee-us/move over request-bot-us/rt, the referee's and the
//     session protocol's own cost (target: at most 1.25);
//   - ratio-bare: referee-us/move over request-us/rt.
func BenchmarkRefereeOverNATS(b *testing.B) {
	ns, err := remote.StartServer(remote.ServerOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	dial := func() *nats.Conn {
		nc, err := nats.Connect(ns.ClientURL())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(nc.Close)
		return nc
	}
	n := max(b.N, 500)
	turns := testkit.BanqiTurns(b, 200)

	// The baseline.
	ref := dial()
	defer ref.Close()
	for i := range 2 {
		peer := dial()
		defer peer.Close()
		if _, err := peer.Subscribe(fmt.Sprintf("bench.peer%d", i), func(m *nats.Msg) {
			m.Respond([]byte(`{"type":"action","id":1,"index":0}`))
		}); err != nil {
			b.Fatal(err)
		}
		peer.Flush()
	}
	start := time.Now()
	for i := range n {
		if _, err := ref.Request(fmt.Sprintf("bench.peer%d", i%2), turns[i%len(turns)], 10*time.Second); err != nil {
			b.Fatal(err)
		}
	}
	rawUs := float64(time.Since(start).Microseconds()) / float64(n)

	// The same loop to the same kind of peer as the referee's: each peer
	// hands the turn to an in-memory bot (membot, on a transport.Pipe)
	// and answers with its reply, as remote.Serve's bridge does.
	for i := range 2 {
		peer := dial()
		defer peer.Close()
		s := membot.Start(membot.First, nil, 0)
		defer s.Close()
		hello := []byte(`{"type":"hello","protocol":1,"game":"banqi","seat":0,"seats":2,"seed":1}`)
		s.Send(hello, time.Now().Add(10*time.Second))
		s.Receive(time.Now().Add(10 * time.Second))
		if _, err := peer.Subscribe(fmt.Sprintf("bench.bot%d", i), func(m *nats.Msg) {
			s.Send(m.Data, time.Now().Add(10*time.Second))
			line, err := s.Receive(time.Now().Add(10 * time.Second))
			if err == nil {
				m.Respond(line)
			}
		}); err != nil {
			b.Fatal(err)
		}
		peer.Flush()
	}
	start = time.Now()
	for i := range n {
		if _, err := ref.Request(fmt.Sprintf("bench.bot%d", i%2), turns[i%len(turns)], 10*time.Second); err != nil {
			b.Fatal(err)
		}
	}
	peerUs := float64(time.Since(start).Microseconds()) / float64(n)

	// The referee, both seats remote.
	for _, id := range []string{"a", "b"} {
		serveOn(b, dial(), id, 1, inMemory(membot.First))
	}
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	var players []referee.Player
	for _, id := range []string{"a", "b"} {
		e, err := (&remote.Launcher{NC: ref, ID: id, Wait: 10 * time.Second}).Launch(id, bot.LaunchOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		players = append(players, referee.Player{Name: id, Conn: e})
	}
	b.ResetTimer()
	var total time.Duration
	moves := 0
	for seed := uint64(1); moves < n; seed++ {
		t0 := time.Now()
		res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: seed, Match: "bench", GameID: "g",
			Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}}, players)
		total += time.Since(t0)
		if err != nil || len(res.Forfeits) > 0 {
			b.Fatalf("game %d: %v %+v", seed, err, res.Forfeits)
		}
		moves += res.Plies
	}
	refUs := float64(total.Microseconds()) / float64(moves)
	b.ReportMetric(rawUs, "request-us/rt")
	b.ReportMetric(peerUs, "request-bot-us/rt")
	b.ReportMetric(refUs, "referee-us/move")
	b.ReportMetric(refUs/rawUs, "ratio-bare")
	b.ReportMetric(refUs/peerUs, "ratio")
}
