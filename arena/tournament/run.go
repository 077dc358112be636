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
	"slices"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
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
	Last     ledger.Record
	Summary  *match.Summary
	// Stage is, for elimination formats, the round in play ("round 2 (w2) 1 of 4
	// matches decided"); "" for the others, which show a leader instead.
	Stage string
	// LostLogs counts the stderr logs that could not be written.
	LostLogs int
	// Suspended are the bots the last game's result suspended, if any:
	// their remaining games are forfeits (Config.Absent).
	Suspended []run.Suspension
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
	// Executor, if set, makes the executor that plays the games (a
	// distributed run's coordinator, arena/cluster) from the run's
	// configuration; nil: they are played here.
	Executor func(run.Config) (run.Executor, error)
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
	// Held until the very end: until every bot is gone and every log is
	// written (run.Run returns after).
	var led *Ledger
	plan, err := runplan.OpenDir(runplan.Dir{Out: out, Warn: opt.Warn,
		Held: func() (err error) {
			if err := saveConfig(c, out); err != nil {
				return err
			}
			// Read as standings read it: what does not count here does
			// not count there.
			ledgerPath := filepath.Join(out, ledger.FileName)
			if led, err = c.ReadLedger(ledgerPath); err != nil {
				return err
			}
			if led.Torn != nil {
				fmt.Fprintf(opt.Warn, "arena: warning: %s: %s\n", ledgerPath, led.Torn)
			}
			for _, p := range append(led.Edited, led.Problems...) {
				fmt.Fprintf(opt.Warn, "arena: warning: %v\n", p)
			}
			return nil
		},
		Deal: func() (*deal.Secret, error) { return c.dealSecret(out, led) },
	})
	if err != nil {
		return sum, err
	}
	defer plan.Close()
	secret, files := plan.Secret, plan.Sink
	// Pointers into the ledger's records, not copies: a resume of a long
	// tournament holds each recorded game once.
	finished := make(map[string]*ledger.Record, len(led.Records))
	for i := range led.Records {
		finished[led.Records[i].GameID] = &led.Records[i]
	}
	// Games played here only: an executor plays them elsewhere (a
	// distributed run's workers; its local ones are warned of by whoever
	// starts them).
	if w := run.LoadWarning(c.Concurrency, c.Seats); w != "" && opt.Executor == nil {
		fmt.Fprintf(opt.Warn, "arena: warning: %s\n", w)
	}
	sched, err := c.NewScheduler()
	if err != nil {
		return sum, err
	}
	src := &games{c: c, out: out, sched: sched, secret: secret, finished: finished, sum: sum}
	if !c.Until.IsZero() {
		src.until = newCycles(c, led.Records)
	}
	// Bots the caller left unbound take their scheme's default (a
	// program unconfined); a remote one without its connection is a
	// *bot.UnboundError.
	specs := slices.Clone(c.Bots)
	if err := bot.Bind(specs, nil); err != nil {
		return sum, err
	}
	progress := Progress{Total: sched.Total(), Summary: sum}
	rc := run.Config{
		Settings: c.Settings, Game: c.Game, Options: c.Options, MatchID: c.Name, RunKey: secret.Fingerprint(), Version: opt.Version,
		Bots: specs, Concurrency: c.Concurrency,
		Rotation: c.Seats, // the games of a rotation share a deal
		// After an interrupt, running games get AbandonAfter to finish
		// (and are recorded if they do); then their bots are closed and
		// those games are left for the resume.
		AbandonAfter: opt.AbandonAfter,
		Warn:         opt.Warn,
		Absent:       c.Absent,
		OnSuspend:    func(s run.Suspension) error { return c.suspend(s, out) },
		OnGame: func(p run.Progress) {
			progress.Done, progress.Resumed, progress.InFlight, progress.Elapsed = p.Done, p.Resumed, p.InFlight, p.Elapsed
			progress.Last, progress.LostLogs, progress.Suspended = p.Last, p.LostLogs, p.Suspended
			progress.Stage, progress.Estimate = schedule.StageOf(sched, p.Done)
			if opt.OnGame != nil {
				opt.OnGame(progress)
			}
		},
	}
	if opt.Executor != nil {
		if rc.Executor, err = opt.Executor(rc); err != nil {
			return sum, err
		}
	}
	res, err := run.Run(ctx, rc, src, nil, files)
	var ge *run.GameError
	switch {
	case errors.Is(err, run.ErrInterrupted):
		return sum, fmt.Errorf("%w (%w) after %d games", ErrInterrupted, context.Cause(ctx), res.Done)
	case errors.Is(err, run.ErrStalled):
		return sum, fmt.Errorf("the %s schedule is waiting for results but no game is running", c.Format)
	case errors.As(err, &ge):
		return sum, fmt.Errorf("game %s: %w", ge.Table.ID, ge.Err)
	}
	return sum, err
}

