package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/engine"
)

// Worker plays jobs with its own bots.
type Worker struct {
	NC *nats.Conn
	// Name identifies the worker in results and in the coordinator's
	// messages (a host name, say).
	Name string
	// Bots are the bots this worker can play, bound (bot.Bind), each a
	// bot.Builder (Build): a stdio command, a remote bot.
	Bots []bot.Spec
	// Concurrency is how many jobs it plays at once (< 1: 1).
	Concurrency int
	// Version is the arena's, written into replays.
	Version string
	// Log (nil: none) receives a line per refused job and per failure.
	Log io.Writer
	// InlineReplay bounds a replay sent in the result message; larger
	// ones go to the replay bucket (0: DefaultInlineReplay).
	InlineReplay int
	// IdleRun is how long a run's bot processes are kept with no job of
	// the run (0: DefaultIdleRun): a run that ended, or went to other
	// workers, leaves none behind.
	IdleRun time.Duration
	// FetchDir, if set, is where the worker keeps the bots it fetches: a
	// job's bot it lacks whose files the coordinator shares (JobBot.Files,
	// a ladder's version) is fetched from the bot bucket into a directory
	// named by their digest, checked, and played if it is the job's
	// build. "": such a job is refused, as one of any bot it lacks.
	FetchDir string
	// Bind binds a fetched bot before it plays (confines it as the
	// worker's own bots are); nil: bot.Bind with no bindings.
	Bind func([]bot.Spec) error

	mu      sync.Mutex
	fetchMu sync.Mutex            // one fetch at a time: slots that need one bot wait for it
	files   jetstream.ObjectStore // the bot bucket, once a fetch opened it
	locals  map[string]*runLocal  // by run
	banned  map[string]string     // runs (as subject tokens) whose coordinator banned this worker, and why
	// back ends when the server comes back after an outage (and is
	// replaced then): a request for a job made before may be lost with
	// the server that had it, and is made again at once.
	back       context.Context
	backCancel context.CancelFunc
}

// refuseBackoff bounds how long a slot waits after refusing jobs in a
// row before it asks for another: a worker that lacks a run's bot leaves
// that run's jobs to the others.
const refuseBackoff = 30 * time.Second

// Run pulls and plays jobs until ctx ends. Games running then are cut
// short and their jobs handed back at once (played again elsewhere).
// While the NATS server is away (the run that embedded it ended, or it
// restarts) the worker says so once and waits for it; if the connection
// gives up reconnecting (nats.MaxReconnects), Run ends with
// ErrServerGone.
func (w *Worker) Run(ctx context.Context) error {
	if w.Log == nil {
		w.Log = io.Discard
	}
	outer := ctx
	ctx, gone := context.WithCancelCause(ctx)
	defer gone(nil)
	w.serverBack()
	defer w.watchServer(ctx, gone)()
	err := w.run(ctx)
	if outer.Err() == nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// run is Run's work, on a context that also ends if the server is gone
// for good.
func (w *Worker) run(ctx context.Context) error {
	js, err := jetstream.New(w.NC)
	if err != nil {
		return err
	}
	cons, err := waitForQueue(ctx, js, w.Log)
	if err != nil {
		return err
	}
	info := cons.CachedInfo()
	ackWait, maxDeliver := info.Config.AckWait, info.Config.MaxDeliver
	obs, err := js.ObjectStore(ctx, ReplayBucket)
	if err != nil {
		return fmt.Errorf("the replay bucket %s: %w", ReplayBucket, err)
	}
	bans, err := w.NC.Subscribe("arena.control.*", w.control)
	if err != nil {
		return err
	}
	defer bans.Unsubscribe()
	results, err := js.Stream(ctx, ResultsStream)
	if err != nil {
		return fmt.Errorf("the results stream %s: %w", ResultsStream, err)
	}
	s := &slotEnv{w: w, js: js, obs: obs, results: results, ackWait: ackWait, maxDeliver: maxDeliver}
	for _, b := range w.Bots {
		build, err := Build(b)
		if err != nil {
			return err
		}
		s.builds = append(s.builds, build)
	}
	var wg sync.WaitGroup
	for range max(w.Concurrency, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop(ctx, cons)
		}()
	}
	idleRun := w.IdleRun
	if idleRun <= 0 {
		idleRun = DefaultIdleRun
	}
	reap := time.NewTicker(idleRun / 2)
	defer reap.Stop()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-reap.C:
				w.closeIdle(idleRun)
			}
		}
	}()
	wg.Wait()
	w.closeIdle(0)
	return ctx.Err()
}

