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

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/replays"
)

// Coordinator is the Executor of a distributed run: each game is a job
// for the workers, and its result comes back through the results stream.
type Coordinator struct {
	nc   *nats.Conn
	js   jetstream.JetStream
	obs  jetstream.ObjectStore
	cfg  run.Config
	bots []JobBot // by the run's bot index
	warn io.Writer

	results *nats.Subscription
	events  *nats.Subscription

	mu      sync.Mutex
	waiters map[string]chan Result // by game id
	retries map[string]int         // by game id: results refused and played again
	told    map[string]bool        // refusals already reported, by worker and reason
}

// NewCoordinator sets up the streams (Setup) and returns the executor of
// cfg's run (its MatchID names the run's jobs and results: a resumed run
// keeps it). Each bot's build is fixed now: a worker must have the same.
// A bot's launcher is a bot.Command, or a remote bot's (remote.Launcher).
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
	c := &Coordinator{nc: nc, js: js, obs: obs, cfg: cfg, warn: cfg.Warn,
		waiters: map[string]chan Result{}, retries: map[string]int{}, told: map[string]bool{}}
	if c.warn == nil {
		c.warn = io.Discard
	}
	for _, b := range cfg.Bots {
		build, err := Build(b)
		if err != nil {
			return nil, err
		}
		c.bots = append(c.bots, JobBot{Name: b.Name, Build: build})
	}
	// Subscribed before any job goes out: every result published from
	// now on reaches deliver; those from before are in the stream.
	if c.results, err = nc.Subscribe("arena.results."+Token(cfg.MatchID)+".>", c.deliver); err != nil {
		return nil, err
	}
	if c.events, err = nc.Subscribe(EventSubject(cfg.MatchID), c.event); err != nil {
		c.results.Unsubscribe()
		return nil, err
	}
	if err := nc.Flush(); err != nil {
		c.Close(false)
		return nil, err
	}
	return c, nil
}

// Build is the build of a bot as jobs name it: a command's
// (bot.Command.Build), or "nats:ID" for a remote bot (remote.Launcher).
func Build(b bot.Spec) (string, error) {
	switch l := b.Launcher.(type) {
	case bot.Command:
		return l.Build()
	case *remote.Launcher:
		return bot.RemotePrefix + l.ID, nil
	}
	return "", fmt.Errorf("bot %s: a distributed run plays bot commands and remote bots, not %T", b.Name, b.Launcher)
}

// Builds are the bots' builds as the coordinator fixed them, by the
// run's bot index.
func (c *Coordinator) Builds() []string {
	out := make([]string, len(c.bots))
	for i, b := range c.bots {
		out[i] = b.Build
	}
	return out
}

func (c *Coordinator) deliver(m *nats.Msg) {
	var res Result
	if json.Unmarshal(m.Data, &res) != nil {
		return
	}
	c.mu.Lock()
	w := c.waiters[res.Record.GameID]
	if w == nil && res.Error != "" {
		w = c.waiters[gameOfJob(res.Job, c.cfg.MatchID)]
	}
	c.mu.Unlock()
	if w != nil {
		select {
		case w <- res:
		default:
		}
	}
}

func gameOfJob(job, run string) string {
	if len(job) > len(run)+1 && job[:len(run)] == run {
		return job[len(run)+1:]
	}
	return ""
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

// Play publishes t as a job, unless its result is in the results stream
// already (a restarted coordinator), and waits for the result.
func (c *Coordinator) Play(ctx context.Context, t run.Table) (ledger.Record, run.Replay, error) {
	wait := make(chan Result, 4)
	c.mu.Lock()
	c.waiters[t.GameID] = wait
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.waiters, t.GameID)
		c.mu.Unlock()
	}()
	published := false
	for {
		res, found, err := c.lookup(ctx, t)
		if err != nil {
			return ledger.Record{}, nil, err
		}
		if !found && !published {
			if err := c.publish(ctx, t); err != nil {
				return ledger.Record{}, nil, err
			}
			published = true
		}
		if !found {
			poll := time.NewTimer(resultPoll)
			select {
			case <-ctx.Done():
				poll.Stop()
				return ledger.Record{}, nil, run.ErrAbandoned
			case res = <-wait:
				found = true
			case <-poll.C:
			}
			poll.Stop()
		}
		if !found {
			continue
		}
		rec, replay, err := c.accept(ctx, t, res)
		if err == nil || errors.Is(err, ErrNotPlayed) {
			return rec, replay, err
		}
		// A result that does not hold up is dropped and the game played
		// again, by whichever worker takes it.
		fmt.Fprintf(c.warn, "arena: warning: game %s: the result from worker %s is refused (%v); playing it again\n", t.GameID, res.Worker, err)
		if err := c.drop(ctx, t); err != nil {
			return ledger.Record{}, nil, err
		}
		published = false
	}
}

