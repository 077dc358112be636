package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// Coordinator is the Executor of a distributed run (a run.UnitExecutor):
// each unit of games (a pair, a rotation of seats: run.UnitKey) is a job
// for one worker, and each game's result comes back through the results
// stream.
type Coordinator struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	obs jetstream.ObjectStore
	// jobs and results are the streams' handles, looked up once.
	jobs, results jetstream.Stream
	cfg           run.Config // its Roster set (run.Config.BotRoster)
	// files is the bot bucket, when the run shares its bots' files
	// (Options.ShareFiles); nil otherwise.
	files jetstream.ObjectStore
	run   string // the run's id in subjects and jobs (RunID)
	warn  io.Writer
	// unwatch ends the watch on the run's roster, through which bots
	// added while the run goes on get their builds (AddBot).
	unwatch func()

	arrivals *nats.Subscription
	events   *nats.Subscription
	advisory *nats.Subscription

	mu      sync.Mutex
	health  map[string]*health     // by worker
	banned  map[string]string      // workers whose results are refused, and why
	waiters map[string]chan Result // by game id
	retries map[string]int         // by game id: results refused and played again
	refused map[string]int         // of them, from workers not banned before
	told    map[string]bool        // refusals already reported, by worker and reason
	bots    []JobBot               // by the run's bot index
}

// NewCoordinator sets up the streams (Setup) and returns the executor of
// cfg's run (its MatchID names the run's jobs and results: a resumed run
// keeps it). Each bot's build is fixed now: a worker must have the same.
// A bot's launcher or target must be a bot.Builder (a stdio command, a
// remote bot).
func NewCoordinator(ctx context.Context, nc *nats.Conn, cfg run.Config, o Options) (*Coordinator, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if err := Setup(ctx, js, o); err != nil {
		return nil, err
	}
	obs, err := js.ObjectStore(ctx, ReplayBucket)
	if err != nil {
		return nil, err
	}
	var files jetstream.ObjectStore
	if o.ShareFiles {
		if files, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: BotBucket, Storage: jetstream.FileStorage}); err != nil {
			return nil, fmt.Errorf("object store %s: %w", BotBucket, err)
		}
	}
	cfg.Roster = cfg.BotRoster()
	c := &Coordinator{files: files, nc: nc, js: js, obs: obs, cfg: cfg, run: RunID(cfg), warn: cfg.Warn,
		waiters: map[string]chan Result{}, retries: map[string]int{}, refused: map[string]int{}, told: map[string]bool{},
		health: map[string]*health{}, banned: map[string]string{}}
	if c.warn == nil {
		c.warn = io.Discard
	}
	if c.unwatch, err = cfg.Roster.Watch(c); err != nil {
		return nil, err
	}
	// Subscribed before any job goes out: every result published from
	// now on reaches deliver; those from before are in the stream.
	if c.jobs, err = js.Stream(ctx, JobsStream); err != nil {
		return nil, err
	}
	if c.results, err = js.Stream(ctx, ResultsStream); err != nil {
		return nil, err
	}
	if c.arrivals, err = nc.Subscribe("arena.results."+Token(c.run)+".>", c.deliver); err != nil {
		return nil, err
	}
	if c.events, err = nc.Subscribe(EventSubject(c.run), c.event); err != nil {
		c.arrivals.Unsubscribe()
		return nil, err
	}
	// A job handed out MaxDeliver times whose last worker died with it
	// stays in the queue, delivered no more: the server says so, and the
	// game fails instead of being waited for for ever.
	if c.advisory, err = nc.Subscribe(maxDeliveriesAdvisory, c.exhausted); err != nil {
		c.Close(false)
		return nil, err
	}
	if err := nc.Flush(); err != nil {
		c.Close(false)
		return nil, err
	}
	return c, nil
}

