package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
)

// said is a worker's log that tells waiters of each line holding a
// word (no polling: the line is what the test waits for).
type said struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	waits map[string]chan struct{}
}

func (s *said) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	for word, c := range s.waits {
		if strings.Contains(s.buf.String(), word) {
			close(c)
			delete(s.waits, word)
		}
	}
	return len(p), nil
}

// await waits until the log holds word.
func (s *said) await(t *testing.T, word string) {
	t.Helper()
	s.mu.Lock()
	if strings.Contains(s.buf.String(), word) {
		s.mu.Unlock()
		return
	}
	c := make(chan struct{})
	if s.waits == nil {
		s.waits = map[string]chan struct{}{}
	}
	s.waits[word] = c
	s.mu.Unlock()
	select {
	case <-c:
	case <-time.After(time.Minute): // a bound on a hang, not a measure
		t.Fatalf("the worker never said %q:\n%s", word, s.String())
	}
}

func (s *said) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.buf.String() }

// version is a bot submitted to a ladder: a Python program in a
// directory of its own (bots/python/random_bot.py), with a marker file
// that makes its directory its own.
func version(t *testing.T, name, marker string) bot.Spec {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(testkit.ModuleRoot(t), "bots", "python", "random_bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	for file, data := range map[string][]byte{"random_bot.py": src, "NOTES": []byte(marker)} {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return stdio.Command{Name: name, Argv: []string{"python3", "random_bot.py"}, Dir: dir}.Spec()
}

// A run whose bots join as it goes (a ladder) shares each new version's
// files: workers that lack it fetch it by digest from the bot bucket,
// one after the other (the second on another machine, here another
// worker with a directory of its own), play it, and stop it once the run
// retires it. A worker given other files under the digest refuses them.
func TestWorkersFetchVersions(t *testing.T) {
	url := jetStream(t)
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, map[string]string{"max_plies": "40"})
	own := []bot.Spec{
		{Name: "first", Launcher: inMemory{&membot.Launcher{Policy: membot.First}}},
		{Name: "random", Launcher: inMemory{&membot.Launcher{Policy: membot.Random}}},
	}
	roster := run.NewRoster(own)
	cfg := run.Config{Game: g, Options: opts, MatchID: "lad", Concurrency: 2, Roster: roster,
		Settings: run.Settings{Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	coord, err := cluster.NewCoordinator(ctx, connect(t, url), cfg, cluster.Options{ShareFiles: true, MaxDeliver: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close(false)
	v1, err := roster.Add(version(t, "py.v1", "one"))
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	play := func(seats ...int) error {
		games++
		table := run.Table{Game: schedule.Game{ID: fmt.Sprint(games), Round: games, Seats: seats}, GameID: fmt.Sprintf("lad-g%d", games), Seed: uint64(games)}
		rec, _, err := coord.Play(ctx, table)
		if err == nil && len(rec.Forfeits) > 0 {
			err = fmt.Errorf("forfeits: %+v", rec.Forfeits)
		}
		return err
	}
	for i, name := range []string{"w1", "w2"} {
		log := &said{}
		wctx, stop := context.WithCancel(ctx)
		w := &cluster.Worker{NC: connect(t, url), Name: name, Bots: own, Concurrency: 1, Log: log, FetchDir: t.TempDir()}
		done := make(chan error, 1)
		go func() { done <- w.Run(wctx) }()
		for _, seats := range [][]int{{v1, i}, {1 - i, v1}} {
			if err := play(seats...); err != nil {
				t.Fatalf("worker %s, game %v: %v\n%s", name, seats, err, log)
			}
		}
		log.await(t, "fetched bot py.v1")
		if i == 1 {
			roster.Retire(v1)
			log.await(t, "bot py.v1 is retired")
		}
		stop()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("worker %s: %v", name, err)
		}
	}

	// Other files under a version's digest: the worker that fetches them
	// refuses the job, and no worker plays it.
	v2spec := version(t, "py.v2", "two")
	v2, err := roster.Add(v2spec)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(connect(t, url))
	obs, err := js.ObjectStore(ctx, cluster.BotBucket)
	if err != nil {
		t.Fatal(err)
	}
	objects, err := obs.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objects {
		if _, err := obs.PutBytes(ctx, o.Name, []byte("not the bot's files")); err != nil {
			t.Fatal(err)
		}
	}
	log := &said{}
	w := &cluster.Worker{NC: connect(t, url), Name: "w3", Bots: own, Concurrency: 1, Log: log, FetchDir: t.TempDir()}
	runWorker(t, w)
	if err := play(v2, 0); !errors.Is(err, cluster.ErrNotPlayed) {
		t.Fatalf("a game of a version with other files: %v; want it not played\n%s", err, log)
	}
	if !strings.Contains(log.String(), "the bot's files fetched are sha256-") {
		t.Errorf("the worker did not say the files are not the version's:\n%s", log)
	}
}
