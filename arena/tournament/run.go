// Package tournament runs a tournament: a schedule of games between many
// bots, played in parallel, recorded game by game so a stopped run can be
// resumed without replaying or losing anything.
package tournament

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"path/filepath"
	"runtime"
	"time"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/schedule"
)

// Progress is reported after every finished game.
type Progress struct {
	Done, Total int // Total is -1 when unknown
	// Estimate, when Total is unknown (elimination brackets), is Done plus
	// the games the open encounters still plan; ties may add more.
	Estimate int
	Resumed  int // games found already finished in the ledger
	InFlight int
	Elapsed  time.Duration
	Last     match.GameRecord
	Summary  *match.Summary
	// Stage is, for elimination formats, the round in play ("round 2 (w2) 1 of 4
	// matches decided"); "" for the others, which show a leader instead.
	Stage string
	// LostLogs counts the stderr logs that could not be written.
	LostLogs int
}

// Options tune a run.
type Options struct {
	Version string
	// OnGame is called after each game finishes and is recorded.
	OnGame func(Progress)
	// Warn receives warnings (torn ledger line, unfair concurrency).
	Warn io.Writer
	// AbandonAfter is how long running games may go on after an interrupt
	// before their bots are killed (default 5s).
	AbandonAfter time.Duration
}

// ErrInterrupted wraps the error of a run stopped by its context.
var ErrInterrupted = errors.New("tournament interrupted")

// Run plays the tournament into out, resuming whatever the ledger there
// already holds. It returns the standings so far even on error.
func Run(ctx context.Context, c *Config, out string, opt Options) (*match.Summary, error) {
	if opt.Warn == nil {
		opt.Warn = io.Discard
	}
	if opt.AbandonAfter == 0 {
		opt.AbandonAfter = 5 * time.Second
	}
	names := make([]string, len(c.Bots))
	for i, b := range c.Bots {
		names[i] = b.Name
	}
	sum := match.NewSummary(names)
	sum.Game, sum.Seed, sum.Out = c.Game.Info().Name, c.Seed, out
	// Held until the very end (deferred first, so released last): until
	// every bot is gone and every log is written.
	lock, err := match.PrepareOut(out, opt.Warn)
	if err != nil {
		return sum, err
	}
	defer lock.Unlock()
	if err := saveConfig(c, out); err != nil {
		return sum, err
	}
	ledgerPath := filepath.Join(out, ledger.FileName)
	// Read as standings read it: what does not count here does not
	// count there.
	led, err := c.ReadLedger(ledgerPath)
	if err != nil {
		return sum, err
	}
	if led.Torn != nil {
		fmt.Fprintf(opt.Warn, "arena: warning: %s: %s\n", ledgerPath, led.Torn)
	}
	for _, p := range led.Problems {
		fmt.Fprintf(opt.Warn, "arena: warning: %v\n", p)
	}
	records := led.Records
	secret, err := c.dealSecret(out, records)
	if err != nil {
		return sum, err
	}
	finished := map[string]match.GameRecord{}
	for _, r := range records {
		finished[r.GameID] = r
	}
	w, err := ledger.Open(ledgerPath)
	if err != nil {
		return sum, err
	}
	defer w.Close()
	// Bots may think on their opponents' turns too, so every seat of every
	// running game may want a core. At concurrency 1 there is nothing to
	// lower, so no warning.
	if cores := runtime.NumCPU(); c.Concurrency > 1 && c.Concurrency*c.Seats > cores {
		fmt.Fprintf(opt.Warn, "arena: warning: concurrency %d x %d seats = up to %d bot processes busy at once on %d cores: clocks are not fair under that load (try --concurrency %d)\n",
			c.Concurrency, c.Seats, c.Concurrency*c.Seats, cores, max(1, cores/c.Seats))
	}
	sched, err := c.NewScheduler()
	if err != nil {
		return sum, err
	}
	pool := match.NewPool(c.Bots, c.MaxLine, c.StderrCap)
	pool.KeepIdle = c.Seats // the games of a rotation share a deal
	pool.OnLogLost = func(err error) { fmt.Fprintf(opt.Warn, "arena: warning: %v\n", err) }
	defer func() { // runs after KillAll below: every log is closed by then
		if logs, lost := pool.LogCounts(); lost > 0 {
			fmt.Fprintf(opt.Warn, "arena: warning: %s\n", match.LostLogsText(logs, lost))
		}
	}()
	defer pool.KillAll()
	env := &match.Env{Game: c.Game, Options: c.Options, Match: c.Name, Limits: c.Limits, Policy: c.Policy,
		MaxStrikes: c.MaxStrikes, OutDir: out, Version: opt.Version, Bots: c.Bots, Pool: pool, RestartBots: c.File.RestartBots}

	// After an interrupt, running games get AbandonAfter to finish; then
	// their bots are killed and those games are left for the resume.
	stopWatch := context.AfterFunc(ctx, func() {
		time.AfterFunc(opt.AbandonAfter, pool.KillAll)
	})
	defer stopWatch()

	type done struct {
		g   schedule.Game
		rec match.GameRecord
		err error
	}
	results := make(chan done)
	start := time.Now()
	inFlight, index := 0, 0
	progress := Progress{Total: sched.Total(), Summary: sum}
	var runErr error
	for {
		// Start games while there is room, the schedule has some, and no
		// interrupt or failure stopped the run.
		status := schedule.Ready
		for inFlight < c.Concurrency && ctx.Err() == nil && runErr == nil {
			var g schedule.Game
			g, status = sched.Next()
			if status != schedule.Ready {
				break
			}
			gameID := c.Name + "-" + g.ID
			if r, ok := finished[gameID]; ok {
				sched.Result(g, r.Ranks)
				sum.Add(r)
				progress.Done++
				progress.Resumed++
				continue
			}
			table := match.Table{Index: index, GameID: gameID, Round: g.Round, Seed: c.dealSeed(secret, g), Seats: g.Seats}
			index++
			inFlight++
			go func() {
				rec, err := env.Play(ctx, table)
				results <- done{g, rec, err}
			}()
		}
		if inFlight == 0 {
			switch {
			case runErr != nil:
				return sum, runErr
			case ctx.Err() != nil:
				return sum, fmt.Errorf("%w after %d games: %w", ErrInterrupted, progress.Done, ctx.Err())
			case status == schedule.Done:
				pool.Shutdown(time.Second)
				return sum, nil
			default:
				return sum, fmt.Errorf("the %s schedule is waiting for results but no game is running", c.Format)
			}
		}
		d := <-results
		inFlight--
		if d.err != nil {
			if ctx.Err() == nil && runErr == nil {
				runErr = fmt.Errorf("game %s: %w", d.g.ID, d.err)
			}
			continue // an interrupted game is played again on resume
		}
		// The replay is in place (Play wrote it); now the ledger line makes
		// the game count.
		d.rec.Index = progress.Done
		if err := w.Append(d.rec); err != nil {
			runErr = err
			continue
		}
		sched.Result(d.g, d.rec.Ranks)
		if err := writeBracket(out, sched); err != nil {
			runErr = fmt.Errorf("writing %s: %w", BracketFile, err)
		}
		sum.Add(d.rec)
		progress.Done++
		progress.InFlight = inFlight
		progress.Elapsed = time.Since(start)
		progress.Last = d.rec
		progress.Stage, progress.Estimate = stageOf(sched, c.Schedule.GamesPerEncounter, progress.Done)
		_, progress.LostLogs = pool.LogCounts()
		if opt.OnGame != nil {
			opt.OnGame(progress)
		}
	}
}

