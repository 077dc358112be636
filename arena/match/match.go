// Package match plays a series of games between the same bots: it keeps
// bot processes alive across games, rotates seats over one deal so seat and
// card luck cancel, and records results.jsonl, replays and per-game stderr
// logs. No process sees a deal twice: a bot has one process per game of a
// rotation block, each playing one game of every block (see Pool); a
// process is replaced only after it failed.
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/engine"
)

// Bot is a bot program.
type Bot struct {
	Name string
	// Argv is the command, already split; no shell is involved.
	Argv []string
	// Dir is its working directory ("" = the arena's, or with a Sandbox a
	// fresh one per process).
	Dir string
	// Env are variables added to its environment: to the arena's own, or
	// with a Sandbox to the scrubbed one.
	Env []string
	// Sandbox, if set, confines every process of the bot.
	Sandbox *sandbox.Sandbox
}

// Config describes a match.
type Config struct {
	Game    engine.Game
	Options engine.Options // resolved
	// Games to play; consecutive games replay one deal with seats rotated.
	Games int
	// Seed is the match seed; the deals follow from it and Secret.
	Seed uint64
	// Secret keys the deals (deal.Secret.Seed), so that knowing Seed
	// tells a bot nothing about them. Nil: OutDir's (deal.InDir), or a
	// fresh one, kept in memory only without OutDir. A given one must
	// match OutDir's, if OutDir has one.
	Secret     *deal.Secret
	MatchID    string
	Limits     clock.Limits
	Policy     referee.Policy
	MaxStrikes int
	// OutDir receives results.jsonl, replays/ and logs/; "" keeps nothing.
	OutDir    string
	MaxLine   int
	StderrCap int64
	// ByeGrace is how long a bot may take to exit after bye.
	ByeGrace time.Duration
	// Version is the arena version written into replays.
	Version string
	// OnGame is called after each game (progress output).
	OnGame func(GameRecord)
	// Warn (nil: none) receives warning lines: a stale lock on OutDir,
	// leftovers of a killed run removed, stderr logs lost (each, and the
	// count at the end).
	Warn io.Writer
	// FreshDeals deals new cards for every game instead of replaying a
	// deal over a rotation block: less luck cancels. What a bot process
	// remembers cannot leak a deal either way (the pool never gives a
	// process a deal it has played); FreshDeals also stops what the pool
	// cannot: a bot's processes passing a deal on over the network, or,
	// when bots are not isolated, through files or a finished game's
	// replay (docs/security.md). A bot then needs one process, not one
	// per seat.
	FreshDeals bool
	// RestartBots starts fresh bot processes (each in a fresh sandbox
	// directory) for every game, also between different deals, where the
	// pool would keep them: neither memory nor the bot's own directory
	// carries over from one game to the next.
	RestartBots bool
}

