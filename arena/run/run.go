// Package run is the one driver under arena match, arena tournament and
// arena sprt: it plays a stream of games (a Source) at a concurrency
// limit, hands each finished game to a Sink (the replay first, then the
// ledger line) and asks a StopRule after each counted game whether to go
// on. As in fastchess, a sequential test is a stop rule, not a driver of
// its own; a fixed schedule is a Source that runs out.
//
// An Executor plays each game: Local, with the bots' sessions in one
// pool for the run, or a coordinator of workers elsewhere.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// Settings is what every game of a run shares, whichever command runs
// it: the clocks, what a bot's failure costs, the bounds on what a bot
// may send, and how bot processes are kept. The tournament file and the
// flags of arena match, tournament and sprt all resolve into it.
type Settings struct {
	Limits     clock.Limits
	Policy     referee.Policy
	MaxStrikes int
	// MaxLine bounds one line from a bot, StderrCap a game's stderr log.
	MaxLine   int
	StderrCap int64
	// RestartBots starts fresh bot processes (each in a fresh sandbox
	// directory) for every game, also between different deals, where the
	// pool would keep them: neither memory nor the bot's own directory
	// carries over from one game to the next. (The pool already keeps a
	// process from playing a deal twice either way.)
	RestartBots bool
	// FreshDeals deals new cards for every game instead of replaying a
	// deal over a rotation block (each command derives its deals; see
	// docs/security.md for what it stops that the pool cannot).
	FreshDeals bool
	// ByeGrace is how long a bot may take to exit after bye.
	ByeGrace time.Duration
	// SpareProcesses bounds the bot processes kept outside games (idle
	// between games, or started ahead), across all bots: the live ones
	// are at most those the running games hold plus this (pool.Pool).
	// 0: DefaultSpare of the run's concurrency and rotation.
	SpareProcesses int
	// MaxStartupFailures is how many of its games in a row a bot may fail
	// to start (no ready within the startup limit: each costs the whole
	// limit) before it is suspended for the rest of the run: its
	// remaining games are forfeits, recorded without starting it
	// (Config.OnSuspend, Table.Absent). NeverSuspend: never; 0: Defaults'.
	MaxStartupFailures int
}

// NeverSuspend is Settings.MaxStartupFailures for a run that suspends
// no bot, however often it fails to start.
const NeverSuspend = -1

// SuspendAfter is Settings.MaxStartupFailures for n as people give it
// (--max-startup-failures, a tournament file's key): 0 never suspends.
func SuspendAfter(n int) int {
	if n == 0 {
		return NeverSuspend
	}
	return n
}

// Defaults are the settings a run takes for what it is not given: the one
// place each default is declared.
var Defaults = Settings{
	Limits:     clock.Defaults,
	Policy:     referee.Forfeit,
	MaxStrikes: referee.DefaultMaxStrikes,
	MaxLine:    protocol.DefaultMaxLine,
	StderrCap:  transport.DefaultStderrCap,
	ByeGrace:   time.Second,
	// Small: a bot that has not started three times running will not
	// start the fourth, and each try costs its game the startup limit.
	MaxStartupFailures: 3,
}

// DefaultSpare is the spare budget of a run given none
// (Settings.SpareProcesses): as many processes outside games as the games
// hold at full concurrency, so that each finished game's processes can
// wait for their bots' next games, and at least a rotation block's worth
// (rotation bots, one process per game of the block), so that the bots of
// a match are never restarted. rotation is the games of one deal between
// the same bots (Config.Rotation), which is also the seats of a table.
func DefaultSpare(concurrency, rotation int) int {
	rotation = max(rotation, 1)
	return max(concurrency, rotation) * rotation
}

// WithDefaults fills in, from Defaults, what s leaves at zero (clocks
// are the caller's: a time control or a move clock are alternatives).
func (s Settings) WithDefaults() Settings {
	if s.Policy == "" {
		s.Policy = Defaults.Policy
	}
	if s.MaxStrikes <= 0 {
		s.MaxStrikes = Defaults.MaxStrikes
	}
	if s.MaxLine <= 0 {
		s.MaxLine = Defaults.MaxLine
	}
	if s.StderrCap <= 0 {
		s.StderrCap = Defaults.StderrCap
	}
	if s.ByeGrace <= 0 {
		s.ByeGrace = Defaults.ByeGrace
	}
	if s.MaxStartupFailures == 0 {
		s.MaxStartupFailures = Defaults.MaxStartupFailures
	}
	return s
}

