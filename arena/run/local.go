package run

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/replays"
)

// Local is the Executor that plays games on this machine: the bots'
// sessions kept in one pool.Pool for the run (no session plays a deal
// twice; one is replaced only after it failed, or after every game with
// RestartBots), each game played by the referee.
type Local struct {
	cfg  Config
	pool *pool.Pool
	logs Sink
	// unwatch ends the pool's watch on the run's roster: bots added or
	// retired while the run goes on reach the pool (AddBot, RetireBot).
	unwatch func()
}

// NewLocal is the Local executor of cfg's bots (Config.Roster, whose
// changes it follows until Close, or Config.Bots) and settings; logs
// (nil: none) says where each bot's stderr of a game goes (Sink.Log).
func NewLocal(cfg Config, logs Sink) *Local {
	cfg.Settings = cfg.Settings.WithDefaults()
	cfg.Roster = cfg.roster()
	if cfg.Warn == nil {
		cfg.Warn = io.Discard
	}
	if logs == nil {
		logs = Discard
	}
	l := &Local{cfg: cfg, pool: pool.New(nil, bot.LaunchOptions{MaxLine: cfg.MaxLine, StderrCap: cfg.StderrCap}), logs: logs}
	l.pool.Spare, l.pool.Rotation, l.pool.OneGame = cfg.SpareProcesses, cfg.Rotation, cfg.RestartBots
	if l.pool.Spare <= 0 {
		l.pool.Spare = DefaultSpare(cfg.Concurrency, cfg.Rotation)
	}
	l.pool.OnLogLost = func(err error) { fmt.Fprintf(cfg.Warn, "arena: warning: %v\n", err) }
	l.unwatch, _ = cfg.Roster.Watch(l) // AddBot takes every bot
	return l
}

// AddBot adds bot i to the pool (RosterWatcher): the pool's bots are the
// roster's, in the same order, so its index is i.
func (l *Local) AddBot(i int, spec bot.Spec) error {
	l.pool.Add(spec)
	return nil
}

// RetireBot retires bot i from the pool (RosterWatcher): its idle
// sessions are closed now, those in games after them.
func (l *Local) RetireBot(i int) { l.pool.Retire(i) }

// Claim reports whether every seat of t whose bot is started (none that
// takes no part, Table.Absent) has an idle process of its bot that may
// play t's deal, and if so holds them for t's Play (Claimer).
func (l *Local) Claim(t Table) bool {
	var bots []int
	for s, on := range referee.Started(t.players(l.cfg.Roster)) {
		if on {
			bots = append(bots, t.Seats[s])
		}
	}
	return l.pool.Claim(bots, t.Seed)
}

// PoolStats is the accounting of the run's bot processes (pool.Stats).
func (l *Local) PoolStats() pool.Stats { return l.pool.Stats() }

// LostLogs counts the stderr logs that could not be written.
func (l *Local) LostLogs() int {
	_, lost := l.pool.LogCounts()
	return lost
}

// Close ends every bot session: with bye (waiting ByeGrace for the
// processes to exit) when the run ran to its end, else at once. Once it
// returns every log is written, and a line says how many were lost.
func (l *Local) Close(done bool) {
	l.unwatch()
	if done {
		l.pool.Shutdown(l.cfg.ByeGrace)
	}
	l.pool.KillAll()
	if logs, lost := l.pool.LogCounts(); lost > 0 {
		fmt.Fprintf(l.cfg.Warn, "arena: warning: %s\n", LostLogsText(logs, lost))
	}
}

// Play plays one game. It writes nothing but the bots' stderr logs: it
// returns the game's record and its replay for the sink, which writes
// the replay before the ledger line, so a replay is always in place
// before the line that makes its game count. If ctx ends during the game
// the referee closes the bots' connections (which ends their processes)
// and the result is ErrAbandoned: the game is not kept.
func (l *Local) Play(ctx context.Context, t Table) (ledger.Record, Replay, error) {
	players := t.players(l.cfg.Roster)
	g := l.seat(t, players)
	c := &l.cfg
	rec := replays.NewRecorder(replays.Header{
		Arena: c.Version, Game: c.Game.Info().Name, Options: c.Options, Seed: t.Seed,
		Match: c.MatchID, GameID: t.GameID, Seats: g.seats, Clock: c.Limits.Protocol(), Started: time.Now().UTC(),
	})
	res, err := referee.Play(ctx, referee.Config{
		Game: c.Game, Options: c.Options, Seed: t.Seed, Match: c.MatchID, GameID: t.GameID, BotSeeds: t.SeatSeeds(),
		Limits: c.Limits, Policy: c.Policy, MaxStrikes: c.MaxStrikes, Recorder: rec,
	}, players)
	if ctx.Err() != nil {
		g.giveBack(func(int) bool { return true })
		return ledger.Record{}, nil, ErrAbandoned // the bots were closed under it
	}
	if err != nil {
		g.giveBack(func(int) bool { return true })
		return ledger.Record{}, nil, err
	}
	g.giveBack(func(s int) bool { return res.Failed[s] }) // with RestartBots the pool retires every process (pool.OneGame)
	out := l.record(t, res, g)
	rec.Finish(replays.ResultOf(res.Outcome))
	return out, rec, nil
}

