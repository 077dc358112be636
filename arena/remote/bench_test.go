package remote_test

import (
	"bytes"
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
	"github.com/arena-dev/arena/internal/natstest"
)

// BenchmarkRefereeOverNATS reports, in one run on one embedded server
// (TCP over loopback, a connection per peer):
//
//   - request-us/rt: a raw NATS request-reply loop with the turn lines
//     the referee sent (each game's, right after it) to two peers, each
//     line to its seat's, each peer answering a fixed action from its
//     message callback;
//   - request-bot-us/rt: the same loop to the same kind of peer as the
//     referee's: each peer hands the turn to an in-memory bot and
//     answers with its reply (the bridge's work, no protocol framing);
//   - referee-us/move: whole banqi games through the referee, both seats
//     remote (remote.Server of an in-memory bot on connections of their
//     own, sessions opened by remote.Launcher), with plies/game;
//   - ratio: referee-us/move over request-bot-us/rt, the referee's and the
//     session protocol's own cost (target: at most 1.25);
//   - ratio-bare: referee-us/move over request-us/rt.
//
// Measured 2026-12-01 on 2 cores (-benchtime 10000x): ratio 1.16-1.21.
// Most of what the ratio has over 1 is the referee's own work per move
// (BenchmarkRefereeCPU: 4.5 us) and each game's hello and ready round
// trip (55 plies a game); the session protocol alone is within 5% of the
// request loop.
func BenchmarkRefereeOverNATS(b *testing.B) {
	url := natstest.Server(b, remote.ServerOptions{})
	dial := func() *nats.Conn { return natstest.Dial(b, url) }
	n := max(b.N, 500) // moves

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
	// The referee, both seats remote.
	for _, id := range []string{"a", "b"} {
		serveOn(b, dial(), id, 1, inMemory(membot.First))
	}
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	var players []referee.Player
	var tape []tapedTurn // the turns of the game just played
	for _, id := range []string{"a", "b"} {
		e, err := (&remote.Launcher{NC: ref, ID: id, Wait: 10 * time.Second}).Launch(id, bot.LaunchOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		players = append(players, referee.Player{Name: id, Conn: &turnTap{Endpoint: e, seat: len(players), tape: &tape}})
	}
	// The three are measured in turns: after each game, both loops send
	// the very turns the referee sent in it, to the same seats, so that
	// the peers' bots decode the same lines and the machine's load (noisy
	// on a shared machine) weighs on all three alike.
	loop := func(subject string) time.Duration {
		t0 := time.Now()
		for _, t := range tape {
			if _, err := ref.Request(fmt.Sprintf("%s%d", subject, t.seat), t.line, 10*time.Second); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(t0)
	}
	b.ResetTimer()
	var total, raw, peer time.Duration
	moves, games := 0, 0
	for seed := uint64(1); moves < n; seed++ {
		tape = tape[:0]
		t0 := time.Now()
		res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: seed, Match: "bench", GameID: "g",
			Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}}, players)
		total += time.Since(t0)
		if err != nil || len(res.Forfeits) > 0 {
			b.Fatalf("game %d: %v %+v", seed, err, res.Forfeits)
		}
		raw += loop("bench.peer")
		peer += loop("bench.bot")
		moves += res.Plies
		games++
	}
	rawUs := float64(raw.Microseconds()) / float64(moves)
	peerUs := float64(peer.Microseconds()) / float64(moves)
	refUs := float64(total.Microseconds()) / float64(moves)
	b.ReportMetric(rawUs, "request-us/rt")
	b.ReportMetric(peerUs, "request-bot-us/rt")
	b.ReportMetric(refUs, "referee-us/move")
	b.ReportMetric(refUs/rawUs, "ratio-bare")
	b.ReportMetric(refUs/peerUs, "ratio")
	b.ReportMetric(float64(moves)/float64(games), "plies/game")
}

// turnTap passes a session's lines through, keeping a copy of each turn.
type turnTap struct {
	bot.Endpoint
	seat int
	tape *[]tapedTurn
}

type tapedTurn struct {
	seat int
	line []byte
}

func (t *turnTap) Send(line []byte, deadline time.Time) error {
	if bytes.HasPrefix(line, []byte(`{"type":"turn"`)) {
		*t.tape = append(*t.tape, tapedTurn{t.seat, bytes.Clone(line)})
	}
	return t.Endpoint.Send(line, deadline)
}
