package check

import (
	"fmt"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
)

// FieldError is a Config field whose value a session cannot use
// (Config.Validate): the field, and what is wrong with its value.
type FieldError struct {
	Field string // "Games", "Move", "Startup", "Margin" or "MaxLine"
	Err   error  // the value and what it must be: "0: want at least 1"
}

func (e *FieldError) Error() string { return "check: " + e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// Validate holds cfg to what a command line gives: every field given,
// so that a zero Games or MaxLine is a mistake rather than Run's
// default. A mistake is a *FieldError, the first in the order Games,
// Move, Startup, Margin, MaxLine.
func (cfg Config) Validate() error {
	for _, f := range []struct {
		ok    bool
		field string
		value any
		want  string
	}{
		{cfg.Games >= 1, "Games", cfg.Games, "want at least 1"},
		{cfg.Move > 0, "Move", cfg.Move, "want a positive duration"},
		{cfg.Startup > 0, "Startup", cfg.Startup, "want a positive duration"},
		{cfg.Margin >= 0, "Margin", cfg.Margin, "must not be negative"},
		{cfg.MaxLine >= 1, "MaxLine", cfg.MaxLine, "want at least 1"},
	} {
		if !f.ok {
			return &FieldError{Field: f.field, Err: fmt.Errorf("%v: %s", f.value, f.want)}
		}
	}
	return nil
}

// Words names a bot in the report (Config.Command): a local program's
// words, already split, or the target as written ("nats:alice").
func Words(t bot.Target) []string {
	if local, ok := t.(stdio.Command); ok {
		return local.Argv
	}
	return []string{t.String()}
}

// Err is the session's verdict as an error: nil when no check failed.
func (rep *Report) Err() error {
	if rep.OK {
		return nil
	}
	return fmt.Errorf("%d of %d checks failed", rep.Failed, len(rep.Checks))
}