// ErrServerGone ends a worker whose connection to the NATS server gave
// up reconnecting.
var ErrServerGone = errors.New("the connection to the NATS server closed: it gave up reconnecting")

// watchServer says once when the connection to the NATS server is lost,
// and once when it is back: a worker whose coordinator ended (with the
// server it embedded) or restarts waits for it, and its slots are
// quiet meanwhile (slotEnv.loop). A connection that closes for good
// ends the worker (gone). stop ends the watch.
func (w *Worker) watchServer(ctx context.Context, gone context.CancelCauseFunc) (stop func()) {
	changes := w.NC.StatusChanged(nats.CONNECTED, nats.RECONNECTING, nats.DISCONNECTED, nats.CLOSED)
	url := w.NC.ConnectedUrlRedacted()
	done := make(chan struct{})
	go func() {
		defer close(done)
		away := false
		for {
			var st nats.Status
			var ok bool
			select {
			case <-ctx.Done():
				return
			case st, ok = <-changes:
				if !ok {
					return // stopped
				}
			}
			switch {
			case st == nats.CLOSED:
				gone(fmt.Errorf("%w (%s)", ErrServerGone, url))
				return
			case st == nats.CONNECTED && away:
				away = false
				w.serverBack()
				fmt.Fprintf(w.Log, "arena worker: the NATS server at %s is back: taking jobs again\n", url)
			case st != nats.CONNECTED && !away:
				away = true
				fmt.Fprintf(w.Log, "arena worker: the NATS server at %s went away (the run that served it ended, or it is restarting): "+
					"waiting for it to come back (Ctrl-C or SIGTERM stops this worker)\n", url)
			}
		}
	}()
	return func() {
		w.NC.RemoveStatusListener(changes)
		<-done
		w.mu.Lock()
		w.backCancel()
		w.mu.Unlock()
	}
}

// serverBack ends the slots' requests for jobs made before (w.back), and
// starts the next wait for the server's return.
func (w *Worker) serverBack() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.backCancel != nil {
		w.backCancel()
	}
	w.back, w.backCancel = context.WithCancel(context.Background())
}

// backContext is w.back, ended when the server comes back.
func (w *Worker) backContext() context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.back
}

// runLocal is the executor of one run on this worker, and how it is
// used. Its roster holds the run's bots as its jobs name them, the
// worker's own and those it fetched, added as the jobs come: a retired
// one (Retirement) leaves names, and is started no more.
type runLocal struct {
	*run.Local
	busy     int       // jobs of the run playing now
	lastUsed time.Time // when the last one ended

	mu     sync.Mutex // guards what follows, and adding to roster
	roster *run.Roster
	names  map[string]int // bots not retired, by name: their roster index
	builds []string       // by roster index
}

// DefaultIdleRun is Worker.IdleRun's default.
const DefaultIdleRun = time.Minute

// closeIdle ends the bot sessions of the runs with no job for idle (0:
// every run; no job plays by then).
func (w *Worker) closeIdle(idle time.Duration) {
	w.mu.Lock()
	var done []*runLocal
	for id, l := range w.locals {
		if l.busy == 0 && time.Since(l.lastUsed) >= idle {
			done = append(done, l)
			delete(w.locals, id)
		}
	}
	w.mu.Unlock()
	for _, l := range done {
		l.Close(idle > 0) // bye to an idle run's bots; at the end, at once
	}
}

// release marks a job of l's run ended.
func (w *Worker) release(l *runLocal) {
	w.mu.Lock()
	l.busy--
	l.lastUsed = time.Now()
	w.mu.Unlock()
}

