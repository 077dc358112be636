// Package options holds what a run is given, as people give it: the
// settings a tournament file and the command line flags share (clocks,
// failure policy, bounds on bots, processes, concurrency, seed, deal
// secret, sandbox limits), one type both parse into. A file's values and
// the flags' are merged once (Merge, as nats-server's MergeOptions lays
// flag options over file options), a flag winning only where it was
// given; Resolve turns the result into the run.Settings a run takes,
// every default from run.Defaults. The flags themselves are declared
// here once (Flags), for every command that has them, and read back
// (Read) with their own error messages; so are the flags of a run's bots
// (SandboxFlags, NATSFlags, DistributedFlags, ClientFlags), read into
// what runplan and remote take (ReadPlan, ReadNATS, ReadClient).
package options

import (
	"errors"
	"fmt"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/run"
)

// Settings are the settings of a run that a tournament file and the flags
// of match, sprt and tournament run share. A tournament file holds them
// inline (its keys clock, failure, seed... limits), so the YAML and JSON
// keys are the file's. A zero field keeps the default.
type Settings struct {
	Clock      Clock   `yaml:"clock,omitempty" json:"clock"`
	Failure    Failure `yaml:"failure,omitempty" json:"failure"`
	Seed       *uint64 `yaml:"seed,omitempty" json:"seed,omitempty"`
	DealSecret string  `yaml:"deal_secret,omitempty" json:"-"` // a secret file to reuse; not saved (the output directory keeps the secret)
	FreshDeals bool    `yaml:"fresh_deals,omitempty" json:"fresh_deals,omitempty"`
	// ShareDeals says which games of a tournament play the same deal
	// (tournament.ShareEncounter or ShareCycle). Saved resolved, so that
	// a resume deals as its run began; a directory saved before the field
	// existed deals by cycle.
	ShareDeals     string `yaml:"share_deals,omitempty" json:"share_deals,omitempty"`
	SpareProcesses int    `yaml:"spare_processes,omitempty" json:"spare_processes,omitempty"`
	RestartBots    bool   `yaml:"restart_bots,omitempty" json:"restart_bots,omitempty"`
	Concurrency    int    `yaml:"concurrency,omitempty" json:"concurrency,omitempty"`
	MaxLine        int    `yaml:"max_line,omitempty" json:"max_line,omitempty"`
	StderrCap      int64  `yaml:"stderr_cap,omitempty" json:"stderr_cap,omitempty"`
	Limits         Limits `yaml:"limits,omitempty" json:"limits"`
}

// ErrWrongType is a value of the wrong kind in a file (text for a
// number, a single value for a list...).
var ErrWrongType = errors.New("wrong type")

// wrongType is an ErrWrongType that says what is wrong in its own words.
type wrongType string

func (e wrongType) Error() string        { return string(e) }
func (e wrongType) Is(target error) bool { return target == ErrWrongType }

// WrongType is an ErrWrongType saying what is wrong: why.
func WrongType(why string) error { return wrongType(why) }

// Explicit says which settings were given explicitly (by their file key,
// "clock.margin"), so that a zero given keeps zero instead of the
// default: a flag set to 0. Nil: none (a file, where 0 is the default).
type Explicit func(key string) bool

// Resolve checks the clock and failure settings and fills in the
// defaults (run.Defaults): the run.Settings they make. A mistake is a
// *FieldError naming the file's field ("clock.tc").
func (s Settings) Resolve(explicit Explicit) (run.Settings, error) {
	given := func(key string) bool { return explicit != nil && explicit(key) }
	var out run.Settings
	c := s.Clock
	out.Limits = clock.Limits{Startup: time.Duration(c.Startup), Move: time.Duration(c.Move), Margin: time.Duration(c.Margin)}
	if out.Limits.Startup == 0 && !given("clock.startup") {
		out.Limits.Startup = run.Defaults.Limits.Startup
	}
	if out.Limits.Margin == 0 && !given("clock.margin") {
		out.Limits.Margin = run.Defaults.Limits.Margin
	}
	if c.TC != "" {
		var err error
		if out.Limits.Base, out.Limits.Inc, err = clock.ParseTC(c.TC); err != nil {
			return out, &FieldError{Field: "clock.tc", Err: err}
		}
	} else if out.Limits.Move == 0 && !given("clock.move") {
		out.Limits.Move = run.Defaults.Limits.Move
	}
	out.Policy = referee.Policy(s.Failure.Policy)
	if out.Policy == "" {
		out.Policy = run.Defaults.Policy
	}
	if out.Policy != referee.Forfeit && out.Policy != referee.Random {
		return out, &FieldError{Field: "failure.policy", Err: fmt.Errorf("%q: want forfeit or random", s.Failure.Policy)}
	}
	out.MaxStrikes = s.Failure.MaxStrikes
	if n := s.Failure.MaxStartupFailures; n != nil {
		if *n < 0 {
			return out, &FieldError{Field: "failure.max_startup_failures", Err: fmt.Errorf("%d: want 0 (never suspend a bot) or more", *n)}
		}
		out.MaxStartupFailures = run.SuspendAfter(*n)
	}
	out.MaxLine, out.StderrCap, out.SpareProcesses = s.MaxLine, s.StderrCap, s.SpareProcesses
	out.RestartBots, out.FreshDeals = s.RestartBots, s.FreshDeals
	return out.WithDefaults(), nil
}
