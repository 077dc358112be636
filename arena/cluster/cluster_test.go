package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/natstest"
	"github.com/arena-dev/arena/internal/proctest"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/sdk"
)

// TestMain lets this test binary be a bot: the bundled bot named by
// ARENA_CLUSTER_BOT, whose choices depend only on the seed in hello.
func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked()
	if name := os.Getenv("ARENA_CLUSTER_BOT"); name != "" {
		b, _ := bots.New(name)
		if err := sdk.Run(os.Stdin, os.Stdout, b, sdk.Options{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// jetStream starts an embedded server with JetStream, for the test.
func jetStream(t *testing.T) string {
	return natstest.Server(t, remote.ServerOptions{StoreDir: t.TempDir()})
}

func connect(t *testing.T, url string) *nats.Conn { return natstest.Dial(t, url) }

// cup is a small banqi round-robin of the test binary's bots.
func cup(t *testing.T, kinds ...string) *tournament.Config {
	t.Helper()
	seed := uint64(7)
	f := tournament.File{Name: "cup", Game: "banqi", Options: map[string]string{"max_plies": "120"}, GamesPerEncounter: 2, Settings: options.Settings{Seed: &seed, Concurrency: 4}}
	for i, kind := range kinds {
		f.Bots = append(f.Bots, tournament.BotFile{Name: fmt.Sprintf("b%d", i), Command: os.Args[0], Env: map[string]string{"ARENA_CLUSTER_BOT": kind}})
	}
	c, err := f.Resolve("test", ".")
	if err != nil {
		t.Fatal(err)
	}
	c.Secret = &deal.Secret{7, 7, 7}
	return c
}

// worker runs a worker of cmds on its own connection until the test
// ends.
func worker(t *testing.T, url, name string, cmds []stdio.Command, log *testkit.SyncBuffer) *cluster.Worker {
	t.Helper()
	w := &cluster.Worker{NC: connect(t, url), Name: name, Concurrency: 2, Log: log, Bots: stdio.Specs(cmds)}
	runWorker(t, w)
	return w
}

// commands are the stdio commands of a tournament's bots, named.
func commands(specs []bot.Spec) []stdio.Command {
	out := make([]stdio.Command, len(specs))
	for i, s := range specs {
		out[i] = s.Target.(stdio.Command)
		out[i].Name = s.Name
	}
	return out
}

// runWorker runs w until the test ends.
func runWorker(t *testing.T, w *cluster.Worker) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := w.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("worker %s: %v", w.Name, err)
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
}

func distributed(t *testing.T, url string, o cluster.Options, warn *testkit.SyncBuffer) tournament.Options {
	nc := connect(t, url)
	return tournament.Options{Warn: warn, Executor: func(rc run.Config) (run.Executor, error) {
		return cluster.NewCoordinator(context.Background(), nc, rc, o)
	}}
}

// recordsOf is out's records, which must be n.
func recordsOf(t *testing.T, out string, n int) []ledger.Record {
	t.Helper()
	recs := records(t, out)
	if len(recs) != n {
		t.Fatalf("%d games recorded, want %d", len(recs), n)
	}
	return recs
}

// localRun plays c's tournament here, into a directory it returns.
func localRun(t *testing.T, c *tournament.Config) string {
	t.Helper()
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, tournament.Options{}); err != nil {
		t.Fatal(err)
	}
	return out
}

func records(t *testing.T, out string) []ledger.Record {
	t.Helper()
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The same tournament played here and on two workers gives the same
// games: same ranks, scores and plies for every game id, each recorded
// once, every distributed one by a worker.
func TestDistributedTournamentEqualsLocal(t *testing.T) {
	c := cup(t, "greedy", "random", "random")
	local := localRun(t, c)
	url := jetStream(t)
	var log, warn testkit.SyncBuffer
	worker(t, url, "w1", commands(c.Bots), &log)
	worker(t, url, "w2", commands(c.Bots), &log)
	c = cup(t, "greedy", "random", "random")
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, distributed(t, url, cluster.Options{}, &warn)); err != nil {
		t.Fatalf("%v\nworkers: %s\ncoordinator: %s", err, log.String(), warn.String())
	}
	want, got := byGame(t, records(t, local)), byGame(t, records(t, out))
	if len(got) != len(want) || len(want) != 6 {
		t.Fatalf("%d games distributed, %d local, want 6", len(got), len(want))
	}
	workers := map[string]int{}
	for id, w := range want {
		g, ok := got[id]
		if !ok {
			t.Errorf("game %s not played distributed", id)
			continue
		}
		if !slices.Equal(g.Ranks, w.Ranks) || !slices.Equal(g.Scores, w.Scores) || g.Plies != w.Plies || g.Reason != w.Reason {
			t.Errorf("game %s: distributed %v %v %d plies (%s), local %v %v %d plies (%s)", id, g.Ranks, g.Scores, g.Plies, g.Reason, w.Ranks, w.Scores, w.Plies, w.Reason)
		}
		workers[g.Worker]++
		if _, err := g.ReplaySource(out).Read(); err != nil {
			t.Errorf("game %s: replay: %v", id, err)
		}
	}
	if workers[""] > 0 {
		t.Errorf("%d games recorded with no worker", workers[""])
	}
	// A deal's games between the same bots (here: the two games of an
	// encounter, seats swapped) are one job: one worker plays both.
	unitWorker := map[string]string{}
	for _, g := range got {
		bots := slices.Sorted(slices.Values(g.Bots))
		key := fmt.Sprint(g.Seed, bots)
		if w, ok := unitWorker[key]; ok && w != g.Worker {
			t.Errorf("the games of deal %d between %v were split between workers %s and %s", g.Seed, bots, w, g.Worker)
		}
		unitWorker[key] = g.Worker
	}
	if len(unitWorker) != 3 {
		t.Errorf("%d units, want 3 (one per encounter)", len(unitWorker))
	}
	t.Logf("games per worker: %v", workers)
}

func byGame(t *testing.T, recs []ledger.Record) map[string]ledger.Record {
	t.Helper()
	out := map[string]ledger.Record{}
	for _, r := range recs {
		if _, dup := out[r.GameID]; dup {
			t.Errorf("game %s recorded twice", r.GameID)
		}
		out[r.GameID] = r
	}
	return out
}

// A worker that lacks a bot, or has another build of it, refuses the
// job and says why; with no other worker the job runs out of deliveries
// and the run stops naming the game and the reason.
func TestWorkerRefusesWhatItCannotPlay(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(cmds []stdio.Command) []stdio.Command
		want string
	}{
		{"missing bot", func(cmds []stdio.Command) []stdio.Command { return cmds[:1] }, "no bot b1 here"},
		{"other build", func(cmds []stdio.Command) []stdio.Command {
			cmds = slices.Clone(cmds)
			cmds[1].Env = []string{"ARENA_CLUSTER_BOT=greedy"}
			return cmds
		}, "bot b1 here is build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cup(t, "random", "random")
			url := jetStream(t)
			var log, warn testkit.SyncBuffer
			worker(t, url, "odd", tc.edit(commands(c.Bots)), &log)
			_, err := tournament.Run(context.Background(), c, t.TempDir(), distributed(t, url, cluster.Options{MaxDeliver: 2}, &warn))
			if !errors.Is(err, cluster.ErrNotPlayed) {
				t.Fatalf("got %v, want ErrNotPlayed", err)
			}
			for _, text := range []string{err.Error(), warn.String(), log.String()} {
				if !strings.Contains(text, tc.want) {
					t.Errorf("%q does not say %q", text, tc.want)
				}
			}
		})
	}
}