// Config is one run.
type Config struct {
	Settings
	Game    engine.Game
	Options engine.Options // resolved (engine.Setup)
	// MatchID is sent to bots and starts every game id; not derived from
	// the seed.
	MatchID string
	// RunKey, if set, tells this run from another of the same MatchID (a
	// tournament of the same name into another directory) where runs
	// meet: a distributed run's queue and results. It stays the same when
	// the run resumes (a tournament: its deal secret's fingerprint).
	RunKey  string
	Version string // the arena's, written into replays
	// Bots are indexed by Table.Seats.
	Bots []bot.Spec
	// Concurrency is how many games run at once (< 1: 1); with a
	// UnitExecutor, how many units, each played game after game.
	Concurrency int
	// Rotation is how many games of one deal the same bots play (seats
	// rotated): 2 for game pairs, the seats of a k-seat rotation. With
	// Concurrency it makes the default of SpareProcesses (DefaultSpare).
	Rotation int
	// AbandonAfter is how long running games may go on after ctx ends
	// before their bots are closed (0: at once). A game that ends in
	// that time is recorded.
	AbandonAfter time.Duration
	// Warn (nil: none) receives warning lines: stderr logs lost (each,
	// and the count at the end).
	Warn io.Writer
	// OnGame (nil: none) is told of each counted game, from Run's
	// goroutine, after the Source and the StopRule.
	OnGame func(Progress)
	// Executor plays the games (nil: NewLocal of this config). Run
	// closes it.
	Executor Executor
	// Absent are the bots that take no part from the run's start (by
	// index into Bots), with why: a tournament's withdrawn bots, and those
	// suspended in an earlier run. Their games are played without them
	// (Table.Absent): forfeits, recorded without starting them.
	Absent map[int]string
	// OnSuspend (nil: none) is told of each bot this run suspends
	// (Settings.MaxStartupFailures), from Run's goroutine, before any
	// game is played without it: a tournament makes it durable. An error
	// stops the run.
	OnSuspend func(Suspension) error
}

// Source is the stream of games a run plays: a schedule.Scheduler, or a
// fixed list, seen as Tables.
type Source interface {
	// Next returns the next game, or why there is none now
	// (schedule.Wait: results of running games must come first) or any
	// more (schedule.Done). A game already recorded (a resumed run)
	// comes with Table.Recorded set: it is counted, not played.
	Next() (Table, schedule.Status)
	// Result is told of each game counted, in the order they finish,
	// after it is recorded. An error stops the run.
	Result(t Table, rec ledger.Record) error
}

// StopRule decides, after each counted game, whether the run has what it
// came for (an SPRT verdict). Once it says so no game is started, running
// games are abandoned, and games that still finish are recorded but not
// counted.
type StopRule interface {
	Stop(t Table, rec ledger.Record) bool
}

// Sink keeps what a run produces. Files is the output directory; Discard
// keeps nothing.
type Sink interface {
	// Log is where bot's stderr of game gameID is written (Open nil:
	// kept nowhere). Name is what failure messages point to.
	Log(bot, gameID string) pool.LogFile
	// Replay keeps a finished game's replay and says where (for the
	// ledger line's replay and replay_at fields: a file, "" if it is kept
	// nowhere, and where in the file when it is a pack). It is called
	// from the game's goroutine, games in parallel.
	Replay(t Table, replay Replay) (string, *replays.Span, error)
	// Record appends a game's ledger line, once its replay is kept, so a
	// recorded game always has its replay; one call at a time, in the
	// order games finish. The game counts once it returns (a GroupSink's,
	// once SyncRecords returns).
	Record(t Table, rec ledger.Record) error
}

// GroupSink is a Sink that makes what it keeps durable in groups:
// Replay and Record write without waiting for the disk; SyncReplays makes
// every replay kept so far durable, SyncRecords every ledger line. Run
// records the games that finished together in one go, off its own
// goroutine: SyncReplays, their lines, SyncRecords, then they count. A
// line that survives a crash has its replay, and a group of games costs
// two syncs instead of three per game.
type GroupSink interface {
	Sink
	SyncReplays() error
	SyncRecords() error
}

// Replay is a finished game's replay as a Sink keeps it: a
// *replays.Recorder, or the bytes a worker recorded (replays.Compressed).
type Replay interface {
	Compressed() ([]byte, error)
}

// Executor plays a run's games: Local on this machine (the default), or
// a coordinator that has workers elsewhere play them (arena/cluster).
// Play is called from a goroutine per game, up to Concurrency at once.
type Executor interface {
	// Play plays table t to its end and returns its record (Index aside)
	// and replay. A game cut short by ctx is ErrAbandoned; any other
	// error is the arena's, which stops the run.
	Play(ctx context.Context, t Table) (ledger.Record, Replay, error)
	// Close is called once, when Run is done: ranToEnd says every game
	// was played (the bots may be sent bye), else the run stopped.
	Close(ranToEnd bool)
}