// waitForQueue waits for a coordinator to have set up the jobs queue: a
// worker may start first, and a server under load may be slow to answer.
// Until then it says why it waits, every fetchLogEvery.
func waitForQueue(ctx context.Context, js jetstream.JetStream, log io.Writer) (jetstream.Consumer, error) {
	var told time.Time
	for {
		cons, err := js.Consumer(ctx, JobsStream, Consumer)
		if err == nil {
			return cons, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if time.Since(told) >= fetchLogEvery {
			why := err.Error()
			if errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrConsumerNotFound) {
				why = "no jobs queue yet"
			}
			fmt.Fprintf(log, "arena worker: waiting for a coordinator (arena tournament run --distributed) to set up the jobs queue (stream %s, consumer %s): %s\n", JobsStream, Consumer, why)
			told = time.Now()
		}
		sleep(ctx, queuePoll)
	}
}

// queuePoll is how often a worker looks for the jobs queue until there
// is one.
const queuePoll = 250 * time.Millisecond

// fetchWait is how long one request for a job waits; fetchLogEvery
// spaces the lines about failing requests (a server gone for a while).
const (
	fetchWait     = 5 * time.Second
	fetchLogEvery = 30 * time.Second
)

type slotEnv struct {
	w          *Worker
	js         jetstream.JetStream
	obs        jetstream.ObjectStore
	results    jetstream.Stream
	ackWait    time.Duration
	maxDeliver int
	builds     []string // of w.Bots, fixed at start
}