// A job whose every worker dies with it (here: takes it and never
// answers) runs out of deliveries; the run stops naming the game instead
// of waiting for it for ever.
func TestJobWhoseWorkersDieFails(t *testing.T) {
	url := jetStream(t)
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // the dying workers
		for ctx.Err() == nil {
			cons, err := js.Consumer(ctx, cluster.JobsStream, cluster.Consumer)
			if err != nil {
				continue // not set up yet
			}
			for ctx.Err() == nil {
				cons.Next(jetstream.FetchContext(ctx))
			}
		}
	}()
	var warn testkit.SyncBuffer
	_, err = tournament.Run(context.Background(), cup(t, "random", "random"), t.TempDir(),
		distributed(t, url, cluster.Options{AckWait: 300 * time.Millisecond, MaxDeliver: 2}, &warn))
	if !errors.Is(err, cluster.ErrNotPlayed) || !strings.Contains(err.Error(), "handed out 2 times") {
		t.Fatalf("got %v, want ErrNotPlayed after 2 deliveries", err)
	}
}

// A worker on a sick machine (here: its bots cannot start) loses far
// more games to crashes and startup failures than the others: it is
// banned, told so, and the run ends on the healthy worker.
func TestSickWorkerIsBanned(t *testing.T) {
	c := cup(t, "random", "random", "random", "random", "random", "random")
	url := jetStream(t)
	var sickLog, goodLog, warn testkit.SyncBuffer
	sick := commands(c.Bots)
	for i := range sick {
		sick[i].Dir = filepath.Join(t.TempDir(), "gone") // the same build, and no process starts
	}
	worker(t, url, "good", commands(c.Bots), &goodLog)
	opt := distributed(t, url, cluster.Options{}, &warn)
	var once sync.Once
	opt.OnGame = func(p tournament.Progress) {
		if p.Done == 3 { // judged against the others' games: there are some
			once.Do(func() { worker(t, url, "sick", sick, &sickLog) })
		}
	}
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, opt); err != nil {
		t.Fatalf("%v\n%s", err, warn.String())
	}
	if !strings.Contains(warn.String(), "worker sick is banned") {
		t.Errorf("the coordinator did not ban the sick worker:\n%s", warn.String())
	}
	if !strings.Contains(sickLog.String(), "takes no more results from this worker") {
		t.Errorf("the sick worker was not told:\n%s", sickLog.String())
	}
	byWorker := map[string]int{}
	for _, r := range records(t, out) {
		byWorker[r.Worker]++
	}
	if byWorker["sick"] < 10 || byWorker["sick"] > 10+4 { // banned after 10, with its games in flight

		t.Errorf("games per worker %v: want the rest of the run on good", byWorker)
	}
	t.Logf("games per worker: %v", byWorker)
}

