package remote_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/protocol"
	"github.com/nats-io/nats.go"
)

// serve serves bot id with in-memory sessions until the test ends.
func serve(t *testing.T, url, id string, sessions int, policy membot.Policy) {
	t.Helper()
	serveOn(t, connect(t, url), id, sessions, inMemory(policy))
}

func inMemory(policy membot.Policy) func(bot.LaunchOptions) (bot.Endpoint, error) {
	return func(opt bot.LaunchOptions) (bot.Endpoint, error) {
		return membot.Start(policy, nil, opt.MaxLine), nil
	}
}

// serveOn serves bot id on nc until the test ends, and returns once the
// bot is claimed.
func serveOn(t testing.TB, nc *nats.Conn, id string, sessions int, start func(bot.LaunchOptions) (bot.Endpoint, error)) {
	t.Helper()
	serveServer(t, &remote.Server{NC: nc, ID: id, Sessions: sessions, Start: start})
}

// serveServer runs srv (its Claimed set here) until the test ends, and
// returns once the bot is claimed.
func serveServer(t testing.TB, srv *remote.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	claimed, done := make(chan struct{}), make(chan error, 1)
	srv.Claimed = func() { close(claimed) }
	go func() { done <- srv.Serve(ctx) }()
	select {
	case <-claimed:
	case err := <-done:
		cancel()
		t.Fatalf("serving %s: %v", srv.ID, err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
	})
}

// A remote seat and a local one play whole games of every game through
// the referee: the remote bot is served by remote.Serve on a connection
// of its own, its sessions opened by remote.Launcher.
func TestRemoteSeatPlays(t *testing.T) {
	url := server(t)
	serve(t, url, "alice", 4, membot.Random)
	l := &remote.Launcher{NC: connect(t, url), ID: "alice", Wait: 5 * time.Second}
	for _, tc := range []struct {
		game  string
		seats int
	}{{"banqi", 2}, {"uno", 4}, {"boon", 3}} {
		t.Run(tc.game, func(t *testing.T) {
			g, _ := engine.Lookup(tc.game)
			opts, err := engine.Setup(g, tc.seats, nil)
			if err != nil {
				t.Fatal(err)
			}
			players := make([]referee.Player, tc.seats)
			for s := range players {
				var e bot.Endpoint
				if s%2 == 0 {
					if e, err = l.Launch("alice", bot.LaunchOptions{}); err != nil {
						t.Fatal(err)
					}
				} else {
					e = membot.Start(membot.Random, nil, 0)
				}
				defer e.Close()
				players[s] = referee.Player{Name: "p", Conn: e}
			}
			res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: 5, Match: "m", GameID: "g",
				Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}}, players)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Forfeits) != 0 || len(res.Strikes) != 0 || res.Plies == 0 {
				t.Fatalf("forfeits %v, strikes %v, %d plies", res.Forfeits, res.Strikes, res.Plies)
			}
		})
	}
}