// suspend records in out's tournament.json that s's bot is suspended,
// before any game is played without it: a resume keeps it out.
func (c *Config) suspend(s run.Suspension, out string) error {
	if c.File.Suspended == nil {
		c.File.Suspended = map[string]string{}
	}
	c.File.Suspended[s.Name] = s.Why
	if c.Absent == nil {
		c.Absent = map[int]string{}
	}
	c.Absent[s.Bot] = s.Why
	if err := saveConfig(c, out); err != nil {
		return fmt.Errorf("recording that bot %s is suspended: %w", s.Name, err)
	}
	return nil
}

// games is a tournament's Source: its scheduler's games as tables, those
// the ledger already holds handed out as recorded.
type games struct {
	c        *Config
	out      string
	sched    schedule.Scheduler
	secret   *deal.Secret
	finished map[string]*ledger.Record // recorded before this run, by game id
	sum      *match.Summary
	index    int // tables played so far
	// until (nil: no stop rule) holds each cycle's games back until
	// the last one's are counted, and ends the run where a cycle ends
	// decided.
	until *cycles
}

func (s *games) Next() (run.Table, schedule.Status) {
	var g schedule.Game
	var status schedule.Status
	if s.until != nil {
		g, status = s.until.next(s.sched)
	} else {
		g, status = s.sched.Next()
	}
	if status != schedule.Ready {
		return run.Table{}, status
	}
	gameID := s.c.Name + "-" + g.ID
	if r, ok := s.finished[gameID]; ok {
		return run.Table{Game: g, GameID: gameID, Recorded: r}, schedule.Ready
	}
	t := run.Table{Game: g, Index: s.index, GameID: gameID, Seed: s.c.dealSeed(s.secret, g)}
	s.index++
	return t, schedule.Ready
}

func (s *games) Result(t run.Table, rec ledger.Record) error {
	s.sched.Result(t.Game, rec.Ranks)
	if s.until != nil {
		s.until.result(rec, t.Recorded != nil)
	}
	s.sum.Add(rec)
	if t.Recorded != nil {
		return nil // the bracket file is written as new results come in
	}
	if err := writeBracket(s.out, s.sched); err != nil {
		return fmt.Errorf("writing %s: %w", BracketFile, err)
	}
	return nil
}

// dealSeed is the seed of game g's deal (g.Deal), keyed with the run's
// secret: the tournament seed alone does not tell it, and nothing a bot
// sees leads back to either. With fresh_deals every game gets a deal of
// its own, named by its id; with share_deals encounter the games of an
// encounter that share g.Deal share a deal, named by the encounter too;
// by cycle every game of the same g.Deal does.
func (c *Config) dealSeed(secret *deal.Secret, g schedule.Game) uint64 {
	switch {
	case c.File.FreshDeals:
		h := fnv.New64a()
		h.Write([]byte(g.ID))
		return secret.Seed(c.Seed, "fresh", h.Sum64())
	case c.File.ShareDeals == ShareEncounter:
		return secret.Seed(c.Seed, "encounter/"+g.Encounter(), g.Deal)
	}
	return secret.Seed(c.Seed, "deal", g.Deal)
}

// dealSecret is the secret the tournament in out deals with: c.Secret if
// given (it must be the one out holds, if any), else the one out holds
// (deal.FileName), else, before any game is recorded, a fresh one stored
// there. Whichever it is must deal every recorded game as it was dealt,
// or the rest of a duplicate deal would be other cards: a resume whose
// secret is lost, damaged or another fails and changes nothing.
func (c *Config) dealSecret(out string, led *Ledger) (*deal.Secret, error) {
	if c.Secret != nil {
		// Checked before it is stored: a wrong secret must not take the
		// place of a lost one.
		if err := c.checkSecret(c.Secret, led); err != nil {
			return nil, fmt.Errorf("%s: %w", c.secretName(), err)
		}
		secret, err := deal.InDir(out, c.Secret)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.secretName(), err)
		}
		return secret, nil
	}
	if len(led.Records) == 0 {
		return deal.InDir(out, nil)
	}
	path := filepath.Join(out, deal.FileName)
	secret, err := deal.Read(path)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w; the %d games recorded are kept, but without the secret they were dealt with "+
			"the rest of their deals cannot be reproduced: restore the file, or give a copy of it with --deal-secret (a tournament file's deal_secret)", out, err, len(led.Records))
	}
	if err := c.checkSecret(secret, led); err != nil {
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

// checkSecret: secret deals every game counted in led with the seed
// recorded (each paired with its game of the schedule by ReadLedger).
func (c *Config) checkSecret(secret *deal.Secret, led *Ledger) error {
	for i, r := range led.Records {
		if got := c.dealSeed(secret, led.Games[i]); got != r.Seed {
			return fmt.Errorf("%w than the one its games were dealt with (game %s was dealt seed %d; this secret deals it %d)",
				deal.ErrMismatch, r.GameID, r.Seed, got)
		}
	}
	return nil
}