// AddBot fixes bot i's build, which a worker must have to play its games
// (run.RosterWatcher): a bot that has none is refused.
// With Options.ShareFiles its files are stored first.
func (c *Coordinator) AddBot(i int, spec bot.Spec) error {
	build, err := Build(spec)
	if err != nil {
		return err
	}
	jb := JobBot{Name: spec.Name, Build: build}
	if c.files != nil {
		ctx, cancel := context.WithTimeout(context.Background(), shareWait)
		defer cancel()
		if err := share(ctx, c.files, spec, &jb); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bots = append(c.bots[:i], jb) // i is the next, or one refused elsewhere
	return nil
}

// shareWait bounds storing a bot's files.
const shareWait = time.Minute

// RetireBot tells the workers that bot i is retired (run.RosterWatcher):
// they close its sessions, and seat it no more in this run's games.
func (c *Coordinator) RetireBot(i int) {
	c.mu.Lock()
	jb := c.bots[i]
	c.mu.Unlock()
	if b, err := json.Marshal(Retirement{Retired: JobBot{Name: jb.Name, Build: jb.Build}}); err == nil {
		c.nc.Publish(ControlSubject(c.run), b)
	}
}

// maxDeliveriesAdvisory is the subject of the server's advisory for a
// job of the workers' consumer that ran out of deliveries.
const maxDeliveriesAdvisory = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + JobsStream + "." + Consumer

// exhausted fails the game of a job that ran out of deliveries (if it is
// this run's) and takes the job off the queue.
func (c *Coordinator) exhausted(m *nats.Msg) {
	var adv struct {
		StreamSeq  uint64 `json:"stream_seq"`
		Deliveries int    `json:"deliveries"`
	}
	if json.Unmarshal(m.Data, &adv) != nil || adv.StreamSeq == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := c.jobs.GetMsg(ctx, adv.StreamSeq)
	if err != nil {
		return // terminated by its last worker already
	}
	var job Job
	if json.Unmarshal(raw.Data, &job) != nil || job.Run != c.run {
		return
	}
	c.jobs.DeleteMsg(ctx, adv.StreamSeq)
	for _, t := range job.Tables {
		c.hand(Result{Job: job.ID, Game: t.GameID, Error: fmt.Sprintf("handed out %d times, and each worker that took it stopped before it was played (killed, or lost its connection)", adv.Deliveries)})
	}
}

// hand gives res to the game's waiter, if the game has one that has room
// for it; otherwise res is dropped.
func (c *Coordinator) hand(res Result) {
	c.mu.Lock()
	w := c.waiters[res.Game]
	c.mu.Unlock()
	if w != nil {
		select {
		case w <- res:
		default:
		}
	}
}

// RunID is a run's id where runs meet: its MatchID, and its RunKey when
// it has one (two tournaments of one name must not see each other's
// results).
func RunID(cfg run.Config) string {
	if cfg.RunKey == "" {
		return cfg.MatchID
	}
	return cfg.MatchID + "-" + Token(cfg.RunKey)
}

// Build is the build of a bot as jobs name it: its launcher's, which
// says what it launches (bot.Builder: stdio.Command.Build, a remote bot's
// "nats:ID"), else its target's.
func Build(b bot.Spec) (string, error) {
	if l, ok := b.Launcher.(bot.Builder); ok {
		return l.Build()
	}
	if t, ok := b.Target.(bot.Builder); ok {
		return t.Build()
	}
	return "", fmt.Errorf("bot %s: a distributed run plays bot commands and remote bots, not %T", b.Name, b.Launcher)
}

func (c *Coordinator) deliver(m *nats.Msg) {
	var res Result
	if json.Unmarshal(m.Data, &res) != nil {
		return
	}
	c.hand(res)
}

func (c *Coordinator) event(m *nats.Msg) {
	var e Event
	if json.Unmarshal(m.Data, &e) != nil {
		return
	}
	key := e.Worker + "\x00" + e.Reason
	c.mu.Lock()
	seen := c.told[key]
	c.told[key] = true
	c.mu.Unlock()
	if !seen { // once per worker and reason, not once per job
		fmt.Fprintf(c.warn, "arena: worker %s refused a game (%s): %s\n", e.Worker, e.Job, e.Reason)
	}
}

// resultPoll is how often a waiting game looks in the results stream
// too, for a result whose message went by before it was waited for.
const resultPoll = 5 * time.Second

// Play plays t alone: PlayUnit of one game.
func (c *Coordinator) Play(ctx context.Context, t run.Table) (ledger.Record, run.Replay, error) {
	var (
		rec    ledger.Record
		replay run.Replay
		err    error
	)
	c.PlayUnit(ctx, []run.Table{t}, func(_ int, r ledger.Record, rp run.Replay, e error) { rec, replay, err = r, rp, e })
	return rec, replay, err
}

// PlayUnit queues the unit's games as one job, for one worker to play in
// turn, except those whose result is in the results stream already (a
// restarted coordinator), and waits for each game's result.
func (c *Coordinator) PlayUnit(ctx context.Context, unit []run.Table, done func(i int, rec ledger.Record, replay run.Replay, err error)) {
	waits := make([]chan Result, len(unit))
	c.mu.Lock()
	for i, t := range unit {
		waits[i] = make(chan Result, 4)
		c.waiters[t.GameID] = waits[i]
	}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		for _, t := range unit {
			delete(c.waiters, t.GameID)
		}
		c.mu.Unlock()
	}()
	found := make([]*Result, len(unit))
	var missing []run.Table
	for i, t := range unit {
		res, ok, err := c.lookup(ctx, t, true)
		if err != nil {
			for j := range unit {
				done(j, ledger.Record{}, nil, err)
			}
			return
		}
		if ok {
			found[i] = &res
		} else {
			missing = append(missing, t)
		}
	}
	var sent time.Time
	if len(missing) > 0 {
		if err := c.publish(ctx, missing); err != nil {
			for i := range unit {
				done(i, ledger.Record{}, nil, err)
			}
			return
		}
		sent = time.Now()
	}
	var wg sync.WaitGroup
	for i, t := range unit {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, replay, err := c.await(ctx, t, waits[i], found[i], sent)
			done(i, rec, replay, err)
		}()
	}
	wg.Wait()
}