// seating is what one game holds of the pool, seat by seat, from the
// moment its processes are taken until they are given back.
type seating struct {
	seats []replays.SeatInfo
	// acquired[s] gives seat s's process back (nil: none was started).
	acquired []func(failed bool)
	procs    []bot.Endpoint
	// marks are the processes' stderr tails as the game began: what
	// differs at its end was written during it.
	marks []string
	logs  []string
}

// seat takes from the pool a process for each seat of t that plays
// (referee.Started) and connects players to them; a seat whose launch
// failed gets a broken connection, so the referee records its failure.
func (l *Local) seat(t Table, players []referee.Player) *seating {
	n := len(t.Seats)
	g := &seating{seats: make([]replays.SeatInfo, n), acquired: make([]func(bool), n),
		procs: make([]bot.Endpoint, n), marks: make([]string, n), logs: make([]string, n)}
	start := referee.Started(players)
	for s, b := range t.Seats {
		name := players[s].Name
		g.seats[s] = replays.SeatInfo{Seat: s, Bot: name}
		if !start[s] {
			continue
		}
		// The pool hands out no process that has played this deal before.
		proc, err := l.pool.Get(b, t.Seed)
		if err != nil {
			players[s].Conn = transport.Broken(err) // the referee records the seat's failure
			continue
		}
		g.procs[s], g.marks[s] = proc, l.pool.StderrMark(proc)
		players[s].Conn = proc
		g.acquired[s] = func(failed bool) { l.pool.Put(b, proc, failed) }
		if rt, ok := proc.(bot.RoundTripper); ok {
			// Measured as the game begins, so organisers see who is far
			// away (its clock runs at the referee, network included). At
			// least 1 us, so that a remote seat never reads as local.
			if d, err := rt.RoundTrip(); err == nil {
				g.seats[s].RoundTripUS = max(d.Microseconds(), 1)
			}
		}
		if proc != nil {
			// A log that cannot be written is reported and counted by the
			// pool (Pool.OnLogLost); it does not stop the game.
			if file := l.logs.Log(name, t.GameID); file.Open != nil {
				g.logs[s] = file.Name
				l.pool.AttachLog(proc, file)
			}
		}
	}
	return g
}

// giveBack returns every process taken to the pool, failed(seat) saying
// which to retire.
func (g *seating) giveBack(failed func(seat int) bool) {
	for s, put := range g.acquired {
		if put != nil {
			put(failed(s))
		}
	}
}

// record is the ledger line of t's game, which res ended, its processes
// already given back (so a forfeiting one's stderr tail is complete).
func (l *Local) record(t Table, res *referee.Result, g *seating) ledger.Record {
	out := ledger.Record{
		Index: t.Index, GameID: t.GameID, Round: t.Round, Seed: t.Seed, Ranks: res.Outcome.Ranks, Scores: res.Outcome.Scores,
		Reason: res.Outcome.Reason, Plies: res.Plies, Forfeits: []ledger.SeatFailure{}, RoundTripUS: roundTripsOf(g.seats),
	}
	for _, b := range t.Seats {
		out.Bots = append(out.Bots, l.cfg.Roster.Name(b))
	}
	for _, f := range res.Forfeits {
		sf := ledger.FailureOf(f.Recorded(), out.Bots[f.Seat])
		sf.Log, sf.Advice = g.logs[f.Seat], transport.HintOf(f.Err)
		// A forfeiting process has been closed (given back above), which
		// waits for the last of its stderr: the tail is complete.
		if p := g.procs[f.Seat]; p != nil {
			if tail := p.StderrTail(); tail != g.marks[f.Seat] {
				sf.StderrLast = lastLine(tail)
			}
		}
		out.Forfeits = append(out.Forfeits, sf)
	}
	for _, f := range res.Strikes {
		out.Strikes = append(out.Strikes, ledger.FailureOf(f.Recorded(), out.Bots[f.Seat]))
	}
	return out
}

// stderrLastMax bounds StderrLast, as arena check bounds the stderr it
// quotes: a line of a bot's output, not a page.
const stderrLastMax = 200

// lastLine is the last non-empty line of what a bot wrote to stderr,
// its end kept if it is longer than stderrLastMax.
func lastLine(tail string) string {
	tail = strings.TrimSpace(tail)
	if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
		tail = strings.TrimSpace(tail[i+1:])
	}
	if len(tail) > stderrLastMax {
		tail = "..." + tail[len(tail)-stderrLastMax:]
	}
	return tail
}

// roundTripsOf is the record's round trips: the seats', or nil when no
// seat is remote (the field is then left out).
func roundTripsOf(seats []replays.SeatInfo) []int64 {
	var out []int64
	for s, si := range seats {
		if si.RoundTripUS > 0 {
			if out == nil {
				out = make([]int64, len(seats))
			}
			out[s] = si.RoundTripUS
		}
	}
	return out
}

// LostLogsText is the end-of-run line about stderr logs that could not be
// written (Pool.LogCounts).
func LostLogsText(logs, lost int) string {
	return fmt.Sprintf("%d of %d stderr logs lost or incomplete (see the warnings above; a full disk?): the games are recorded all the same", lost, logs)
}