// Replays too large for the result message travel through the object
// store: every game's replay arrives, checked, in the output directory.
func TestLargeReplaysGoThroughTheObjectStore(t *testing.T) {
	c := cup(t, "greedy", "random")
	url := jetStream(t)
	var log, warn testkit.SyncBuffer
	runWorker(t, &cluster.Worker{NC: connect(t, url), Name: "w", Concurrency: 2, Log: &log, Bots: stdio.Specs(commands(c.Bots)), InlineReplay: 1})
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, distributed(t, url, cluster.Options{}, &warn)); err != nil {
		t.Fatalf("%v\n%s\n%s", err, log.String(), warn.String())
	}
	recs := recordsOf(t, out, 2)
	for _, r := range recs {
		rp, err := r.ReplaySource(out).Read()
		if err != nil {
			t.Fatal(err)
		}
		if rp.Header.GameID != r.GameID || rp.Result.Plies != r.Plies {
			t.Errorf("replay of %s: %s, %d plies; the record: %d plies", r.GameID, rp.Header.GameID, rp.Result.Plies, r.Plies)
		}
	}
}

// A worker that forges results (here: it takes a job and answers with a
// made-up record and a replay that is not one) has them refused and is
// banned at the first; every game is recorded as an honest worker played
// it, the same as a local run.
func TestForgedResultsAreRefused(t *testing.T) {
	c := cup(t, "greedy", "random", "random")
	local := localRun(t, c)
	url := jetStream(t)
	nc := connect(t, url)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var forged atomic.Int64
	go func() { // the forger: fast, and deaf to bans
		for ctx.Err() == nil {
			cons, err := js.Consumer(ctx, cluster.JobsStream, cluster.Consumer)
			if err != nil {
				continue
			}
			for ctx.Err() == nil {
				m, err := cons.Next(jetstream.FetchContext(ctx))
				if err != nil {
					continue
				}
				var job cluster.Job
				json.Unmarshal(m.Data(), &job)
				for _, t := range job.Tables {
					rec := ledger.Record{GameID: t.GameID, Seed: t.Seed, Ranks: []int{1, 2}, Scores: []float64{1, 0}, Plies: 1}
					for _, s := range t.Seats {
						rec.Bots = append(rec.Bots, job.Bots[s].Name)
					}
					b, _ := json.Marshal(cluster.Result{Job: job.ID, Game: t.GameID, Worker: "forger", Record: rec, Replay: []byte("not a replay")})
					if _, err := js.Publish(ctx, cluster.ResultSubject(job.Run, t.GameID), b); err == nil {
						forged.Add(1)
					}
				}
				m.Ack()
			}
		}
	}()
	var log, warn testkit.SyncBuffer
	worker(t, url, "honest", commands(c.Bots), &log)
	c = cup(t, "greedy", "random", "random")
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, distributed(t, url, cluster.Options{}, &warn)); err != nil {
		t.Fatalf("%v\n%s", err, warn.String())
	}
	if forged.Load() == 0 {
		t.Fatal("the forger got no job: nothing tested")
	}
	if !strings.Contains(warn.String(), "worker forger is banned") {
		t.Errorf("the forger was not banned:\n%s", warn.String())
	}
	want, got := byGame(t, records(t, local)), byGame(t, records(t, out))
	for id, w := range want {
		g := got[id]
		if g.Worker != "honest" || !slices.Equal(g.Ranks, w.Ranks) || g.Plies != w.Plies {
			t.Errorf("game %s: recorded %v in %d plies by %q, local %v in %d", id, g.Ranks, g.Plies, g.Worker, w.Ranks, w.Plies)
		}
	}
	t.Logf("%d forged results refused", forged.Load())
}