// await waits for t's result (first, if not nil: the one found already),
// checks it, and has the game played again, alone, while its results do
// not hold up.
func (c *Coordinator) await(ctx context.Context, t run.Table, wait chan Result, first *Result, sent time.Time) (ledger.Record, run.Replay, error) {
	for {
		var res Result
		if first != nil {
			res, first = *first, nil
		} else {
			poll := time.NewTimer(resultPoll)
			select {
			case <-ctx.Done():
				poll.Stop()
				return ledger.Record{}, nil, run.ErrAbandoned
			case res = <-wait:
				poll.Stop()
			case <-poll.C:
				r, ok, err := c.lookup(ctx, t, false)
				if err != nil {
					return ledger.Record{}, nil, err
				}
				if !ok {
					continue
				}
				res = r
			}
		}
		rec, replay, err := c.accept(ctx, t, res, sent)
		if err == nil {
			c.judge(res.Worker, rec)
		}
		if err == nil || errors.Is(err, ErrNotPlayed) {
			return rec, replay, err
		}
		// A result that does not hold up is dropped and the game played
		// again, by whichever worker takes it; its worker is banned.
		c.mu.Lock()
		_, banned := c.banned[res.Worker]
		c.mu.Unlock()
		fmt.Fprintf(c.warn, "arena: warning: game %s: the result from worker %s is refused (%v); playing it again\n", t.GameID, res.Worker, err)
		if !banned {
			why := fmt.Sprintf("its result of game %s did not hold up: %v", t.GameID, err)
			var off *clockOffError
			if errors.As(err, &off) {
				why = off.what
			}
			c.ban(res.Worker, why)
		}
		if err := c.drop(ctx, t, !banned); err != nil {
			return ledger.Record{}, nil, err
		}
		if err := c.publish(ctx, []run.Table{t}); err != nil {
			return ledger.Record{}, nil, err
		}
		sent = time.Now()
	}
}