func (s *slotEnv) loop(ctx context.Context, cons jetstream.Consumer) {
	backoff := time.Duration(0)
	var lastLogged time.Time // of a fetch error: at most one line per fetchLogEvery
	var unanswered time.Time // since when fetches found no responders (zero: they did not)
	for ctx.Err() == nil {
		fetch, cancel := context.WithTimeout(ctx, fetchWait)
		unhook := context.AfterFunc(s.w.backContext(), cancel) // a request the server that went away had is lost
		m, err := cons.Next(jetstream.FetchContext(fetch))
		unhook()
		cancel()
		if err != nil {
			switch {
			case ctx.Err() != nil:
			case !s.w.NC.IsConnected() || errors.Is(err, jetstream.ErrServerShutdown):
				// The server is away: watchServer has said so once, and
				// the slot waits for it.
				unanswered = time.Time{}
				sleep(ctx, queuePoll)
			case errors.Is(err, context.Canceled):
				// The server is back (serverBack): ask it at once.
			case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout), errors.Is(err, jetstream.ErrNoMessages):
			case errors.Is(err, nats.ErrNoResponders) && (unanswered.IsZero() || time.Since(unanswered) < fetchLogEvery):
				// A server shutting down stops JetStream before it closes
				// its connections: a fetch then finds no responders just
				// before the server is seen to go (watchServer says so).
				// Said only if it lasts.
				if unanswered.IsZero() {
					unanswered = time.Now()
				}
				sleep(ctx, queuePoll)
			default:
				if time.Since(lastLogged) >= fetchLogEvery {
					fmt.Fprintf(s.w.Log, "arena worker: fetching a job: %v (trying again)\n", err)
					lastLogged = time.Now()
				}
				sleep(ctx, time.Second)
			}
			continue
		}
		unanswered = time.Time{}
		if refused := s.handle(ctx, m); refused {
			backoff = min(max(2*backoff, time.Second), refuseBackoff)
			sleep(ctx, backoff)
		} else {
			backoff = 0
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// handle plays one job; true: it refused it.
func (s *slotEnv) handle(ctx context.Context, m jetstream.Msg) bool {
	var job Job
	if err := json.Unmarshal(m.Data(), &job); err != nil {
		// Not a job of ours: nothing can ever play it.
		m.TermWithReason("not a job: " + err.Error())
		fmt.Fprintf(s.w.Log, "arena worker: dropped a message that is not a job (%v)\n", err)
		return false
	}
	tables, local, err := s.prepare(job)
	if err != nil {
		s.refuse(ctx, m, job, err.Error())
		return true
	}
	defer s.w.release(local)
	// The lease: kept while the games run.
	leased, stopLease := context.WithCancel(ctx)
	defer stopLease()
	go func() {
		t := time.NewTicker(max(s.ackWait/4, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-leased.Done():
				return
			case <-t.C:
				m.InProgress()
			}
		}
	}()
	pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	md, _ := m.Metadata()
	redelivered := md == nil || md.NumDelivered > 1
	for i, table := range tables {
		// A game recorded already (this job was another worker's, which
		// stopped part way) is not played again.
		if redelivered {
			if _, err := s.results.GetLastMsgForSubject(pubCtx, ResultSubject(job.Run, table.GameID)); err == nil {
				continue
			}
		}
		rec, replay, err := local.Play(ctx, table)
		if err != nil {
			if errors.Is(err, run.ErrAbandoned) {
				m.Nak() // to another worker, at once
				return false
			}
			s.refuse(ctx, m, job, fmt.Sprintf("playing game %s: %v", table.GameID, err))
			return true
		}
		rec.Worker, rec.Load = s.w.Name, load()
		if err := s.keep(pubCtx, job, job.Tables[i], rec, replay); err != nil {
			m.Nak()
			fmt.Fprintf(s.w.Log, "arena worker: game %s: %v (handed back)\n", table.GameID, err)
			return false
		}
	}
	m.DoubleAck(pubCtx)
	return false
}

// keep publishes a game's result, its replay in the message or in the
// replay bucket.
func (s *slotEnv) keep(ctx context.Context, job Job, t run.Table, rec ledger.Record, replay run.Replay) error {
	res := Result{Job: job.ID, Game: t.GameID, Worker: s.w.Name, Record: rec}
	data, err := replay.Compressed()
	if err != nil {
		return fmt.Errorf("its replay: %w", err)
	}
	limit := s.w.InlineReplay
	if limit <= 0 {
		limit = DefaultInlineReplay
	}
	if len(data) <= limit {
		res.Replay = data
	} else {
		// Named per attempt: another worker playing the game too must
		// not overwrite the replay the recorded result points to.
		res.ReplayObject = Token(job.Run) + "." + Token(t.GameID) + "." + nuid.Next()
		if _, err := s.obs.PutBytes(ctx, res.ReplayObject, data); err != nil {
			return fmt.Errorf("storing its replay: %w", err)
		}
	}
	if err := s.publish(ctx, job.Run, res); err != nil {
		return fmt.Errorf("publishing its result: %w", err)
	}
	return nil
}

// publish records res once: a result already there (another worker
// played the job too, after this one's lease ran out) stands, and this
// one is dropped.
func (s *slotEnv) publish(ctx context.Context, run string, res Result) error {
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = s.js.Publish(ctx, ResultSubject(run, res.Game), b, jetstream.WithExpectLastSequencePerSubject(0))
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
		return nil // recorded already
	}
	return err
}

// refuse tells the coordinator why the job is not played here and hands
// it back for another worker, or, on its last delivery, reports it as
// not played.
func (s *slotEnv) refuse(ctx context.Context, m jetstream.Msg, job Job, reason string) {
	fmt.Fprintf(s.w.Log, "arena worker: refused job %s: %s\n", job.ID, reason)
	if b, err := json.Marshal(Event{Worker: s.w.Name, Job: job.ID, Reason: reason}); err == nil {
		s.w.NC.Publish(EventSubject(job.Run), b)
	}
	md, err := m.Metadata()
	if err == nil && s.maxDeliver > 0 && md.NumDelivered >= uint64(s.maxDeliver) {
		pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		failed := true
		for _, t := range job.Tables {
			res := Result{Job: job.ID, Game: t.GameID, Worker: s.w.Name, Error: fmt.Sprintf("%d deliveries; the last, to worker %s: %s", md.NumDelivered, s.w.Name, reason)}
			if err := s.publish(pubCtx, job.Run, res); err != nil {
				failed = false
			}
		}
		if failed {
			m.TermWithReason(reason)
			return
		}
	}
	m.NakWithDelay(2 * time.Second)
}

// prepare checks that this worker can play job as the coordinator means
// it, and returns its tables in this worker's bot numbering with the
// executor of the job's run.
func (s *slotEnv) prepare(job Job) ([]run.Table, *runLocal, error) {
	g, err := engine.Lookup(job.Game)
	if err != nil {
		return nil, nil, err
	}
	if r := g.Info().Rules; r != job.Rules {
		return nil, nil, fmt.Errorf("game %s is at rules revision %d here, the run's is %d (another arena build)", job.Game, r, job.Rules)
	}
	w := s.w
	w.mu.Lock()
	why, banned := w.banned[Token(job.Run)]
	w.mu.Unlock()
	if banned {
		return nil, nil, fmt.Errorf("this worker is banned from the run: %s", why)
	}
	if job.Arena != w.Version {
		return nil, nil, fmt.Errorf("arena version %q here, the run's is %q", w.Version, job.Arena)
	}
	if len(job.Tables) == 0 {
		return nil, nil, errors.New("the job has no games")
	}
	for _, jt := range job.Tables {
		for seat, b := range jt.Seats {
			if b < 0 || b >= len(job.Bots) {
				return nil, nil, fmt.Errorf("game %s: seat %d names bot %d of %d", jt.GameID, seat, b, len(job.Bots))
			}
		}
		if len(jt.BotSeeds) != len(jt.Seats) {
			return nil, nil, fmt.Errorf("game %s: %d bot seeds for %d seats", jt.GameID, len(jt.BotSeeds), len(jt.Seats))
		}
	}
	l := s.runLocal(job, g)
	local, err := s.seat(l, job.Bots)
	if err != nil {
		w.release(l)
		return nil, nil, err
	}
	var tables []run.Table
	for _, jt := range job.Tables {
		table := jt
		table.Seats = make([]int, len(jt.Seats))
		for seat, b := range jt.Seats {
			table.Seats[seat] = local[b]
		}
		tables = append(tables, table)
	}
	return tables, l, nil
}

// runLocal is the executor of job's run, made at its first job, with one
// more job playing.
func (s *slotEnv) runLocal(job Job, g engine.Game) *runLocal {
	w := s.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.locals == nil {
		w.locals = map[string]*runLocal{}
	}
	l := w.locals[job.Run]
	if l == nil {
		l = &runLocal{roster: run.NewRoster(nil), names: map[string]int{}}
		l.Local = run.NewLocal(run.Config{
			Settings: job.Settings, Game: g, Options: job.Options, MatchID: job.Match, Version: w.Version,
			Roster: l.roster, Rotation: job.Rotation, Warn: w.Log,
			// Its spare budget is for the jobs it plays at once.
			Concurrency: max(w.Concurrency, 1),
		}, nil)
		w.locals[job.Run] = l
	}
	l.busy++
	return l
}

// seat is the roster index in l of each of a job's bots: the run's bot
// of that name already, one of the worker's own, or one fetched; each of
// the job's build, or refused.
func (s *slotEnv) seat(l *runLocal, bots []JobBot) ([]int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	local := make([]int, len(bots))
	for b, want := range bots {
		if i, ok := l.names[want.Name]; ok {
			if l.builds[i] != want.Build {
				return nil, fmt.Errorf("bot %s here is build %s, the run's is %s", want.Name, l.builds[i], want.Build)
			}
			local[b] = i
			continue
		}
		spec, build, err := s.bot(want)
		if err != nil {
			return nil, err
		}
		i, err := l.roster.Add(spec)
		if err != nil {
			return nil, fmt.Errorf("bot %s: %w", want.Name, err)
		}
		l.names[want.Name], l.builds = i, append(l.builds, build)
		local[b] = i
	}
	return local, nil
}

// bot is the bot a job names that the run has not seated here yet: the
// worker's own of that name, which must be its build, or else one whose
// files the coordinator shares, fetched.
func (s *slotEnv) bot(want JobBot) (bot.Spec, string, error) {
	w := s.w
	if i := w.index(want.Name); i >= 0 {
		if s.builds[i] != want.Build {
			return bot.Spec{}, "", fmt.Errorf("bot %s here is build %s, the run's is %s", want.Name, s.builds[i], want.Build)
		}
		return w.Bots[i], s.builds[i], nil
	}
	if want.Files == "" || w.FetchDir == "" {
		return bot.Spec{}, "", fmt.Errorf("no bot %s here", want.Name)
	}
	w.fetchMu.Lock()
	defer w.fetchMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), fetchTime)
	defer cancel()
	if w.files == nil {
		files, err := s.js.ObjectStore(ctx, BotBucket)
		if err != nil {
			return bot.Spec{}, "", fmt.Errorf("bot %s: the bot bucket %s: %w", want.Name, BotBucket, err)
		}
		w.files = files
	}
	spec, err := fetch(ctx, w.files, w.FetchDir, want)
	if err != nil {
		return bot.Spec{}, "", err
	}
	specs := []bot.Spec{spec}
	bind := w.Bind
	if bind == nil {
		bind = func(specs []bot.Spec) error { return bot.Bind(specs, nil) }
	}
	if err := bind(specs); err != nil {
		return bot.Spec{}, "", fmt.Errorf("bot %s: %w", want.Name, err)
	}
	fmt.Fprintf(w.Log, "arena worker: fetched bot %s (build %s)\n", want.Name, want.Build)
	return specs[0], want.Build, nil
}

