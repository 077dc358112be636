package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/outdir"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays"
)

// Env is what every game of a match or tournament shares.
type Env struct {
	Game       engine.Game
	Options    engine.Options // resolved
	Match      string         // sent to bots; not derived from the seed
	Limits     clock.Limits
	Policy     referee.Policy
	MaxStrikes int
	// OutDir receives replays/ and logs/; "" keeps nothing.
	OutDir  string
	Version string // arena version, written into replays
	Bots    []Bot
	Pool    *Pool
	// RestartBots gives every game fresh bot processes. The pool already
	// keeps a process from playing a deal twice, so a bot cannot carry in
	// memory what it saw of a deal into the next game of its rotation
	// block either way; RestartBots adds a fresh process, and so a fresh
	// sandbox directory, for every game, also between different deals:
	// neither memory nor the bot's own directory carries over from game to
	// game (a shared directory such as /tmp, or a bot's dir, still does;
	// docs/security.md).
	RestartBots bool
}

// Table is one game to play: which bot sits in which seat, and the deal.
type Table struct {
	Index  int
	GameID string
	Round  int
	Seed   uint64 // the deal; no bot process plays one deal twice (Pool)
	Seats  []int  // bot index per seat
}

// errInterrupted: the game was cut short by an interrupt and is not kept.
var errInterrupted = errors.New("interrupted")

// Play plays one game and writes its replay and stderr logs. It does not
// write the ledger: the caller appends the record once Play returns, so a
// replay is always in place before its ledger line. If ctx is cancelled
// during the game, the bots are expected to have been killed and the
// result is errInterrupted.
func (e *Env) Play(ctx context.Context, t Table) (GameRecord, error) {
	n := len(t.Seats)
	players := make([]referee.Player, n)
	seats := make([]replays.SeatInfo, n)
	botSeeds := make([]uint64, n)
	var acquired []func(failed bool)
	procs := make([]*transport.Process, n)
	// marks are the processes' stderr tails as this game began: what
	// differs at its end was written during it.
	marks := make([]string, n)
	logs := make([]string, n)
	for s, b := range t.Seats {
		// The pool hands out no process that has played this deal before.
		conn, proc := e.Pool.Get(b, t.Seed)
		procs[s], marks[s] = proc, e.Pool.stderrMark(proc)
		players[s] = referee.Player{Name: e.Bots[b].Name, Conn: conn}
		seats[s] = replays.SeatInfo{Seat: s, Bot: e.Bots[b].Name}
		// A bot's seed follows the bot, not the seat: in a swapped pair each
		// bot keeps its own random stream, so the pair differs only by seat.
		botSeeds[s] = referee.BotSeed(t.Seed, b)
		b := b
		acquired = append(acquired, func(failed bool) { e.Pool.Put(b, proc, failed) })
		if proc != nil && e.OutDir != "" {
			// A log that cannot be written is reported and counted by the
			// pool (Pool.OnLogLost); it does not stop the game.
			logs[s] = LogPath(e.OutDir, e.Bots[b].Name, t.GameID)
			e.Pool.AttachLog(proc, logs[s])
		}
	}
	rec := replays.NewRecorder(replays.Header{
		Arena: e.Version, Game: e.Game.Info().Name, Options: e.Options, Seed: t.Seed,
		Match: e.Match, GameID: t.GameID, Seats: seats, Clock: e.Limits.Protocol(), Started: time.Now().UTC(),
	})
	res, err := referee.Play(referee.Config{
		Game: e.Game, Options: e.Options, Seed: t.Seed, Match: e.Match, GameID: t.GameID, BotSeeds: botSeeds,
		Limits: e.Limits, Policy: e.Policy, MaxStrikes: e.MaxStrikes, Recorder: rec,
	}, players)
	if ctx.Err() != nil {
		for _, put := range acquired {
			put(true)
		}
		return GameRecord{}, errInterrupted // the bots were killed under it
	}
	if err != nil {
		for _, put := range acquired {
			put(true)
		}
		return GameRecord{}, err
	}
	for s, put := range acquired {
		put(res.Failed[s] || e.RestartBots)
	}
	out := GameRecord{
		Index: t.Index, GameID: t.GameID, Round: t.Round, Seed: t.Seed, Ranks: res.Outcome.Ranks, Scores: res.Outcome.Scores,
		Reason: res.Outcome.Reason, Plies: res.Plies, Forfeits: []SeatFailure{},
	}
	for _, b := range t.Seats {
		out.Bots = append(out.Bots, e.Bots[b].Name)
	}
	for _, f := range res.Forfeits {
		sf := SeatFailure{Seat: f.Seat, Bot: out.Bots[f.Seat], Reason: string(f.Reason), Detail: f.Detail, Log: logs[f.Seat]}
		// A forfeiting process has been closed (put above), which waits
		// for the last of its stderr: the tail is complete.
		if p := procs[f.Seat]; p != nil {
			if tail := p.StderrTail(); tail != marks[f.Seat] {
				sf.StderrLast = lastLine(tail)
			}
		}
		out.Forfeits = append(out.Forfeits, sf)
	}
	for _, f := range res.Strikes {
		out.Strikes = append(out.Strikes, SeatFailure{Seat: f.Seat, Bot: out.Bots[f.Seat], Reason: string(f.Reason), Detail: f.Detail})
	}
	rec.Finish(replays.ResultOf(res.Outcome))
	if e.OutDir != "" {
		rel := filepath.Join("replays", t.GameID+replays.Ext)
		if err := rec.WriteFile(filepath.Join(e.OutDir, rel)); err != nil {
			return out, fmt.Errorf("writing replay: %w", err)
		}
		out.Replay = rel
	}
	return out, nil
}

// PrepareOut takes the output directory for this run and lays it out: it
// holds dir's lock (outdir.Acquire: another run into the same directory
// is refused, since both would play and record the same games), then
// creates replays/ and logs/ and removes what killed runs leave behind
// (replays.WriteFile's hidden temporary files, ".NAME.tmp-*"; no other
// run can be writing them while the lock is held). The caller unlocks
// when the run ends. warn (nil: none) receives a line for a stale lock
// and for the files removed.
func PrepareOut(dir string, warn io.Writer) (*outdir.Lock, error) {
	if warn == nil {
		warn = io.Discard
	}
	lock, err := outdir.Acquire(dir)
	if err != nil {
		return nil, err
	}
	if text := lock.StaleText(); text != "" {
		fmt.Fprintf(warn, "arena: warning: %s\n", text)
	}
	for _, d := range []string{filepath.Join(dir, "replays"), filepath.Join(dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			lock.Unlock()
			return nil, fmt.Errorf("output directory: %w", err)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "replays", ".*"+replays.Ext+".tmp-*"))
	removed := 0
	for _, path := range leftovers {
		if err := os.Remove(path); err == nil {
			removed++
		}
	}
	if removed > 0 {
		fmt.Fprintf(warn, "arena: warning: %s: removed %d unfinished replay file(s) (.*.tmp-*) of an interrupted run; those games were not recorded\n",
			filepath.Join(dir, "replays"), removed)
	}
	return lock, nil
}