// lookup finds t's result in the results stream.
//
// Before its game is queued (before), a failed result is one a stopped
// run left (no worker could play the game then) and gives way: the game
// gets its chances again.
func (c *Coordinator) lookup(ctx context.Context, t run.Table, before bool) (Result, bool, error) {
	m, err := c.results.GetLastMsgForSubject(ctx, ResultSubject(c.run, t.GameID))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return Result{}, false, nil
	}
	if err != nil {
		return Result{}, false, fmt.Errorf("looking for the result of game %s: %w", t.GameID, err)
	}
	var res Result
	if err := json.Unmarshal(m.Data, &res); err != nil {
		fmt.Fprintf(c.warn, "arena: warning: game %s: the result stored for it is refused (not a result: %v); playing it again\n", t.GameID, err)
		return Result{}, false, c.purge(ctx, t)
	}
	if res.Error != "" && before {
		return Result{}, false, c.purge(ctx, t)
	}
	return res, true, nil
}

// job is the unit of tables as a worker plays it, named by its first.
func (c *Coordinator) job(unit []run.Table) Job {
	c.mu.Lock()
	retry := c.retries[unit[0].GameID]
	bots := c.bots
	c.mu.Unlock()
	j := Job{ID: c.run + "." + unit[0].GameID, Run: c.run, Match: c.cfg.MatchID, Arena: c.cfg.Version, Game: c.cfg.Game.Info().Name,
		Rules: c.cfg.Game.Info().Rules, Options: c.cfg.Options, Settings: c.cfg.Settings, Rotation: c.cfg.Rotation}
	if retry > 0 {
		j.ID += fmt.Sprintf(".retry%d", retry) // past the stream's deduplication
	}
	index := map[int]int{}
	for _, t := range unit {
		jt := t
		jt.Recorded = nil
		jt.BotSeeds = t.SeatSeeds()
		jt.Seats = make([]int, len(t.Seats))
		for s, b := range t.Seats {
			i, ok := index[b]
			if !ok {
				i = len(j.Bots)
				index[b] = i
				j.Bots = append(j.Bots, bots[b])
			}
			jt.Seats[s] = i
		}
		j.Tables = append(j.Tables, jt)
	}
	return j
}

func (c *Coordinator) publish(ctx context.Context, unit []run.Table) error {
	j := c.job(unit)
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	ack, err := c.js.Publish(ctx, JobSubject(c.run), b, jetstream.WithMsgID(j.ID))
	if err == nil && ack.Duplicate {
		// Queued before, by this run's coordinator before a restart. If
		// that job was taken off the queue since (a stopped run), the
		// stream still remembers its id: queue it under a new one. A job
		// still queued is then played twice, and recorded once.
		_, err = c.js.Publish(ctx, JobSubject(c.run), b, jetstream.WithMsgID(j.ID+"."+nuid.Next()))
	}
	if err != nil {
		if ctx.Err() != nil {
			return run.ErrAbandoned
		}
		return fmt.Errorf("queueing game %s: %w", unit[0].GameID, err)
	}
	return nil
}

// drop removes a refused result so that the game's next one can be
// recorded. counted: the result's worker was not banned before it (one
// banned already cannot be kept from taking jobs; see docs/distributed.md).
func (c *Coordinator) drop(ctx context.Context, t run.Table, counted bool) error {
	c.mu.Lock()
	c.retries[t.GameID]++ // also past the stream's deduplication
	if counted {
		c.refused[t.GameID]++
	}
	n := c.refused[t.GameID]
	c.mu.Unlock()
	if n > maxRetries {
		return fmt.Errorf("game %s: results of %d workers refused", t.GameID, n)
	}
	return c.purge(ctx, t)
}

// purge removes t's result from the results stream.
func (c *Coordinator) purge(ctx context.Context, t run.Table) error {
	return c.results.Purge(ctx, jetstream.WithPurgeSubject(ResultSubject(c.run, t.GameID)))
}

