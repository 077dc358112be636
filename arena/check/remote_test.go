package check

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/internal/natstest"
)

// serveRemote serves the bot of cfg over NATS as id (remote.Server, as
// arena connect does: a process of the bot per session) until the test
// ends, and returns cfg checking it there instead: a remote bot.
func serveRemote(t *testing.T, cfg Config, id string) Config {
	t.Helper()
	url := natstest.Server(t, remote.ServerOptions{})
	local := cfg.Bot
	srv := &remote.Server{NC: natstest.Dial(t, url), ID: id, Sessions: 1,
		Start: func(opt bot.LaunchOptions) (bot.Endpoint, error) { return local.Launch(id, opt) }}
	ctx, cancel := context.WithCancel(context.Background())
	claimed, done := make(chan struct{}), make(chan error, 1)
	srv.Claimed = func() { close(claimed) }
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("serving %s: %v", id, err)
		}
	})
	select {
	case <-claimed:
	case err := <-done:
		t.Fatalf("serving %s: %v", id, err)
	}
	cfg.Bot = &remote.Launcher{NC: natstest.Dial(t, url), ID: id, Wait: 5 * time.Second}
	cfg.Command = []string{remote.Prefix + id}
	return cfg
}

// TestRemoteBotJudgedAsLocal: a bot served over NATS is judged through
// its lines as the same bot run here, check by check (the failures word
// for word), but for what only its process shows: bye's exit status and
// its process group are skipped, saying that it runs elsewhere. A bot
// that exits only at the end of its input is warned at bye either way:
// here its stdin is closed late, there never (a match closes the
// session).
func TestRemoteBotJudgedAsLocal(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"greedy", "illegal", "noid", "strict", "eof"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cfg := config(t, "banqi", 2, mode)
			local, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Run(serveRemote(t, cfg, "alice"))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Remote || local.Remote || !slices.Equal(rep.Command, []string{"nats:alice"}) {
				t.Errorf("remote %v (local %v), command %q", rep.Remote, local.Remote, rep.Command)
			}
			if rep.OK != local.OK || rep.Failed != local.Failed || rep.Turns != local.Turns || rep.GamesPlayed != local.GamesPlayed || rep.Stopped != local.Stopped {
				t.Errorf("remote: ok %v, %d failed, %d turns, %d games, stopped %q; local: %v, %d, %d, %d, %q",
					rep.OK, rep.Failed, rep.Turns, rep.GamesPlayed, rep.Stopped, local.OK, local.Failed, local.Turns, local.GamesPlayed, local.Stopped)
			}
			for i, r := range rep.Checks {
				l := local.Checks[i]
				switch {
				case (r.Name == CheckBye || r.Name == CheckProcessGroup) && l.Status == Pass:
					if r.Status != Skip || !strings.Contains(r.Detail, "nats:alice runs elsewhere") {
						t.Errorf("%s: %s %q, want it skipped as not seen from here", r.Name, r.Status, r.Detail)
					}
				case r.Name == CheckBye && r.Status == Warn && !strings.Contains(r.Detail, "its session was still open"):
					t.Errorf("bye: %q, want the session still open", r.Detail)
				case r.Status != l.Status:
					t.Errorf("%s: %s %q, local %s %q", r.Name, r.Status, r.Detail, l.Status, l.Detail)
				case r.Status == Fail && (r.Detail != l.Detail || r.Hint != l.Hint || !slices.Equal(r.Transcript, l.Transcript)):
					t.Errorf("%s: remote %q (hint %q, %q), local %q (hint %q, %q)", r.Name, r.Detail, r.Hint, r.Transcript, l.Detail, l.Hint, l.Transcript)
				}
			}
			if t.Failed() {
				t.Logf("remote: %+v", rep.Checks)
			}
		})
	}
}

// TestRemoteBotNotServed: a remote bot nobody serves fails start, with
// what serves it.
func TestRemoteBotNotServed(t *testing.T) {
	t.Parallel()
	cfg := config(t, "banqi", 2, "greedy")
	url := natstest.Server(t, remote.ServerOptions{})
	cfg.Bot = &remote.Launcher{NC: natstest.Dial(t, url), ID: "nobody", Wait: 200 * time.Millisecond}
	cfg.Command = []string{"nats:nobody"}
	rep, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := rep.Checks[0]
	if rep.OK || start.Status != Fail || !strings.Contains(start.Detail, "no one serves this bot") || !strings.Contains(start.Hint, "arena connect") {
		t.Fatalf("start: %+v", start)
	}
}
