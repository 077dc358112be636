package remote_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// events collects what a Server tells (OnEvent), from any goroutine.
type events struct {
	mu   sync.Mutex
	got  []remote.Event
	more chan struct{}
}

func (e *events) add(ev remote.Event) {
	e.mu.Lock()
	e.got = append(e.got, ev)
	e.mu.Unlock()
	select {
	case e.more <- struct{}{}:
	default:
	}
}

// wait returns the events once n have come.
func (e *events) wait(t *testing.T, n int) []remote.Event {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		e.mu.Lock()
		got := append([]remote.Event(nil), e.got...)
		e.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-e.more:
		case <-timeout:
			t.Fatalf("%d events in 20s, want %d: %+v", len(got), n, got)
		}
	}
}

// The Server tells its owner (arena connect) of each session that starts
// and ends, and of each game's result as its bot learns it: a session
// that played a game to its end and was sent bye, and one closed in the
// middle of a game (as the referee closes a bot that forfeits).
func TestServerTellsSessionsAndGames(t *testing.T) {
	url := server(t)
	ev := &events{more: make(chan struct{}, 1)}
	serveServer(t, &remote.Server{NC: connect(t, url), ID: "eve", Sessions: 2, Start: inMemory(membot.Random), OnEvent: ev.add})
	l := &remote.Launcher{NC: connect(t, url), ID: "eve", Wait: 5 * time.Second}
	g, _ := engine.Lookup("banqi")
	opts, err := engine.Setup(g, 2, nil)
	if err != nil {
		t.Fatal(err)
	}

	// A whole game, eve in seat 1, then bye.
	e, err := l.Launch("eve", bot.LaunchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: 3, Match: "m", GameID: "m-g1",
		Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}},
		[]referee.Player{{Name: "other", Conn: membot.Start(membot.Random, nil, 0)}, {Name: "eve", Conn: e}})
	if err != nil || len(res.Forfeits) != 0 {
		t.Fatalf("game: %v, forfeits %v", err, res.Forfeits)
	}
	if err := e.Send(protocol.Line(protocol.Bye{Type: protocol.TypeBye}), time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	got := ev.wait(t, 3)
	if k := kinds(got); k != "started 1 (1 running), game 1, ended 1 (0 running)" {
		t.Fatalf("events %s, want a start, a game and an end", k)
	}
	game := got[1].Game
	place, tied := game.Place()
	if game.Hello.GameID != "m-g1" || game.Hello.Seat != 1 || game.End == nil || place != res.Outcome.Ranks[1] || tied != (res.Outcome.Ranks[0] == res.Outcome.Ranks[1]) ||
		game.End.Reason != res.Outcome.Reason {
		t.Errorf("game event %+v %+v, place %d (tied %v): want m-g1, seat 1, the result %+v", game.Hello, game.End, place, tied, res.Outcome)
	}
	if got[2].Game != nil || !strings.HasPrefix(got[2].Why, "the arena needs it no more (bye)") {
		t.Errorf("end of a session after bye: game %+v, why %q", got[2].Game, got[2].Why)
	}
	e.Close()

	// A session closed in the middle of a game: it ends in that game, with
	// no result.
	e2, err := l.Launch("eve", bot.LaunchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hello := protocol.Hello{Type: protocol.TypeHello, Protocol: protocol.Version, Game: "banqi", Options: opts, Seat: 0, Seats: 2,
		Players: []string{"eve", "other"}, Match: "m", GameID: "m-g2", Clock: protocol.Clock{StartupMs: 10000, MoveMs: 10000}}
	if err := e2.Send(protocol.Line(hello), time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := e2.Receive(time.Now().Add(5 * time.Second)); err != nil { // ready: the hello was taken
		t.Fatal(err)
	}
	e2.Close()
	got = ev.wait(t, 5)[3:]
	if k := kinds(got); k != "started 2 (1 running), ended 2 (0 running)" {
		t.Fatalf("events %s, want a start and an end", k)
	}
	if got[1].Game == nil || got[1].Game.Hello.GameID != "m-g2" || got[1].Game.End != nil || !strings.HasPrefix(got[1].Why, "the arena closed it") {
		t.Errorf("a session closed in a game: game %+v, why %q: want m-g2, unfinished, closed by the arena", got[1].Game, got[1].Why)
	}
}

// kinds describes events in short: "started 1 (1 running), game 1, ...".
func kinds(evs []remote.Event) string {
	var parts []string
	for _, e := range evs {
		switch e.Kind {
		case remote.SessionStarted:
			parts = append(parts, fmt.Sprintf("started %d (%d running)", e.Session, e.Running))
		case remote.GameEnded:
			parts = append(parts, fmt.Sprintf("game %d", e.Session))
		case remote.SessionEnded:
			parts = append(parts, fmt.Sprintf("ended %d (%d running)", e.Session, e.Running))
		}
	}
	return strings.Join(parts, ", ")
}
