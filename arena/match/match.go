// Package match plays a series of games between the same bots: it keeps
// bot processes alive across games, rotates seats over one deal so seat and
// card luck cancel, and records results.jsonl, replays and per-game stderr
// logs. No process sees a deal twice: a bot has one process per game of a
// rotation block, each playing one game of every block (see pool.Pool); a
// process is replaced only after it failed. It is one configuration of
// the runner (arena/run): a fixed list of games, no stop rule.
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/engine"
)

// Config describes a match.
type Config struct {
	// Settings are the clocks, the failure policy, the bounds on bots
	// and how their processes are kept (run.Settings; FreshDeals deals
	// every game its own cards instead of replaying one deal over a
	// rotation block: less luck cancels, but a bot then needs one
	// process, not one per seat, and its processes cannot pass a deal
	// on to each other: docs/security.md).
	run.Settings
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
	Secret  *deal.Secret
	MatchID string
	// OutDir receives results.jsonl, replays/ and logs/; "" keeps nothing.
	OutDir string
	// Version is the arena version written into replays.
	Version string
	// OnGame is called after each game (progress output).
	OnGame func(ledger.Record)
	// Concurrency is how many games run at once (< 1: 1, one after
	// another).
	Concurrency int
	// Executor, if set, makes the executor that plays the games (a
	// distributed run's coordinator, arena/cluster) from the run's
	// configuration; nil: they are played here.
	Executor func(run.Config) (run.Executor, error)
	// Warn (nil: none) receives warning lines: a stale lock on OutDir,
	// leftovers of a killed run removed, stderr logs lost (each, and the
	// count at the end).
	Warn io.Writer
}

// Rotation is how many games make one full seat rotation.
func Rotation(seats int) int { return seats }

// Uneven says whether cfg's games of seats rotate the seats unevenly:
// one deal replayed (no FreshDeals) over a part of a rotation.
func (cfg Config) Uneven(seats int) bool { return !cfg.FreshDeals && cfg.Games%Rotation(seats) != 0 }

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

// sameKind reports whether id is the id of a game a match of cfg would
// play: a game (its number after the last "-g", as Next names it) of a
// match of the same game, or of the same match id.
func sameKind(id string, cfg Config) bool {
	at := strings.LastIndex(id, "-g")
	return at >= 0 && (run.IsMatchID(id[:at], cfg.Game.Info().Name) || id[:at] == cfg.MatchID)
}

// Run plays the match: bot processes are kept across games (one per game
// of a rotation block, so none plays a deal twice) and replaced only
// after a failure. Bot failures are results, not errors; an error means
// the arena itself could not go on (disk full, broken engine,
// interrupted), and the games already recorded stay on disk.
func Run(ctx context.Context, cfg Config, bots []bot.Spec) (*Summary, error) {
	n := len(bots)
	if cfg.MatchID == "" {
		// Not derived from the seed: the match id is sent to bots.
		cfg.MatchID = run.NewMatchID(cfg.Game.Info().Name)
	}
	sum := newSummary(cfg, bots)
	// Another match of the same game adds to what the directory holds
	// (it deals with its secret); anything else would mix.
	plan, err := runplan.OpenDir(runplan.Dir{Out: cfg.OutDir, Warn: cfg.Warn, Secret: cfg.Secret,
		Run: "this match of " + cfg.Game.Info().Name, Ours: func(id string) bool { return sameKind(id, cfg) }})
	if err != nil {
		return sum, err
	}
	// Held until the very end: until every bot is gone and every log is
	// written (run.Run returns after).
	defer plan.Close()
	cfg.Secret = plan.Secret
	games := &games{cfg: cfg, seats: n, sum: sum}
	rc := run.Config{
		Settings: cfg.Settings, Game: cfg.Game, Options: cfg.Options, MatchID: cfg.MatchID, Version: cfg.Version,
		Bots: bots, Rotation: Rotation(n), // the games of a block share a deal
		Concurrency: cfg.Concurrency, Warn: cfg.Warn,
		OnSuspend: func(s run.Suspension) error {
			if cfg.Warn != nil {
				fmt.Fprintf(cfg.Warn, "arena: %s\n", s)
			}
			return nil
		},
	}
	if cfg.Executor != nil {
		if rc.Executor, err = cfg.Executor(rc); err != nil {
			return sum, err
		}
	}
	res, err := run.Run(ctx, rc, games, nil, plan.Sink)
	var ge *run.GameError
	switch {
	case errors.Is(err, run.ErrInterrupted) && res.Abandoned > 0:
		return sum, fmt.Errorf("match interrupted (%w) during game %d (not recorded; %d games are)", context.Cause(ctx), res.Done+1, res.Done)
	case errors.Is(err, run.ErrInterrupted):
		return sum, fmt.Errorf("match interrupted (%w) after %d of %d games", context.Cause(ctx), res.Done, cfg.Games)
	case errors.As(err, &ge):
		return sum, fmt.Errorf("game %d: %w", ge.Table.Index, ge.Err)
	}
	return sum, err
}

// games is a match's Source: Games tables, seats rotating.
type games struct {
	cfg   Config
	seats int
	next  int
	sum   *Summary
}

func (g *games) Next() (run.Table, schedule.Status) {
	if g.next >= g.cfg.Games {
		return run.Table{}, schedule.Done
	}
	i := g.next
	g.next++
	seats := make([]int, g.seats)
	for s := range seats {
		seats[s] = SeatOf(i, s, g.seats)
	}
	return run.Table{Game: schedule.Game{Seats: seats}, Index: i, GameID: fmt.Sprintf("%s-g%04d", g.cfg.MatchID, i), Seed: g.cfg.gameSeed(i, g.seats)}, schedule.Ready
}

func (g *games) Result(_ run.Table, rec ledger.Record) error {
	g.sum.add(rec)
	if g.cfg.OnGame != nil {
		g.cfg.OnGame(rec)
	}
	return nil
}