// lookup finds t's result in the results stream.
func (c *Coordinator) lookup(ctx context.Context, t run.Table) (Result, bool, error) {
	st, err := c.js.Stream(ctx, ResultsStream)
	if err != nil {
		return Result{}, false, err
	}
	m, err := st.GetLastMsgForSubject(ctx, ResultSubject(c.cfg.MatchID, t.GameID))
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return Result{}, false, nil
	}
	if err != nil {
		return Result{}, false, fmt.Errorf("looking for the result of game %s: %w", t.GameID, err)
	}
	var res Result
	if err := json.Unmarshal(m.Data, &res); err != nil {
		return Result{Worker: "?"}, true, nil // refused by accept
	}
	return res, true, nil
}

// job is t as a worker plays it.
func (c *Coordinator) job(t run.Table) Job {
	c.mu.Lock()
	retry := c.retries[t.GameID]
	c.mu.Unlock()
	j := Job{ID: c.cfg.MatchID + "." + t.GameID, Run: c.cfg.MatchID, Arena: c.cfg.Version, Game: c.cfg.Game.Info().Name,
		Rules: c.cfg.Game.Info().Rules, Options: c.cfg.Options, Settings: c.cfg.Settings, KeepIdle: c.cfg.KeepIdle}
	if retry > 0 {
		j.ID += fmt.Sprintf(".retry%d", retry) // past the stream's deduplication
	}
	j.Table = t
	j.Table.Recorded = nil
	j.Table.BotSeeds = t.SeatSeeds()
	j.Table.Seats = make([]int, len(t.Seats))
	index := map[int]int{}
	for s, b := range t.Seats {
		i, ok := index[b]
		if !ok {
			i = len(j.Bots)
			index[b] = i
			j.Bots = append(j.Bots, c.bots[b])
		}
		j.Table.Seats[s] = i
	}
	return j
}

func (c *Coordinator) publish(ctx context.Context, t run.Table) error {
	j := c.job(t)
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if _, err := c.js.Publish(ctx, JobSubject(c.cfg.MatchID), b, jetstream.WithMsgID(j.ID)); err != nil {
		if ctx.Err() != nil {
			return run.ErrAbandoned
		}
		return fmt.Errorf("queueing game %s: %w", t.GameID, err)
	}
	return nil
}

// drop removes a refused result so that the game's next one can be
// recorded.
func (c *Coordinator) drop(ctx context.Context, t run.Table) error {
	c.mu.Lock()
	c.retries[t.GameID]++
	n := c.retries[t.GameID]
	c.mu.Unlock()
	if n > maxRetries {
		return fmt.Errorf("game %s: %d results refused in a row", t.GameID, n)
	}
	st, err := c.js.Stream(ctx, ResultsStream)
	if err == nil {
		err = st.Purge(ctx, jetstream.WithPurgeSubject(ResultSubject(c.cfg.MatchID, t.GameID)))
	}
	return err
}

// maxRetries bounds how often one game's result may be refused.
const maxRetries = 3

// accept checks a worker's result against the game the coordinator
// asked for: the record is of t (game id, seed, bots), the replay reads,
// is of t and re-simulates to the record's outcome.
func (c *Coordinator) accept(ctx context.Context, t run.Table, res Result) (ledger.Record, run.Replay, error) {
	if res.Error != "" {
		return ledger.Record{}, nil, fmt.Errorf("game %s: %w: %s", t.GameID, ErrNotPlayed, res.Error)
	}
	rec := res.Record
	names := make([]string, len(t.Seats))
	for s, b := range t.Seats {
		names[s] = c.cfg.Bots[b].Name
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
	if err := replays.Verify(rp); err != nil {
		return rec, nil, fmt.Errorf("its replay: %w", err)
	}
	if r := rp.Result; !slices.Equal(r.Ranks, rec.Ranks) || r.Plies != rec.Plies {
		return rec, nil, fmt.Errorf("the record's ranks %v (%d plies) are not its replay's %v (%d plies)", rec.Ranks, rec.Plies, r.Ranks, r.Plies)
	}
	rec.Round = t.Round
	return rec, replays.Compressed(data), nil
}

// Close stops listening and takes the run's jobs not yet started off the
// queue: a stopped run (an SPRT verdict, an interrupt) leaves no work
// behind. A resumed run queues them again.
func (c *Coordinator) Close(bool) {
	if c.results != nil {
		c.results.Unsubscribe()
	}
	if c.events != nil {
		c.events.Unsubscribe()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if st, err := c.js.Stream(ctx, JobsStream); err == nil {
		st.Purge(ctx, jetstream.WithPurgeSubject(JobSubject(c.cfg.MatchID)))
	}
}
