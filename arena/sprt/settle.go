package sprt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/outdir"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/engine"
)

// FieldError is a field of a Config (or of Reports) that a command gave
// and a run cannot use: Field names it as the struct does ("Seats",
// "Test", "MaxGames", "Markdown"...), Value is the value at fault (nil:
// none to say; a bot's is what the command was given, which it says
// itself), Err why. A command says it with the input behind the field,
// its flag.
type FieldError struct {
	Field string
	Value any
	Err   error
}

func (e *FieldError) Error() string {
	if e.Value == nil {
		return e.Field + ": " + e.Err.Error()
	}
	return fmt.Sprintf("%s %v: %v", e.Field, e.Value, e.Err)
}

func (e *FieldError) Unwrap() error { return e.Err }

// Flag says e as a mistake in the flag behind its field: "--flag VALUE:
// why", where a bot's value is given (the flag's text, quoted), and a
// Value of nil is not said.
func (e *FieldError) Flag(flag, given string) error {
	switch e.Value.(type) {
	case nil:
		return fmt.Errorf("--%s: %w", flag, e.Err)
	case bot.Spec:
		return fmt.Errorf("--%s %q: %w", flag, given, e.Err)
	}
	return fmt.Errorf("--%s %v: %w", flag, e.Value, e.Err)
}

// Given is what Settle needs of a command beyond Config's own values:
// which of Seats and Concurrency it was given (the others take their
// defaults), the game's rule options as given, and its filler bot.
type Given struct {
	Seats, Concurrency bool
	Options            map[string]string
	// Filler reads the filler bot when the seats are known: used is
	// false when the game has no seat for it (2 seats), and then its
	// Spec is not used.
	Filler func(used bool) (bot.Spec, error)
}

// Settle fills in what a command did not give and checks what it did,
// field by field, in the order a person reads them: Test's name against
// Base's, Seats (the game's minimum and at least 2 unless given, and 2
// at least), the game's options for them (engine.Setup), the filler and
// its seats' names, the test's bounds (a *stats.ParamError), MaxGames,
// MaxTime and Concurrency (cores / seats unless given). Game, Test and
// Base are set. A mistake is a *FieldError; Check still checks the
// whole before a run.
func (c *Config) Settle(g Given) error {
	if c.Base.Name == c.Test.Name {
		return &FieldError{Field: "Test", Value: c.Test, Err: fmt.Errorf("name %q is the --base's too; give the bots different names", c.Test.Name)}
	}
	info := c.Game.Info()
	if !g.Seats {
		c.Seats = max(2, info.MinSeats)
	} else if c.Seats < 2 {
		return &FieldError{Field: "Seats", Value: c.Seats, Err: errors.New("base and test need 2 seats at least")}
	}
	var err error
	if c.Options, err = engine.Setup(c.Game, c.Seats, g.Options); err != nil {
		if g.Seats {
			return &FieldError{Field: "Seats", Err: err}
		}
		return err
	}
	if c.Filler, err = g.Filler(c.Seats > 2); err != nil {
		return err
	}
	if c.Seats > 2 {
		for _, n := range c.FillerNames() {
			if n == c.Base.Name || n == c.Test.Name {
				return &FieldError{Field: "Filler", Value: c.Filler, Err: fmt.Errorf("its seats are named %s, which clashes with --base or --test; give it another NAME", strings.Join(c.FillerNames(), ", "))}
			}
		}
	}
	if err := c.SPRT.Validate(); err != nil {
		return err
	}
	if c.MaxGames < 0 || (c.Paired && c.MaxGames == 1) {
		return &FieldError{Field: "MaxGames", Value: c.MaxGames, Err: errors.New("want 0 (no cap) or at least 2 (one pair)")}
	}
	if c.MaxTime < 0 {
		return &FieldError{Field: "MaxTime", Value: c.MaxTime, Err: errors.New("want a duration such as 100m, or 0 (no budget)")}
	}
	if !g.Concurrency {
		c.Concurrency = run.DefaultConcurrency(c.Seats)
	} else if c.Concurrency < 1 {
		return &FieldError{Field: "Concurrency", Value: c.Concurrency, Err: errors.New("want at least 1")}
	}
	return nil
}

// Specs are the run's bots to make ready (bind, confine): the test, the
// base and, with more than 2 seats, the filler, once: its seats share
// one launcher, and so one ARENA_BOT_NAME, Filler.Name.
func (c *Config) Specs() []bot.Spec {
	if c.Seats > 2 {
		return []bot.Spec{c.Test, c.Base, c.Filler}
	}
	return []bot.Spec{c.Test, c.Base}
}

// SetSpecs takes the bots of Specs back, made ready.
func (c *Config) SetSpecs(specs []bot.Spec) {
	c.Test, c.Base = specs[0], specs[1]
	if c.Seats > 2 {
		c.Filler = specs[2]
	}
}

// Reports are the report files a run's Summary is written to besides
// its output directory's SummaryFile: a Markdown summary appended to
// (appendMarkdown) and a JUnit XML test (writeJUnit); "" none.
type Reports struct {
	Markdown, JUnit string
}

// Check refuses a report file whose directory is not there, before a
// run rather than after it: a *FieldError.
func (r Reports) Check() error {
	for _, f := range []struct{ field, path string }{{"Markdown", r.Markdown}, {"JUnit", r.JUnit}} {
		if f.path == "" {
			continue
		}
		if st, err := os.Stat(filepath.Dir(f.path)); err != nil || !st.IsDir() {
			return &FieldError{Field: f.field, Value: f.path, Err: fmt.Errorf("no directory %s", filepath.Dir(f.path))}
		}
	}
	return nil
}

// Write writes sum to dir's SummaryFile (dir "": none) and to the report
// files; a report file that fails is a *FieldError.
func (r Reports) Write(dir string, sum *Summary) error {
	if dir != "" {
		if err := WriteSummary(dir, sum); err != nil {
			return err
		}
	}
	if r.Markdown != "" {
		if err := appendMarkdown(r.Markdown, sum); err != nil {
			return &FieldError{Field: "Markdown", Err: err}
		}
	}
	if r.JUnit != "" {
		if err := writeJUnit(r.JUnit, sum); err != nil {
			return &FieldError{Field: "JUnit", Err: err}
		}
	}
	return nil
}

// Exit codes of arena sprt by verdict (docs/ci.md).
const (
	ExitH1           = 0 // H1 accepted
	ExitH0           = 3 // H0 accepted: the change is not an improvement (a regression, for non-regression bounds)
	ExitInconclusive = 4 // MaxGames played or MaxTime spent without crossing a bound
	ExitFailed       = 1 // aborted: the arena failed
)

// ExitCode is the exit code of a run with verdict v.
func (v Verdict) ExitCode() int {
	switch v {
	case H1:
		return ExitH1
	case H0:
		return ExitH0
	case Inconclusive:
		return ExitInconclusive
	}
	return ExitFailed
}

// Refused says whether Run's error is a refusal of its output directory,
// which it then wrote nothing into (not even SummaryFile), and nor
// should its caller: another run holds it (outdir.ErrBusy), or it holds
// another run's results (a *run.OtherRunError).
func Refused(err error) bool {
	var other *run.OtherRunError
	return errors.Is(err, outdir.ErrBusy) || errors.As(err, &other)
}
