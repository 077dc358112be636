package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Overrides are settings given besides a tournament file (arena
// tournament run's flags), laid over it field by field by Apply: a nil
// field, or an empty list, keeps the file's.
type Overrides struct {
	Name, Game, Format, SeedingFrom, TC, Policy, ShareDeals                      *string
	Seats, Rounds, GamesPerEncounter, Advance, MaxGames, MaxStrikes, Conc, Spare *int
	Move, Startup, Margin                                                        *time.Duration
	Gauntlet, Seeding                                                            []string
	FreshDeals, RestartBots                                                      *bool
	// Options are merged into the file's, key by key.
	Options map[string]string
	// Bots, if not nil, replace the file's.
	Bots []BotFile
	Seed *uint64
	// MaxStartupFailures, if set, replaces the file's
	// failure.max_startup_failures.
	MaxStartupFailures *int
	// DealSecret is a secret file, relative to the working directory
	// (a file's deal_secret is relative to the file).
	DealSecret string
	// Limits are laid over the file's limits section (ApplyLimits).
	Limits LimitsOverrides
}

// LimitsOverrides are the limits given besides a file (the --bot-*
// flags).
type LimitsOverrides struct {
	// Fields maps a limits field (memory, cpu_time, procs, files,
	// file_size, user, cpus, disk, isolate, uids, network) to its value.
	Fields map[string]string
	// NoNetwork and Contest, if set, replace the file's; a network
	// given in Fields clears no_network (the later, finer setting).
	NoNetwork, Contest *bool
	// ReadOnly and ReadWrite paths (relative to the working directory)
	// are added to the file's; Env entries too.
	ReadOnly, ReadWrite, Env []string
}

// Apply lays o over f.
func (f *File) Apply(o Overrides) error {
	for dst, v := range map[*string]*string{&f.Name: o.Name, &f.Game: o.Game, &f.Format: o.Format,
		&f.SeedingFrom: o.SeedingFrom, &f.Clock.TC: o.TC, &f.Failure.Policy: o.Policy, &f.ShareDeals: o.ShareDeals} {
		if v != nil {
			*dst = *v
		}
	}
	for dst, v := range map[*int]*int{&f.Seats: o.Seats, &f.Rounds: o.Rounds, &f.GamesPerEncounter: o.GamesPerEncounter,
		&f.Advance: o.Advance, &f.MaxGames: o.MaxGames, &f.Failure.MaxStrikes: o.MaxStrikes, &f.Concurrency: o.Conc,
		&f.SpareProcesses: o.Spare} {
		if v != nil {
			*dst = *v
		}
	}
	for dst, v := range map[*Duration]*time.Duration{&f.Clock.Move: o.Move, &f.Clock.Startup: o.Startup, &f.Clock.Margin: o.Margin} {
		if v != nil {
			*dst = Duration(*v)
		}
	}
	for dst, v := range map[*[]string][]string{&f.Gauntlet: o.Gauntlet, &f.Seeding: o.Seeding} {
		if v != nil {
			*dst = v
		}
	}
	for dst, v := range map[*bool]*bool{&f.FreshDeals: o.FreshDeals, &f.RestartBots: o.RestartBots} {
		if v != nil {
			*dst = *v
		}
	}
	if len(o.Options) > 0 {
		if f.Options == nil {
			f.Options = map[string]string{}
		}
		for k, v := range o.Options {
			f.Options[k] = v
		}
	}
	if o.Bots != nil {
		f.Bots = o.Bots
	}
	if o.Seed != nil {
		seed := *o.Seed
		f.Seed = &seed
	}
	if o.MaxStartupFailures != nil {
		n := *o.MaxStartupFailures
		f.Failure.MaxStartupFailures = &n
	}
	if o.DealSecret != "" {
		abs, err := filepath.Abs(o.DealSecret)
		if err != nil {
			return &FieldError{Field: "deal_secret", Err: err}
		}
		f.DealSecret = abs
	}
	return f.Limits.Apply(o.Limits)
}

// limitsOverrideFields are the string fields of LimitsFile that
// LimitsOverrides.Fields may set.
func (l *LimitsFile) stringFields() map[string]*string {
	return map[string]*string{"memory": &l.Memory, "cpu_time": &l.CPUTime, "procs": &l.Procs, "files": &l.Files,
		"file_size": &l.FileSize, "user": &l.User, "cpus": &l.CPUs, "disk": &l.Disk, "isolate": &l.Isolate,
		"uids": &l.UIDs, "network": &l.Network}
}

// Apply lays o over l. Paths are made absolute here: relative to the
// working directory, as a flag gives them. A path or env entry l has
// already (a resumed run's saved copy) is not added twice.
func (l *LimitsFile) Apply(o LimitsOverrides) error {
	fields := l.stringFields()
	for k, v := range o.Fields {
		dst, ok := fields[k]
		if !ok {
			return &FieldError{Field: "limits." + k, Err: errors.New("not a limits field")}
		}
		*dst = v
	}
	if o.NoNetwork != nil {
		l.NoNetwork = *o.NoNetwork
	}
	if _, ok := o.Fields["network"]; ok {
		l.NoNetwork = false // the later, finer setting
	}
	if o.Contest != nil {
		l.Contest = *o.Contest
	}
	for dst, paths := range map[*[]string][]string{&l.ReadOnly: o.ReadOnly, &l.ReadWrite: o.ReadWrite} {
		for _, p := range paths {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			if !slices.Contains(*dst, p) {
				*dst = append(*dst, p)
			}
		}
	}
	for _, kv := range o.Env {
		if kv != "" && !slices.Contains(l.Env, kv) {
			l.Env = append(l.Env, kv)
		}
	}
	return nil
}

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