// A worker whose clock is off (here: it plays honestly, and its replays
// say the games started an hour before their jobs were queued) is banned;
// its results are refused and the games played again by another worker.
func TestSkewedWorkerIsBanned(t *testing.T) {
	c := cup(t, "greedy", "random")
	url := jetStream(t)
	js, err := jetstream.New(connect(t, url))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g, _ := engine.Lookup("banqi")
	var skewed atomic.Int64
	go func() { // the skewed worker: plays each game, backdates its start
		var cons jetstream.Consumer
		for cons == nil && ctx.Err() == nil {
			cons, _ = js.Consumer(ctx, cluster.JobsStream, cluster.Consumer)
		}
		for ctx.Err() == nil {
			m, err := cons.Next(jetstream.FetchContext(ctx))
			if err != nil {
				continue
			}
			var job cluster.Job
			json.Unmarshal(m.Data(), &job)
			l := run.NewLocal(run.Config{Settings: job.Settings, Game: g, Options: job.Options, MatchID: job.Match, Bots: stdio.Specs(commands(c.Bots))}, nil)
			for _, t := range job.Tables {
				for s, b := range t.Seats {
					t.Seats[s] = slices.IndexFunc(c.Bots, func(s bot.Spec) bool { return s.Name == job.Bots[b].Name })
				}
				rec, rp, err := l.Play(ctx, t)
				if err != nil {
					continue
				}
				data, _ := rp.Compressed()
				rec.Worker = "skewed"
				b, _ := json.Marshal(cluster.Result{Job: job.ID, Game: t.GameID, Worker: "skewed", Record: rec, Replay: backdate(data, time.Hour)})
				if _, err := js.Publish(ctx, cluster.ResultSubject(job.Run, t.GameID), b, jetstream.WithExpectLastSequencePerSubject(0)); err == nil {
					skewed.Add(1)
				}
			}
			l.Close(false)
			m.Ack()
		}
	}()
	var log, warn testkit.SyncBuffer
	w := &cluster.Worker{NC: connect(t, url), Name: "honest", Concurrency: 2, Log: &log, Bots: stdio.Specs(commands(c.Bots))}
	started := make(chan struct{})
	opt := distributed(t, url, cluster.Options{}, &warn)
	maker := opt.Executor
	opt.Executor = func(rc run.Config) (run.Executor, error) { // the honest worker once the queue exists
		e, err := maker(rc)
		close(started)
		return e, err
	}
	go func() { <-started; runWorker(t, w) }()
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, opt); err != nil {
		t.Fatalf("%v\n%s", err, warn.String())
	}
	if skewed.Load() == 0 {
		t.Fatal("the skewed worker recorded nothing: nothing tested")
	}
	if !strings.Contains(warn.String(), "worker skewed is banned from the run: its clock is off") {
		t.Errorf("the skewed worker was not banned for its clock:\n%s", warn.String())
	}
	for _, r := range records(t, out) {
		if r.Worker != "honest" {
			t.Errorf("game %s recorded from worker %q", r.GameID, r.Worker)
		}
	}
}