// fetchTime bounds fetching one bot's files.
const fetchTime = 5 * time.Minute

// retire retires a bot of the run whose subject token is run
// (Retirement): its sessions close, and its name is free for a bot the
// run's next jobs name (fetched again if need be).
func (w *Worker) retire(run string, jb JobBot) {
	w.mu.Lock()
	var ls []*runLocal
	for id, l := range w.locals {
		if Token(id) == run {
			ls = append(ls, l)
		}
	}
	w.mu.Unlock()
	for _, l := range ls {
		l.mu.Lock()
		i, ok := l.names[jb.Name]
		if ok && l.builds[i] == jb.Build {
			delete(l.names, jb.Name)
			l.roster.Retire(i)
			fmt.Fprintf(w.Log, "arena worker: bot %s is retired from run %s\n", jb.Name, run)
		}
		l.mu.Unlock()
	}
}

// control takes a coordinator's ban of this worker, or its retirement
// of a bot.
func (w *Worker) control(m *nats.Msg) {
	var b struct {
		Ban
		Retirement
	}
	if json.Unmarshal(m.Data, &b) != nil {
		return
	}
	run := strings.TrimPrefix(m.Subject, "arena.control.")
	if b.Retired.Name != "" {
		w.retire(run, b.Retired)
		return
	}
	if b.Worker != w.Name {
		return
	}
	w.mu.Lock()
	if w.banned == nil {
		w.banned = map[string]string{}
	}
	w.banned[run] = b.Reason
	w.mu.Unlock()
	fmt.Fprintf(w.Log, "arena worker: the coordinator of %s takes no more results from this worker: %s\n", run, b.Reason)
}

func (w *Worker) index(name string) int {
	for i, b := range w.Bots {
		if b.Name == name {
			return i
		}
	}
	return -1
}

// Shares splits a run's concurrency among workers of one machine (arena
// tournament run --distributed --workers N): a distributed run has at
// most concurrency jobs in flight across all its workers, so slots
// beyond it would wait, and one worker with all of them could take
// every job while the others idle. Each worker gets an even share, the
// first ones one more, and at least one: with fewer jobs in flight than
// workers, some idle whatever they are given.
func Shares(concurrency, workers int) []int {
	out := make([]int, workers)
	for i := range out {
		out[i] = concurrency / workers
		if i < concurrency%workers {
			out[i]++
		}
		out[i] = max(out[i], 1)
	}
	return out
}

// HostName names this machine's workers: its host name, as a subject
// token ("worker" if it has none).
func HostName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "worker"
	}
	return Token(h)
}