// maxRetries bounds how many workers may have a result of one game
// refused.
const maxRetries = 3

// accept checks a worker's result against the game the coordinator
// asked for: the record is of t (game id, seed, bots), the replay reads,
// is of t and re-simulates to the record's outcome.
func (c *Coordinator) accept(ctx context.Context, t run.Table, res Result, sent time.Time) (ledger.Record, run.Replay, error) {
	if res.Error != "" {
		return ledger.Record{}, nil, fmt.Errorf("game %s: %w: %s", t.GameID, ErrNotPlayed, res.Error)
	}
	c.mu.Lock()
	why, banned := c.banned[res.Worker]
	c.mu.Unlock()
	if banned {
		return res.Record, nil, fmt.Errorf("worker %s is banned from the run: %s", res.Worker, why)
	}
	rec := res.Record
	names := make([]string, len(t.Seats))
	for s, b := range t.Seats {
		names[s] = c.cfg.Roster.Name(b)
	}
	switch {
	case rec.GameID != t.GameID || rec.Seed != t.Seed:
		return rec, nil, fmt.Errorf("the record is of game %s seed %d", rec.GameID, rec.Seed)
	case !slices.Equal(rec.Bots, names):
		return rec, nil, fmt.Errorf("the record's bots are %v, the game's %v", rec.Bots, names)
	}
	data := res.Replay
	if res.ReplayObject != "" {
		var err error
		if data, err = c.obs.GetBytes(ctx, res.ReplayObject); err != nil {
			return rec, nil, fmt.Errorf("its replay %s: %w", res.ReplayObject, err)
		}
	}
	rp, err := replays.Read(bytes.NewReader(data))
	if err != nil {
		return rec, nil, fmt.Errorf("its replay: %w", err)
	}
	h := rp.Header
	if h.GameID != t.GameID || h.Seed != t.Seed || h.Match != c.cfg.MatchID || h.Game != c.cfg.Game.Info().Name {
		return rec, nil, fmt.Errorf("its replay is of game %s seed %d of %s", h.GameID, h.Seed, h.Match)
	}
	// The worker's clock, seen through the game's start: a result played
	// before its job was queued, or after it came back, is from a
	// machine whose clock is off (its clocks are what the bots are timed
	// by).
	if !sent.IsZero() && (h.Started.Before(sent.Add(-maxSkew)) || h.Started.After(time.Now().Add(maxSkew))) {
		return rec, nil, &clockOffError{fmt.Sprintf("its clock is off: game %s started at %s by it, queued at %s here", t.GameID,
			h.Started.Format(time.RFC3339), sent.UTC().Format(time.RFC3339))}
	}
	if err := replays.Verify(rp); err != nil {
		return rec, nil, fmt.Errorf("its replay: %w", err)
	}
	if r := rp.Result; !slices.Equal(r.Ranks, rec.Ranks) || !slices.Equal(r.Scores, rec.Scores) || r.Plies != rec.Plies || r.Reason != rec.Reason {
		return rec, nil, fmt.Errorf("the record (ranks %v, scores %v, %d plies, %q) is not its replay's (%v, %v, %d, %q)",
			rec.Ranks, rec.Scores, rec.Plies, rec.Reason, r.Ranks, r.Scores, r.Plies, r.Reason)
	}
	if len(h.Seats) != len(names) {
		return rec, nil, fmt.Errorf("its replay has %d seats, the game %d", len(h.Seats), len(names))
	}
	for s, si := range h.Seats {
		if si.Seat != s || si.Bot != names[s] {
			return rec, nil, fmt.Errorf("its replay seats %s in seat %d, the game %s", si.Bot, si.Seat, names[s])
		}
	}
	// Forfeits decide games: the record's must be the replay's, seat by
	// seat and reason by reason.
	if len(rec.Forfeits) != len(rp.Result.Forfeits) {
		return rec, nil, fmt.Errorf("the record has %d forfeits, its replay %d", len(rec.Forfeits), len(rp.Result.Forfeits))
	}
	for i, f := range rp.Result.Forfeits {
		if g := rec.Forfeits[i]; g.Seat != f.Seat || g.Reason != f.Reason || g.Bot != names[f.Seat] {
			return rec, nil, fmt.Errorf("the record's forfeit %d (%s, seat %d, %s) is not its replay's (seat %d, %s)", i, g.Bot, g.Seat, g.Reason, f.Seat, f.Reason)
		}
	}
	rec.Round = t.Round
	rec.Worker = res.Worker // the worker that answered, whatever its record says
	return rec, replays.Compressed(data), nil
}

