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
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
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
	// Roster, if set, is the run's bots instead of Bots, for a run whose
	// bots change while it goes on (a ladder): the runner, the executor
	// and whoever adds and retires bots share it. nil: a roster of Bots,
	// built once.
	Roster *Roster
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
	// OnGame (nil: none) is told of each counted game (a RecordRule
	// judged it earlier, as it finished: in the same order), from Run's
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

// RecordRule is a StopRule that judges a game by its record alone (an
// SPRT's tally), not by what the Source or anything else made of the
// games counted before it. Run asks it as each game finishes, in the
// order they finish, before the game is durable, so that the next game
// need not wait for the disk: at concurrency 1 a game of two plies is
// shorter than the two syncs that make it durable. The games it has seen
// are still counted only once durable (after a verdict too), and a
// failure to make them durable is the run's error, whatever the verdict.
type RecordRule interface {
	StopRule
	// ByRecord marks the rule; it is never called.
	ByRecord()
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

// Run plays src's games until it runs out, stop says so (nil: never),
// ctx ends or the arena fails. Bot failures are results, not errors; an
// error (ErrInterrupted, a *GameError, ErrStalled, or the Source's) means
// the run could not go on, and every game recorded stays recorded. The
// Result is never nil.
func Run(ctx context.Context, cfg Config, src Source, stop StopRule, sink Sink) (*Result, error) {
	r := newRunner(ctx, cfg, src, stop, sink)
	defer r.close()
	for {
		r.start()
		r.flush() // after start: a game running lets the group wait for more
		if r.over() {
			break
		}
		r.wait()
	}
	return r.end()
}
