package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/urfave/cli/v2"
)

// Plan is what a tournament run is about: its settings, where they came
// from and where it writes.
type Plan struct {
	File File
	// Src names where the settings came from in messages: the file, the
	// saved copy in an output directory, or "flags".
	Src string
	// BaseDir is where a file's relative paths start.
	BaseDir string
	// Out is the output directory.
	Out string
	// Withdraw and Readmit name bots to take out of the tournament, and
	// to let play again (withdrawn or suspended ones): --withdraw and
	// --readmit, applied by Settle.
	Withdraw, Readmit []string
	// Notes say, for people, what Settle changed of who plays ("bot
	// sleeper withdrawn: its remaining games are forfeits").
	Notes []string
}

// ErrNothingToResume is Settle's error when resume is asked for and the
// output directory holds no tournament.
var ErrNothingToResume = errors.New("no tournament to resume")

// Locate finds the tournament a run is given. arg is a tournament file,
// an earlier run's output directory (resumed there unless out is set), or
// "": then the settings come from overrides alone, unless out holds a
// saved tournament and gameGiven is false (`run --out DIR`: resume it).
func Locate(arg, out string, gameGiven bool) (*Plan, error) {
	p := &Plan{Src: "flags", BaseDir: ".", Out: out}
	resumeFrom := ""
	if arg != "" {
		st, err := os.Stat(arg)
		switch {
		case err != nil:
			return nil, err
		case st.IsDir():
			resumeFrom = arg
			if p.Out == "" {
				p.Out = arg
			}
		default:
			loaded, err := LoadFile(arg)
			if err != nil {
				return nil, err
			}
			p.File, p.Src, p.BaseDir = *loaded, arg, filepath.Dir(arg)
		}
	} else if p.Out != "" && !gameGiven {
		if _, err := LoadSaved(p.Out); err == nil || errors.Is(err, ErrEdited) {
			resumeFrom = p.Out
		}
	}
	if resumeFrom != "" {
		saved, err := LoadSaved(resumeFrom)
		if err != nil {
			return nil, err
		}
		p.File, p.Src = *saved, filepath.Join(resumeFrom, SavedConfig)
	}
	return p, nil
}

// Settle picks the output directory once the overrides are laid over the
// file (out/NAME unless given) and, when it holds this tournament
// already, takes the seed saved there: the same command again resumes
// it, where a new random seed would make it another tournament. It also
// takes who plays from there: the bots withdrawn and suspended, and bots
// removed from the file since are withdrawn (File.inheritRoster); then
// Withdraw and Readmit are applied. With resume it insists there is one
// to resume.
func (p *Plan) Settle(resume bool) error {
	if p.Out == "" {
		if p.File.Name == "" {
			return errors.New("give the tournament a name (--name or the file's name field) or an --out directory")
		}
		p.Out = filepath.Join("out", p.File.Name)
	}
	saved, err := LoadSaved(p.Out)
	var removed []string
	switch {
	case err == nil:
		p.File.InheritDeals(saved)
		removed = p.File.inheritRoster(saved, &p.Notes)
	case resume:
		if errors.Is(err, ErrEdited) {
			return err
		}
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("--resume: %w in %s (it has no %s); give the tournament's output directory with --out or as DIR", ErrNothingToResume, p.Out, SavedConfig)
		}
		return fmt.Errorf("--resume: %w", err)
	}
	return p.File.changeRoster(p.Withdraw, p.Readmit, removed, &p.Notes)
}

// FlagOverrides reads the flags of a tournament run that were given, by
// the file key each sets, to lay over its file (Apply): the settings'
// (options.Read), the tournament's own of keys (flag name -> file key:
// a name, a format...), and --bot NAME=CMD, which replaces the file's
// bots (botFlags). Its errors are the command line's.
func FlagOverrides(c *cli.Context, keys map[string]string) (options.Given, error) {
	g, err := options.Read(c, options.File)
	if err != nil {
		return g, err
	}
	g.Keyed(c, keys)
	if c.IsSet("bot") {
		bots, err := botFlags("bot", c.StringSlice("bot"))
		if err != nil {
			return g, err
		}
		g.Set("bots", bots)
	}
	return g, nil
}

// Apply lays the settings given on the command line over the file
// (options.Merge: each flag given wins), then settles the plan (Settle).
func (p *Plan) Apply(over options.Given, resume bool) error {
	if err := options.Merge(&p.File, over); err != nil {
		return err
	}
	return p.Settle(resume)
}

// RunPlan is the run plan (runplan.Plan) of the tournament p resolved
// to c: its bots, confined as its limits say, with the file that holds
// its seed hidden from them, and a refusal of them named by the file's
// field (a *usage.Error). Where remote bots and workers are,
// and where to log, are the caller's to add.
func (p *Plan) RunPlan(c *Config) runplan.Plan {
	opts := c.BotOptions
	if p.Src != "flags" {
		// The tournament file holds the seed: no bot may read it.
		if abs, err := filepath.Abs(p.Src); err == nil {
			opts.Hide = append(opts.Hide[:len(opts.Hide):len(opts.Hide)], abs)
		}
	}
	return runplan.Plan{Bots: c.Bots, Out: p.Out, SecretFile: c.SecretFile, Secret: c.Secret, Limits: c.BotLimits, Sandbox: opts,
		Refused: func(r *runplan.RefusedError) error { return usage.Wrap(c.Refusal(p.Src, r)) },
		Wait:    c.Limits.Startup}
}

// CommandLine is the command line's mistake in Run's error, if it is
// one (the run was given the wrong thing), else nil: a deal secret
// given (the file's deal_secret) that is not the output directory's,
// or a saved tournament edited since it began.
func (c *Config) CommandLine(err error) error {
	if (c.Secret != nil && errors.Is(err, deal.ErrMismatch)) || errors.Is(err, ErrEdited) {
		return err
	}
	return nil
}