// dealSeed is the seed of game g's deal (g.Deal), keyed with the run's
// secret: the tournament seed alone does not tell it, and nothing a bot
// sees leads back to either. With fresh_deals every game gets a deal of
// its own, named by its id.
func (c *Config) dealSeed(secret *deal.Secret, g schedule.Game) uint64 {
	if c.File.FreshDeals {
		h := fnv.New64a()
		h.Write([]byte(g.ID))
		return secret.Seed(c.Seed, "fresh", h.Sum64())
	}
	return secret.Seed(c.Seed, "deal", g.Deal)
}

// dealSecret is the secret the tournament in out deals with: c.Secret if
// given (it must be the one out holds, if any), else the one out holds
// (deal.FileName), else, before any game is recorded, a fresh one stored
// there. Whichever it is must deal every recorded game as it was dealt,
// or the rest of a duplicate deal would be other cards: a resume whose
// secret is lost, damaged or another fails and changes nothing.
func (c *Config) dealSecret(out string, records []match.GameRecord) (*deal.Secret, error) {
	if c.Secret != nil {
		// Checked before it is stored: a wrong secret must not take the
		// place of a lost one.
		if err := c.checkSecret(c.Secret, records); err != nil {
			return nil, fmt.Errorf("%s: %w", c.secretName(), err)
		}
		secret, err := deal.InDir(out, c.Secret)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.secretName(), err)
		}
		return secret, nil
	}
	if len(records) == 0 {
		return deal.InDir(out, nil)
	}
	path := filepath.Join(out, deal.FileName)
	secret, err := deal.Read(path)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w; the %d games recorded are kept, but without the secret they were dealt with "+
			"the rest of their deals cannot be reproduced: restore the file, or give a copy of it with --deal-secret (a tournament file's deal_secret)", out, err, len(records))
	}
	if err := c.checkSecret(secret, records); err != nil {
		return nil, fmt.Errorf("cannot resume %s: %s: %w", out, path, err)
	}
	return secret, nil
}

// secretName names c.Secret in messages.
func (c *Config) secretName() string {
	if c.SecretFile != "" {
		return "deal secret " + c.SecretFile
	}
	return c.Secret.String()
}

// checkSecret: secret deals every recorded game with the seed recorded.
func (c *Config) checkSecret(secret *deal.Secret, records []match.GameRecord) error {
	if len(records) == 0 {
		return nil
	}
	_, err := c.replay(records, func(g schedule.Game, r match.GameRecord) error {
		if got := c.dealSeed(secret, g); got != r.Seed {
			return fmt.Errorf("%w than the one its games were dealt with (game %s was dealt seed %d; this secret deals it %d)",
				deal.ErrMismatch, r.GameID, r.Seed, got)
		}
		return nil
	})
	return err
}