// Claimer is an Executor that can tell whether a table's bots have
// processes waiting that may play it (Local: idle in its pool), and
// then holds them for the table's Play, which Run starts at once. Run, at
// a concurrency above 1 and with no StopRule watching the order of the
// games, starts such a table first
// among the next Lookahead ready ones, so that a finished game's
// processes play the next games rather than fresh ones being started
// (a round-robin of many bots, whose next game in schedule order is
// often between bots with no process to spare). Only the order in which
// games start changes: the games, their deals and seeds are the Source's.
type Claimer interface {
	Executor
	Claim(t Table) bool
}

// Lookahead is how many ready games Run looks through for one a Claimer
// has processes waiting for; a game passed over this many times starts
// next, so none waits long behind later ones.
const Lookahead = 64

// UnitExecutor is an Executor that plays a unit of games together: the
// games of one deal between the same bots (UnitKey), such as an SPRT pair
// or a rotation of seats, on one machine. Run gathers the units from the
// Source as far as the concurrency allows.
type UnitExecutor interface {
	Executor
	// PlayUnit plays the unit's games, calling done once for each (i its
	// index in unit), from any goroutine, as each finishes; it returns
	// once every game is done. done's results are those of Play.
	PlayUnit(ctx context.Context, unit []Table, done func(i int, rec ledger.Record, replay Replay, err error))
}

// UnitKey says which games form a unit: those with the same deal and the
// same bots, in any seats.
func UnitKey(t Table) string {
	bots := slices.Clone(t.Seats)
	slices.Sort(bots)
	return fmt.Sprint(t.Seed, bots)
}

// Progress is the state of a run after a counted game.
type Progress struct {
	// Done counts the games counted, Resumed those of them found
	// already recorded.
	Done, Resumed int
	InFlight      int
	Elapsed       time.Duration
	Last          ledger.Record
	// LostLogs counts the stderr logs that could not be written.
	LostLogs int
	// Suspended are the bots this game's result suspended, if any.
	Suspended []Suspension
}

// Result is how a run ended.
type Result struct {
	Progress
	// Stopped: the StopRule ended the run.
	Stopped bool
	// Played counts every game that finished and was recorded, counted
	// or not (after a stop); Abandoned the games cut short.
	Played, Abandoned int
}

// Errors of Run.
var (
	// ErrInterrupted: ctx ended the run; every game recorded stays so.
	ErrInterrupted = errors.New("interrupted")
	// ErrStalled: the source waits for results but no game is running.
	ErrStalled = errors.New("the schedule is waiting for results but no game is running")
)

// GameError is an arena failure while playing or recording one game (a
// broken engine, a full disk): not a bot's failure, which is a result.
type GameError struct {
	Table Table
	Err   error
}

func (e *GameError) Error() string { return fmt.Sprintf("game %s: %v", e.Table.GameID, e.Err) }
func (e *GameError) Unwrap() error { return e.Err }

// sinkError is a Sink's failure to keep a game, which stops the run like
// a game's own error.
type sinkError struct{ error }

func (e *sinkError) Unwrap() error { return e.error }

type finished struct {
	t    Table
	rec  ledger.Record
	err  error
	unit int // of Run's units
	// suspended are the bots this game's result suspended.
	suspended []Suspension
}

// syncDone is a group of games the syncer recorded, or why it could not.
type syncDone struct {
	batch []finished
	err   error
}

// syncer records each group of finished games it is given in sink:
// their replays made durable first, then their lines appended and
// synced, so that a line that survives a crash has its replay.
func syncer(sink GroupSink, groups <-chan []finished, done chan<- syncDone) {
	for batch := range groups {
		err := sink.SyncReplays()
		var gameErr *GameError
		if err != nil && !errors.As(err, &gameErr) {
			err = &GameError{Table: batch[0].t, Err: err}
		}
		for _, d := range batch {
			if err != nil {
				break
			}
			if e := sink.Record(d.t, d.rec); e != nil {
				err = &GameError{Table: d.t, Err: e}
			}
		}
		if err == nil {
			if e := sink.SyncRecords(); e != nil {
				err = &GameError{Table: batch[0].t, Err: e}
			}
		}
		done <- syncDone{batch, err}
	}
}

// maxBatch bounds the games recorded together (GroupSink).
const maxBatch = 256

// syncSlack is the places a run without a stop rule has at least beyond
// its concurrency for games finished and waiting to count (Run).
const syncSlack = 1