func TestLaunchFailures(t *testing.T) {
	url := server(t)
	nc := connect(t, url)
	t.Run("nobody serves the bot", func(t *testing.T) {
		l := &remote.Launcher{NC: nc, ID: "ghost", Wait: 200 * time.Millisecond}
		start := time.Now()
		_, err := l.Launch("ghost", bot.LaunchOptions{})
		if !errors.Is(err, remote.ErrNotServed) || time.Since(start) > 2*time.Second {
			t.Fatalf("got %v after %v, want ErrNotServed after the wait", err, time.Since(start))
		}
		// What fixes it is an arena connect, not a flushed ready line (the
		// hint of a bot on stdio that does not start).
		if h := transport.HintOf(err); !strings.Contains(h, "no arena connect --bot ghost is serving it") || strings.Contains(h, "flush") {
			t.Errorf("hint %q, want one that names arena connect --bot ghost", h)
		}
	})
	t.Run("a bot at its session limit", func(t *testing.T) {
		serve(t, url, "solo", 1, membot.First)
		l := &remote.Launcher{NC: nc, ID: "solo", Wait: 300 * time.Millisecond}
		first, err := l.Launch("solo", bot.LaunchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Launch("solo", bot.LaunchOptions{}); err == nil || !strings.Contains(err.Error(), "busy") {
			t.Fatalf("a second session of a one-session bot: %v, want busy after the wait", err)
		}
		// Once the first session ends, the next one is served.
		first.Close()
		l.Wait = 5 * time.Second
		second, err := l.Launch("solo", bot.LaunchOptions{})
		if err != nil {
			t.Fatalf("after the first session ended: %v", err)
		}
		second.Close()
	})
	t.Run("a session asked for as another ends is held for, not refused", func(t *testing.T) {
		// The referee closes a session and asks for the bot's next at
		// once (a new deal wants a new process): the server holds the
		// request until the place frees instead of answering busy, which
		// would cost the game the Launcher's retry.
		serve(t, url, "held", 1, membot.First)
		l := &remote.Launcher{NC: nc, ID: "held", Wait: 5 * time.Second}
		first, err := l.Launch("held", bot.LaunchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		asked := make(chan struct{}, 1)
		spy, err := nc.Subscribe(remote.OpenSubject("held"), func(*nats.Msg) {
			select {
			case asked <- struct{}{}:
			default:
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		defer spy.Unsubscribe()
		var busy atomic.Int32
		answers, err := nc.Subscribe("_INBOX.>", func(m *nats.Msg) {
			if strings.Contains(string(m.Data), `"busy":true`) {
				busy.Add(1)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		defer answers.Unsubscribe()
		nc.Flush()
		launched := make(chan error, 1)
		go func() {
			e, err := l.Launch("held", bot.LaunchOptions{})
			if err == nil {
				e.Close()
			}
			launched <- err
		}()
		<-asked
		first.Close()
		if err := <-launched; err != nil {
			t.Fatal(err)
		}
		if n := busy.Load(); n > 0 {
			t.Errorf("the server answered busy %d times while the first session was ending", n)
		}
	})
	t.Run("a bot that connects late is waited for", func(t *testing.T) {
		// The bot is served only once the run has asked for it: a spy
		// sees the first request (and does not answer it).
		asked := make(chan struct{}, 1)
		spy, err := nc.Subscribe(remote.OpenSubject("late"), func(*nats.Msg) {
			select {
			case asked <- struct{}{}:
			default:
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		launched := make(chan error, 1)
		go func() {
			e, err := (&remote.Launcher{NC: connect(t, url), ID: "late", Wait: 10 * time.Second}).Launch("late", bot.LaunchOptions{})
			if err == nil {
				e.Close()
			}
			launched <- err
		}()
		<-asked
		spy.Unsubscribe()
		serve(t, url, "late", 1, membot.First)
		if err := <-launched; err != nil {
			t.Fatal(err)
		}
	})
}

// stuckGame serves bot "far" on botNC with a bot that takes its first
// turn and then thinks until the test ends, and plays a banqi game
// between it (launched on refNC) and a local bot, under a 30 s move
// clock. It returns once the remote bot has its first turn, with where
// the game's result will come.
func stuckGame(t *testing.T, botNC, refNC *nats.Conn, grace time.Duration) <-chan playResult {
	t.Helper()
	first, forever := make(chan struct{}), make(chan struct{})
	var once sync.Once
	stuck := func(*protocol.Turn, *rand.Rand) []byte {
		once.Do(func() { close(first) })
		<-forever
		return nil
	}
	serveOn(t, botNC, "far", 1, inMemory(stuck))
	t.Cleanup(func() { close(forever) }) // before serveOn's, which waits for the bot to end
	e, err := (&remote.Launcher{NC: refNC, ID: "far", Wait: 5 * time.Second, Grace: grace}).Launch("far", bot.LaunchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	local := membot.Start(membot.Random, nil, 0)
	t.Cleanup(func() { local.Close() })
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	out := make(chan playResult, 1)
	go func() {
		res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: 1, Match: "m", GameID: "g",
			Limits: clock.Limits{Startup: 10 * time.Second, Move: 30 * time.Second}},
			[]referee.Player{{Name: "far", Conn: e}, {Name: "near", Conn: local}})
		out <- playResult{res, err}
	}()
	select {
	case <-first:
	case <-time.After(10 * time.Second):
		t.Fatal("the remote bot never got its first turn")
	}
	return out
}

type playResult struct {
	res *referee.Result
	err error
}

// A bot whose connection is lost mid-game (its machine gone) is charged
// a crash once it has been unreachable for the grace, not a timeout at
// the end of its move clock.
func TestDisconnectMidGameIsACrash(t *testing.T) {
	url := server(t)
	botNC := connect(t, url)
	start := time.Now()
	done := stuckGame(t, botNC, connect(t, url), 300*time.Millisecond)
	botNC.Close() // the bot's machine drops off the network
	var p playResult
	select {
	case p = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the game still waits on a disconnected bot")
	}
	if p.err != nil {
		t.Fatal(p.err)
	}
	if len(p.res.Forfeits) != 1 || p.res.Forfeits[0].Seat != 0 || p.res.Forfeits[0].Reason != protocol.ReasonCrash ||
		!strings.Contains(p.res.Forfeits[0].Detail, "disconnected") {
		t.Fatalf("forfeits %+v, want seat 0's crash for a disconnect", p.res.Forfeits)
	}
	t.Logf("recorded after %v: %s", time.Since(start).Round(time.Millisecond), p.res.Forfeits[0].Detail)
}

// When the arena's own connection is lost mid-game (the server goes
// away), the game ends as the arena's fault: Play returns an error
// wrapping transport.ErrFault and nothing is charged to the bot, so the
// game is played again on resume.
func TestArenaConnectionLostIsNoBotsFault(t *testing.T) {
	ns, err := remote.StartServer(remote.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	url := ns.ClientURL()
	done := stuckGame(t, connect(t, url), connect(t, url), 0)
	ns.Shutdown() // the server goes away mid-move
	select {
	case p := <-done:
		if !errors.Is(p.err, transport.ErrFault) {
			t.Fatalf("Play: %v, want an arena fault (transport.ErrFault)", p.err)
		}
		t.Logf("Play: %v", p.err)
	case <-time.After(10 * time.Second):
		t.Fatal("the game still waits after the arena's connection was lost")
	}
}