// SeatFailure is a forfeit or strike as written to results.jsonl.
type SeatFailure struct {
	Seat   int    `json:"seat"`
	Bot    string `json:"bot"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
	// StderrLast is, for a forfeit, the last line the bot wrote to stderr
	// during the game ("" if nothing): what a crash said, such as the
	// last line of a Python traceback, which the detail ("exited with
	// status 1") does not. For progress output only: Log has it all, and
	// results.jsonl and the replay keep the detail.
	StderrLast string `json:"-"`
	// Log is the game's stderr log of the bot ("" without an output
	// directory), for progress output.
	Log string `json:"-"`
}

// Hint says what usually causes a failure of f's kind, for the bot's
// author, or "": a ready that never arrives was most often written but
// not flushed (arena check words it the same way).
func (f SeatFailure) Hint() string {
	if f.Reason == string(referee.Startup) {
		return `answer hello with {"type":"ready"} and flush stdout`
	}
	return ""
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

// LogPath is where a bot's stderr of one game is kept in an output
// directory.
func LogPath(outDir, bot, gameID string) string {
	return filepath.Join(outDir, "logs", bot, gameID+".stderr.log")
}

// GameRecord is one line of results.jsonl.
type GameRecord struct {
	Index    int           `json:"index"`
	GameID   string        `json:"game_id"`
	Round    int           `json:"round,omitempty"`
	Seed     uint64        `json:"seed"`
	Bots     []string      `json:"bots"`
	Ranks    []int         `json:"ranks"`
	Scores   []float64     `json:"scores"`
	Reason   string        `json:"reason"`
	Plies    int           `json:"plies"`
	Forfeits []SeatFailure `json:"forfeits"`
	Strikes  []SeatFailure `json:"strikes,omitempty"`
	Replay   string        `json:"replay,omitempty"`
}

// NewMatchID names a run: prefix, the UTC start time to the second (so ids
// read and sort by when they started) and 8 random hex digits, so that two
// runs started in the same second, here or on another machine, do not
// share ids (and so game ids and replay file names).
func NewMatchID(prefix string) string {
	return fmt.Sprintf("%s-%s-%08x", prefix, time.Now().UTC().Format("20060102-150405"), rand.Uint32())
}

// LostLogsText is the end-of-run line about stderr logs that could not be
// written (Pool.LogCounts).
func LostLogsText(logs, lost int) string {
	return fmt.Sprintf("%d of %d stderr logs lost or incomplete (see the warnings above; a full disk?): the games are recorded all the same", lost, logs)
}

// Rotation is how many games make one full seat rotation.
func Rotation(seats int) int { return seats }

// SeatOf returns which bot (index into the bot list) sits in seat for
// game index g: each block of Rotation games deals the same seed and
// shifts every bot one seat along.
func SeatOf(g, seat, seats int) int { return (seat + g) % seats }

// gameSeed is game g's deal: its rotation block's, or its own with
// FreshDeals.
func (cfg Config) gameSeed(g, seats int) uint64 {
	if cfg.FreshDeals {
		return cfg.Secret.Seed(cfg.Seed, "fresh", uint64(g))
	}
	return GameSeed(cfg.Secret, cfg.Seed, g, seats)
}

// GameSeed is the deal seed of game index g, shared by a rotation block.
// It is keyed with the run's secret, so the match seed alone does not
// tell it, and nothing a bot sees leads back to either.
func GameSeed(secret *deal.Secret, matchSeed uint64, g, seats int) uint64 {
	return secret.Seed(matchSeed, "game", uint64(g/Rotation(seats)))
}

// DealSecret is the secret a run deals with: given or the output
// directory's (deal.InDir, which stores a new one there before the first
// game), or a fresh one kept in memory when there is no directory.
func DealSecret(given *deal.Secret, outDir string) (*deal.Secret, error) {
	if outDir != "" {
		return deal.InDir(outDir, given)
	}
	if given != nil {
		return given, nil
	}
	return deal.New(), nil
}

// Run plays the match: bot processes are kept across games (one per game
// of a rotation block, so none plays a deal twice) and replaced only
// after a failure. Bot failures are
// results, not errors; an error means the arena itself could not go on
// (disk full, broken engine, interrupted), and the games already recorded
// stay on disk.
func Run(ctx context.Context, cfg Config, bots []Bot) (*Summary, error) {
	n := len(bots)
	if cfg.MatchID == "" {
		// Not derived from the seed: the match id is sent to bots.
		cfg.MatchID = NewMatchID(cfg.Game.Info().Name)
	}
	warn := cfg.Warn
	if warn == nil {
		warn = io.Discard
	}
	if cfg.ByeGrace <= 0 {
		cfg.ByeGrace = time.Second
	}
	sum := newSummary(cfg, bots)
	if cfg.OutDir != "" {
		// Held until the very end (deferred first, so released last):
		// until every bot is gone and every log is written.
		lock, err := PrepareOut(cfg.OutDir, warn)
		if err != nil {
			return sum, err
		}
		defer lock.Unlock()
	}
	pool := NewPool(bots, cfg.MaxLine, cfg.StderrCap)
	pool.KeepIdle = Rotation(n) // one process per game of a block: no restarts
	pool.OnLogLost = func(err error) { fmt.Fprintf(warn, "arena: warning: %v\n", err) }
	defer func() { // runs after KillAll below: every log is closed by then
		if logs, lost := pool.LogCounts(); lost > 0 {
			fmt.Fprintf(warn, "arena: warning: %s\n", LostLogsText(logs, lost))
		}
	}()
	defer pool.KillAll()
	env := &Env{Game: cfg.Game, Options: cfg.Options, Match: cfg.MatchID, Limits: cfg.Limits, Policy: cfg.Policy,
		MaxStrikes: cfg.MaxStrikes, OutDir: cfg.OutDir, Version: cfg.Version, Bots: bots, Pool: pool, RestartBots: cfg.RestartBots}
	var results *ledger.Writer
	if cfg.OutDir != "" {
		w, err := ledger.Open(filepath.Join(cfg.OutDir, ledger.FileName))
		if err != nil {
			return sum, err
		}
		defer w.Close()
		results = w
	}
	secret, err := DealSecret(cfg.Secret, cfg.OutDir) // stored before the first game
	if err != nil {
		return sum, err
	}
	cfg.Secret = secret
	// An interrupt kills the bots at once; the game in progress is then
	// discarded, and every finished game stays recorded.
	stopWatch := context.AfterFunc(ctx, pool.KillAll)
	defer stopWatch()
	for g := 0; g < cfg.Games; g++ {
		if err := ctx.Err(); err != nil {
			return sum, fmt.Errorf("match interrupted after %d of %d games: %w", g, cfg.Games, err)
		}
		seats := make([]int, n)
		for s := range n {
			seats[s] = SeatOf(g, s, n)
		}
		rec, err := env.Play(ctx, Table{Index: g, GameID: fmt.Sprintf("%s-g%04d", cfg.MatchID, g), Seed: cfg.gameSeed(g, n), Seats: seats})
		if errors.Is(err, errInterrupted) {
			return sum, fmt.Errorf("match interrupted during game %d (not recorded; %d games are): %w", g+1, g, ctx.Err())
		}
		if err != nil {
			return sum, fmt.Errorf("game %d: %w", g, err)
		}
		if results != nil {
			if err := results.Append(rec); err != nil {
				return sum, err
			}
		}
		sum.add(rec)
		if cfg.OnGame != nil {
			cfg.OnGame(rec)
		}
	}
	pool.Shutdown(cfg.ByeGrace)
	return sum, nil
}