// Close stops listening and takes the run's jobs not yet started off the
// queue: a stopped run (an SPRT verdict, an interrupt) leaves no work
// behind. A resumed run queues them again.
func (c *Coordinator) Close(bool) {
	c.unwatch()
	if c.arrivals != nil {
		c.arrivals.Unsubscribe()
	}
	if c.events != nil {
		c.events.Unsubscribe()
	}
	if c.advisory != nil {
		c.advisory.Unsubscribe()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.jobs.Purge(ctx, jetstream.WithPurgeSubject(JobSubject(c.run)))
}

// clockOffError is a result from a worker whose clock is off.
type clockOffError struct{ what string }

func (e *clockOffError) Error() string { return e.what }

// maxSkew bounds how far a worker's clock may be from the coordinator's.
const maxSkew = 30 * time.Second

// health counts a worker's games and the forfeits that a sick machine
// causes (crashes, time losses), as fishtest judges its workers.
type health struct {
	games, losses int
}

// Bounds of a worker's health: after minGames, a worker whose crash,
// startup and time-loss rate is above maxLossRate and lossFactor times
// the other workers' (over minOthers games at least) is banned. A bot
// that crashes everywhere is no worker's fault: the others lose as many.
const (
	minGames    = 10
	minOthers   = 3
	maxLossRate = 0.2
	lossFactor  = 3
)

// judge counts rec against its worker, then bans each worker whose
// crashes and time losses stand out against the others' (looked at after
// every result: the others' games are what a worker is judged against).
func (c *Coordinator) judge(worker string, rec ledger.Record) {
	c.mu.Lock()
	h := c.health[worker]
	if h == nil {
		h = &health{}
		c.health[worker] = h
	}
	h.games++
	for _, f := range rec.Forfeits {
		if f.Reason == protocol.ReasonCrash || f.Reason == protocol.ReasonTimeout || f.Reason == protocol.ReasonStartup {
			h.losses++
		}
	}
	var total health
	for _, o := range c.health {
		total.games += o.games
		total.losses += o.losses
	}
	var sick []string
	var why []string
	for w, mine := range c.health {
		if _, done := c.banned[w]; done {
			continue
		}
		others := health{total.games - mine.games, total.losses - mine.losses}
		if mine.games < minGames || others.games < minOthers {
			continue
		}
		rate := float64(mine.losses) / float64(mine.games)
		otherRate := float64(others.losses) / float64(others.games)
		if rate > maxLossRate && rate > lossFactor*otherRate {
			sick = append(sick, w)
			why = append(why, fmt.Sprintf("%d crashes, startup failures and time losses in %d games (%.0f%%; the other workers: %.0f%%)",
				mine.losses, mine.games, 100*rate, 100*otherRate))
		}
	}
	c.mu.Unlock()
	for i, w := range sick {
		c.ban(w, why[i])
	}
}

// ban refuses worker's results from now on and tells it to stop taking
// the run's jobs.
func (c *Coordinator) ban(worker, reason string) {
	c.mu.Lock()
	_, already := c.banned[worker]
	if !already {
		c.banned[worker] = reason
	}
	c.mu.Unlock()
	if already {
		return
	}
	fmt.Fprintf(c.warn, "arena: warning: worker %s is banned from the run: %s\n", worker, reason)
	if b, err := json.Marshal(Ban{Worker: worker, Reason: reason}); err == nil {
		c.nc.Publish(ControlSubject(c.run), b)
	}
}