// syncPlaces is the places a run without a stop rule has at least for
// its games, running and waiting to count together (Run): as many as
// one group of games recorded together (maxBatch).
const syncPlaces = maxBatch

// maxUnit bounds the games of one unit (UnitExecutor): a rotation of
// seats has at most as many as the largest table.
const maxUnit = 16

// Run plays src's games until it runs out, stop says so (nil: never),
// ctx ends or the arena fails. Bot failures are results, not errors; an
// error (ErrInterrupted, a *GameError, ErrStalled, or the Source's) means
// the run could not go on, and every game recorded stays recorded. The
// Result is never nil.
func Run(ctx context.Context, cfg Config, src Source, stop StopRule, sink Sink) (*Result, error) {
	cfg.Settings = cfg.Settings.WithDefaults()
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if cfg.Warn == nil {
		cfg.Warn = io.Discard
	}
	if sink == nil {
		sink = Discard
	}
	exec := cfg.Executor
	if exec == nil {
		exec = NewLocal(cfg, sink)
	}
	lostLogs := func() int { return 0 }
	if l, ok := exec.(interface{ LostLogs() int }); ok {
		lostLogs = l.LostLogs
	}
	ranToEnd := false
	defer func() { exec.Close(ranToEnd) }()

	// Games run under gctx, which ends AbandonAfter after ctx does, or at
	// once when the run stops early (a stop rule, an error).
	gctx, abandon := context.WithCancel(context.WithoutCancel(ctx))
	defer abandon()
	stopWatch := context.AfterFunc(ctx, func() {
		if cfg.AbandonAfter > 0 {
			time.AfterFunc(cfg.AbandonAfter, abandon)
		} else {
			abandon()
		}
	})
	defer stopWatch()

	res := &Result{}
	watch := newStartupWatch(cfg)
	start := time.Now()
	results := make(chan finished)
	stopping := false // no more games are started, none more counted
	var runErr error
	fail := func(err error) {
		if runErr == nil {
			runErr = err
		}
		stopping = true
		abandon()
	}
	count := func(t Table, rec ledger.Record) {
		if err := src.Result(t, rec); err != nil {
			fail(err)
		}
		res.Done++
		res.Elapsed = time.Since(start)
		res.Last = rec
		res.LostLogs = lostLogs()
	}
	status := schedule.Ready
	units, _ := exec.(UnitExecutor)
	claimer, _ := exec.(Claimer)
	if stop != nil || units != nil || cfg.Concurrency == 1 {
		// A stop rule sees the games in the Source's order; one game at
		// a time leaves all its processes idle for the next.
		claimer = nil
	}
	pick := &picker{src: src, claimer: claimer, watch: watch}
	// Concurrency bounds the units running (a unit's games are played in
	// turn); InFlight counts their games.
	running, unitLeft, unitCount := 0, map[int]int{}, 0
	keep := func(unit int, t Table, rec ledger.Record, replay Replay, err error) {
		markAbsentForfeits(t, &rec)
		if err == nil {
			if rec.Replay, rec.ReplayAt, err = sink.Replay(t, replay); err != nil {
				err = &sinkError{err}
			}
		}
		results <- finished{t: t, rec: rec, err: err, unit: unit}
	}
	// recorded counts a game whose ledger line is durable.
	indexed := 0
	recorded := func(d finished) {
		res.Played++
		if stopping {
			return // recorded, not counted
		}
		count(d.t, d.rec)
		res.Suspended = d.suspended
		if stop != nil && stop.Stop(d.t, res.Last) {
			res.Stopped = true
			stopping = true
			abandon()
		}
		if cfg.OnGame != nil {
			cfg.OnGame(res.Progress)
		}
	}
	// With a GroupSink, finished games are recorded in groups by a syncer
	// of their own, while the run goes on: their replays made durable,
	// then their lines appended, then the ledger synced; then they count.
	group, _ := sink.(GroupSink)
	var queued []finished // finished, waiting for the syncer
	syncing, inSync := false, 0
	syncFailed := false // a group could not be made durable
	// A game keeps its place in the concurrency until it counts, so that
	// games wait for the disk instead of piling more work on a machine
	// that is syncing. With a stop rule that is all: the rule has seen
	// every game before the next starts, as without the syncer, so a
	// verdict at concurrency 1 abandons no game started after it. Without
	// one a run has places beyond its concurrency for games played while
	// the last group is synced (a Source whose games depend on results
	// waits for them, Wait): at least one (syncSlack), and at least
	// syncPlaces in all, so that at a low concurrency, where games are
	// short next to a sync, many games go on while one sync runs and the
	// next group is as large: at concurrency 1 a game then waits for a
	// sync only when the sync takes longer than syncPlaces-1 games. At a
	// concurrency of syncPlaces or more, where the machine is busy with
	// games already, the places are one beyond it: letting every running
	// game go on during syncs cost the 256-game soak a tenth of its games
	// per second and added spurious timeouts.
	uncounted := func() int { return len(queued) + inSync }
	places := max(cfg.Concurrency+syncSlack, syncPlaces)
	free := func() bool {
		if stop != nil {
			return running+uncounted() < cfg.Concurrency
		}
		return running < cfg.Concurrency && running+uncounted() < places
	}
	toSync := make(chan []finished)
	synced := make(chan syncDone)
	if group != nil {
		go syncer(group, toSync, synced)
		defer close(toSync)
	}
	for {
		for !stopping && ctx.Err() == nil && free() {
			var t Table
			if t, status = pick.next(); status != schedule.Ready {
				break
			}
			if t.Recorded != nil {
				res.Resumed++
				count(t, *t.Recorded)
				continue
			}
			unit := []Table{t}
			// The games that follow on the same deal between the same
			// bots (a pair, a rotation) go with it: played as one unit,
			// on one machine.
			var key string
			if units != nil {
				key = UnitKey(t)
			}
			for units != nil && len(unit) < maxUnit {
				u, st := src.Next()
				if st != schedule.Ready {
					break
				}
				if u.Recorded != nil || UnitKey(u) != key {
					pick.held = &u
					break
				}
				watch.mark(&u)
				unit = append(unit, u)
			}
			unitCount++
			id := unitCount
			running++
			unitLeft[id] = len(unit)
			res.InFlight += len(unit)
			if units == nil {
				go func() {
					rec, replay, err := exec.Play(gctx, t)
					keep(id, t, rec, replay, err)
				}()
				continue
			}
			go units.PlayUnit(gctx, unit, func(i int, rec ledger.Record, replay Replay, err error) { keep(id, unit[i], rec, replay, err) })
		}
		if res.InFlight == 0 && !syncing && (len(queued) == 0 || syncFailed) {
			break
		}
		select {
		case d := <-results:
			// The games that have finished meanwhile come along.
			batch := []finished{d}
		gather:
			for len(batch) < maxBatch {
				select {
				case d := <-results:
					batch = append(batch, d)
				default:
					break gather
				}
			}
			for _, d := range batch {
				res.InFlight--
				if unitLeft[d.unit]--; unitLeft[d.unit] == 0 {
					delete(unitLeft, d.unit)
					running--
				}
				if d.err != nil {
					if errors.Is(d.err, ErrAbandoned) {
						res.Abandoned++
					} else {
						fail(&GameError{Table: d.t, Err: d.err})
					}
					continue
				}
				// The ledger's order: the games already in it, then as
				// games finish (recorded after a stop too, so every index
				// is its own).
				d.rec.Index = res.Resumed + indexed
				indexed++
				// Startup failures count as games finish, before the next
				// game starts, rather than once recorded: no game is then
				// started with a bot this one suspends.
				d.suspended = watch.saw(d.t, d.rec)
				for _, s := range d.suspended {
					if cfg.OnSuspend != nil {
						if err := cfg.OnSuspend(s); err != nil {
							fail(err)
						}
					}
				}
				if group == nil {
					if err := sink.Record(d.t, d.rec); err != nil {
						fail(&GameError{Table: d.t, Err: err})
						continue
					}
					recorded(d)
					continue
				}
				queued = append(queued, d)
			}
		case done := <-synced:
			syncing, inSync = false, 0
			if done.err != nil {
				syncFailed = true // no group after it: the sink is not durable
				fail(done.err)
				break // not durable: not counted
			}
			for _, d := range done.batch {
				recorded(d)
			}
		}
		// After another failure the games finished are still recorded, as
		// a sink without groups records them; only a failed sync stops it.
		if group != nil && !syncing && len(queued) > 0 && !syncFailed {
			toSync <- queued
			queued, syncing, inSync = nil, true, len(queued)
		}
	}
	res.Elapsed = time.Since(start)
	switch {
	case res.Stopped:
		return res, nil // the bots are killed, not sent bye: their games were cut short
	case runErr != nil:
		return res, runErr
	case ctx.Err() != nil:
		return res, fmt.Errorf("%w (%w)", ErrInterrupted, context.Cause(ctx))
	case status != schedule.Done:
		return res, ErrStalled
	}
	ranToEnd = true
	return res, nil
}