// backdate moves a compressed replay's start back by d.
func backdate(data []byte, d time.Duration) []byte {
	dec, _ := zstd.NewReader(nil)
	plain, _ := dec.DecodeAll(data, nil)
	first, rest, _ := bytes.Cut(plain, []byte("\n"))
	var h map[string]any
	json.Unmarshal(first, &h)
	at, _ := time.Parse(time.RFC3339Nano, h["started"].(string))
	h["started"] = at.Add(-d).Format(time.RFC3339Nano)
	first, _ = json.Marshal(h)
	enc, _ := zstd.NewWriter(nil)
	return enc.EncodeAll(append(append(first, '\n'), rest...), nil)
}

// A worker plays remote bots too: the run's nats:BOTID bot is served over
// NATS (arena connect's remote.Server), and the worker's sessions of it
// are opened on the worker's own connection.
func TestWorkerPlaysRemoteBots(t *testing.T) {
	seed := uint64(3)
	f := tournament.File{Name: "mixed", Game: "banqi", Options: map[string]string{"max_plies": "60"}, GamesPerEncounter: 2,
		Bots: []tournament.BotFile{{Name: "far", Command: "nats:far"}, {Name: "near", Command: os.Args[0], Env: map[string]string{"ARENA_CLUSTER_BOT": "random"}}}, Settings: options.Settings{Seed: &seed, Concurrency: 2}}
	c, err := f.Resolve("test", ".")
	if err != nil {
		t.Fatal(err)
	}
	url := jetStream(t)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	srv := remote.Server{NC: connect(t, url), ID: "far", Sessions: 2, Start: func(opt bot.LaunchOptions) (bot.Endpoint, error) {
		return membot.Start(membot.Random, nil, opt.MaxLine), nil
	}}
	go func() { served <- srv.Serve(ctx) }()
	defer func() { cancel(); <-served }()
	wnc := connect(t, url)
	bots := slices.Clone(c.Bots)
	if err := bot.Bind(bots, bot.Bindings{remote.SchemeName: &remote.Binding{NC: wnc, Wait: 5 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	var log, warn testkit.SyncBuffer
	runWorker(t, &cluster.Worker{NC: wnc, Name: "w", Concurrency: 2, Log: &log, Bots: bots})
	opt := distributed(t, url, cluster.Options{}, &warn)
	cnc := connect(t, url)
	if err := bot.Bind(c.Bots, bot.Bindings{remote.SchemeName: &remote.Binding{NC: cnc, Wait: 5 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, opt); err != nil {
		t.Fatalf("%v\n%s\n%s", err, log.String(), warn.String())
	}
	recs := recordsOf(t, out, 2)
	for _, r := range recs {
		if r.Worker != "w" || len(r.Forfeits) > 0 || len(r.RoundTripUS) != 2 {
			t.Errorf("game %s: worker %q, forfeits %+v, round trips %v (want the remote seat's measured)", r.GameID, r.Worker, r.Forfeits, r.RoundTripUS)
		}
	}
}

// A worker ends the bot processes of a run it has had no job of for
// IdleRun: once the tournament is over, none of its bots is left.
func TestWorkerEndsAnIdleRunsBots(t *testing.T) {
	c := cup(t, "random", "random")
	token := fmt.Sprintf("ARENA_CLUSTER_TOKEN=%d", time.Now().UnixNano())
	for i, cmd := range commands(c.Bots) {
		cmd.Env = append(cmd.Env, token)
		c.Bots[i].Target = cmd
	}
	url := jetStream(t)
	var log, warn testkit.SyncBuffer
	runWorker(t, &cluster.Worker{NC: connect(t, url), Name: "w", Concurrency: 2, Log: &log, Bots: stdio.Specs(commands(c.Bots)), IdleRun: time.Second})
	if _, err := tournament.Run(context.Background(), c, t.TempDir(), distributed(t, url, cluster.Options{}, &warn)); err != nil {
		t.Fatalf("%v\n%s", err, warn.String())
	}
	if n := len(proctest.WithEnv(token)); n == 0 {
		t.Fatal("no bot process is kept after the games: nothing tested")
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(proctest.WithEnv(token)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := proctest.WithEnv(token); len(left) > 0 {
		t.Errorf("%d bot processes still alive well after the run's last job", len(left))
	}
}

// Junk on the queues: a message on the jobs subject that is no job is
// terminated by the worker that takes it, and junk where a game's result
// belongs is refused; the run records every game as a worker played it.
func TestJunkOnTheQueues(t *testing.T) {
	c := cup(t, "greedy", "random")
	url := jetStream(t)
	var log, warn testkit.SyncBuffer
	opt := distributed(t, url, cluster.Options{}, &warn)
	nc := connect(t, url)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	maker := opt.Executor
	opt.Executor = func(rc run.Config) (run.Executor, error) {
		e, err := maker(rc) // the streams exist from here on
		if err != nil {
			return nil, err
		}
		ctx := context.Background()
		if _, err := js.Publish(ctx, cluster.JobSubject(cluster.RunID(rc)), []byte("\x00not a job")); err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(ctx, cluster.ResultSubject(cluster.RunID(rc), "cup-c1-r01-0-1-g1"), []byte(`{"record":`)); err != nil {
			t.Fatal(err)
		}
		runWorker(t, &cluster.Worker{NC: connect(t, url), Name: "w", Concurrency: 2, Log: &log, Bots: stdio.Specs(commands(c.Bots))})
		return e, nil
	}
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, opt); err != nil {
		t.Fatalf("%v\n%s\n%s", err, warn.String(), log.String())
	}
	recs := recordsOf(t, out, 2)
	for _, r := range recs {
		if r.Worker != "w" {
			t.Errorf("game %s recorded from %q", r.GameID, r.Worker)
		}
	}
	if !strings.Contains(log.String(), "dropped a message that is not a job") {
		t.Errorf("the worker did not say it dropped the junk job:\n%s", log.String())
	}
	if !strings.Contains(warn.String(), "is refused") {
		t.Errorf("the junk result was not refused:\n%s", warn.String())
	}
}
