package tournament

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/arena/stoprule"
	"github.com/arena-dev/arena/engine"
)

// The choices of File.ShareDeals: which games play the same deal (with
// the seats rotated; fresh_deals aside, which gives every game its own).
const (
	// ShareEncounter: the games of one encounter (its seat rotations,
	// and the games a tie adds) share a deal, and each encounter has
	// deals of its own. A bot process that played one encounter may then
	// play the next, so processes are kept rather than started afresh.
	ShareEncounter = "encounter"
	// ShareCycle: every encounter of a round-robin cycle (a Swiss,
	// gauntlet or table round; an elimination stage) plays the same
	// deals, so that card luck cancels across the whole table too; no
	// process may play a deal twice, so most games need a fresh one.
	ShareCycle = "cycle"
	// DefaultShareDeals is what a new tournament takes.
	DefaultShareDeals = ShareEncounter
	// savedShareDeals is what a saved tournament without the field
	// means: it was dealt by cycle, before there was a choice.
	savedShareDeals = ShareCycle
)

// The defaults of a tournament's format and rounds.
const (
	DefaultFormat = "round-robin"
	DefaultRounds = 1
)

// Config is a validated tournament, ready to run.
type Config struct {
	File     File // as resolved (seed filled in): saved with the results
	Name     string
	Game     engine.Game
	Options  engine.Options
	Seats    int
	Format   string
	Schedule schedule.Config
	// Until (zero: none) is a round-robin's stop rule: it ends where a
	// cycle ends with the top K of the standings decided
	// (Standings.Separated), Schedule.Rounds cycles at most.
	Until stoprule.Rule
	// Settings are the clocks, the failure policy, the bounds on bots
	// and how their processes are kept, as the file (and the flags over
	// it) resolve them.
	run.Settings
	Seed        uint64
	Secret      *deal.Secret // keys the deals with Seed; nil: the output directory's, or a fresh one (Run)
	SecretFile  string       // where Secret was read (the file's deal_secret), for messages
	Concurrency int
	// BotLimits and BotOptions confine the bots once Confine is called.
	BotLimits  sandbox.Limits
	BotOptions sandbox.Options
	// Bots are the bots in file order, parsed (bot.Parse) and not yet
	// bound: Confine binds the local ones to the sandbox, the caller the
	// others (bot.Bind), and Run what is left to their schemes' defaults.
	Bots []bot.Spec
	// Absent are the bots that take no part (File.Withdrawn and
	// File.Suspended), by index, with why: they are never started (nor
	// their programs looked for), and forfeit their games.
	Absent map[int]string
}

// WithdrawnWhy is the detail of a withdrawn bot's forfeits.
const WithdrawnWhy = "withdrawn from the tournament by its organiser"

// fieldErr names the file and field of a mistake.
func fieldErr(src, field, format string, args ...any) error {
	return &options.FieldError{Src: src, Field: field, Err: fmt.Errorf(format, args...)}
}

// Resolve checks every field and fills in defaults. src names the file (or
// "flags") in errors; baseDir is where relative bot directories start.
func (f *File) Resolve(src, baseDir string) (*Config, error) {
	return f.resolve(src, baseDir, true)
}

// resolveForReading is Resolve for reading a run's results (standings,
// verify): the bots' programs and directories need not be on this
// machine, since nothing is run.
func (f *File) resolveForReading(src string) (*Config, error) {
	return f.resolve(src, ".", false)
}

func (f *File) resolve(src, baseDir string, programs bool) (*Config, error) {
	c := &Config{File: *f}
	if f.Name == "" {
		return nil, fieldErr(src, "name", "missing (a short name for the tournament)")
	}
	if strings.ContainsAny(f.Name, "/\\ ") {
		return nil, fieldErr(src, "name", "%q: no spaces or slashes (it is part of game ids and file names)", f.Name)
	}
	c.Name = f.Name
	if f.Game == "" {
		return nil, fieldErr(src, "game", "missing (one of the games `arena games` lists)")
	}
	g, err := engine.Lookup(f.Game)
	if err != nil {
		return nil, fieldErr(src, "game", "%v", err)
	}
	c.Game = g
	info := g.Info()
	c.Seats = f.Seats
	if c.Seats == 0 {
		c.Seats = info.MinSeats
	}
	if c.Options, err = engine.Setup(g, c.Seats, f.Options); err != nil {
		field := "options"
		if c.Seats < info.MinSeats || c.Seats > info.MaxSeats {
			field = "seats"
		}
		return nil, fieldErr(src, field, "%v", err)
	}
	c.Format = f.Format
	if c.Format == "" {
		c.Format = DefaultFormat
	}
	format, ok := schedule.LookupFormat(c.Format)
	if !ok {
		return nil, fieldErr(src, "format", "%q is not a format (known: %s)", c.Format, strings.Join(schedule.FormatNames(), ", "))
	}

	// Bots.
	if len(f.Bots) == 0 {
		return nil, fieldErr(src, "bots", "no bots")
	}
	absent := f.absent()
	index := map[string]int{}
	for i, b := range f.Bots {
		_, out := absent[b.Name]
		spec, err := ResolveBot(src, i, b, baseDir, programs && !out, c.Bots)
		if err != nil {
			return nil, err
		}
		index[b.Name] = i
		c.Bots = append(c.Bots, spec)
	}
	for _, name := range slices.Sorted(maps.Keys(absent)) { // the first unknown one, always
		why := absent[name]
		i, ok := index[name]
		if !ok {
			return nil, fieldErr(src, "bots", "%s is %s, but not one of the bots", name, why)
		}
		if c.Absent == nil {
			c.Absent = map[int]string{}
		}
		c.Absent[i] = why
	}
	names := func(field string, list []string) ([]int, error) {
		var out []int
		for _, n := range list {
			i, ok := index[n]
			if !ok {
				return nil, fieldErr(src, field, "%q is not one of the bots", n)
			}
			out = append(out, i)
		}
		return out, nil
	}

	// Schedule.
	sc := schedule.Config{Bots: len(c.Bots), Seats: c.Seats, Rounds: f.Rounds, GamesPerEncounter: f.GamesPerEncounter}
	if c.Until, err = resolveUntil(src, c.Format, f.Until); err != nil {
		return nil, err
	}
	switch {
	case sc.Rounds == 0 && !c.Until.IsZero():
		sc.Rounds = DefaultUntilRounds
		c.File.Rounds = sc.Rounds // saved: the budget of the schedule
	case sc.Rounds == 0:
		sc.Rounds = DefaultRounds
	}
	if sc.GamesPerEncounter == 0 {
		sc.GamesPerEncounter = c.Seats
	}
	if sc.Gauntlet, err = names("gauntlet", f.Gauntlet); err != nil {
		return nil, err
	}
	if c.Format == "gauntlet" && len(sc.Gauntlet) == 0 {
		return nil, fieldErr(src, "gauntlet", "a gauntlet needs the names of the bots that run it")
	}
	seedNames := f.Seeding
	if f.SeedingFrom != "" {
		if len(f.Seeding) > 0 {
			return nil, fieldErr(src, "seeding_from", "give seeding or seeding_from, not both")
		}
		dir := f.SeedingFrom
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(baseDir, dir)
		}
		if seedNames, err = seedingFrom(dir, index); err != nil {
			return nil, fieldErr(src, "seeding_from", "%v", err)
		}
		c.File.Seeding, c.File.SeedingFrom = seedNames, "" // saved as the order it gave
	}
	if sc.Seeding, err = names("seeding", seedNames); err != nil {
		return nil, err
	}
	sc.Advance, sc.MaxGames = f.Advance, f.MaxGames
	if f.Seed != nil {
		c.Seed = *f.Seed
	} else {
		c.Seed = seed.Random()
		c.File.Seed = &c.Seed // saved, so a resumed run deals the same cards
	}
	sc.Seed = c.Seed
	if f.DealSecret != "" && programs {
		path := f.DealSecret
		if !filepath.IsAbs(path) {
			path = filepath.Join(baseDir, path)
		}
		if c.Secret, err = deal.Read(path); err != nil {
			return nil, fieldErr(src, "deal_secret", "%v", err)
		}
		if err := stdio.CheckOutside(c.Bots, filepath.Dir(path)); err != nil {
			return nil, fieldErr(src, "deal_secret", "%s: %v", path, err)
		}
		c.SecretFile = path
	}
	if _, err := format.New(sc); err != nil {
		return nil, fieldErr(src, c.Format, "%v", err)
	}
	c.Schedule = sc

	// Clocks and failures.
	if c.Settings, err = f.Settings.Resolve(nil); err != nil {
		var fe *options.FieldError
		if errors.As(err, &fe) {
			fe.Src = src
		}
		return nil, err
	}
	c.Concurrency = f.Concurrency
	if c.Concurrency == 0 {
		c.Concurrency = run.DefaultConcurrency(c.Seats)
	}
	if c.Concurrency < 0 {
		return nil, fieldErr(src, "concurrency", "must be positive")
	}
	switch f.ShareDeals {
	case "":
		c.File.ShareDeals = DefaultShareDeals // saved, so that a resume deals alike
	case ShareEncounter, ShareCycle:
	default:
		return nil, fieldErr(src, "share_deals", "%q: want %s or %s", f.ShareDeals, ShareEncounter, ShareCycle)
	}
	if f.SpareProcesses < 0 {
		return nil, fieldErr(src, "spare_processes", "%d: want at least 1 (or leave it out for the default; restart_bots keeps only the processes it starts ahead)", f.SpareProcesses)
	}
	if c.BotLimits, err = f.Limits.Resolve(); err != nil {
		return nil, fieldErr(src, "limits", "%v", err)
	}
	c.BotOptions = f.Limits.Options(baseDir)
	return c, nil
}

// absent are the bots f takes out, with why: withdrawn ones, and
// suspended ones (withdrawal says more).
func (f *File) absent() map[string]string {
	out := map[string]string{}
	for name, why := range f.Suspended {
		out[name] = why
	}
	for _, name := range f.Withdrawn {
		out[name] = WithdrawnWhy
	}
	return out
}

// limitsFields name the limits section's field for each sandbox option.
var limitsFields = map[string]string{"User": "limits.user", "Network": "limits.network", "Isolate": "limits.isolate",
	"Env": "limits.env", "CPUs": "limits.cpus", "UIDs": "limits.uids", "ReadOnly": "limits.ro", "ReadWrite": "limits.rw",
	"Contest": "limits.contest"}

// Confine runs every local bot in the sandbox the limits section
// describes (runplan.Confine): it checks that this machine can provide it
// (another user and no network need privileges) and binds the bots to it (stdio.Binding). Their environment is
// then only the documented variables plus the bots' env fields and
// limits.env. Isolated bots do not see the output directory out (created
// here if need be), nor what BotOptions.Hide names (the tournament file,
// which holds the seed), nor the other bots' programs. src names the file
// in errors.
func (c *Config) Confine(src, out string) (*sandbox.Sandbox, error) {
	sb, err := runplan.Confine(c.Bots, c.BotLimits, c.BotOptions, out)
	var refused *runplan.RefusedError
	if errors.As(err, &refused) {
		return nil, c.Refusal(src, refused)
	}
	return sb, err
}

// Refusal names the field of the file src behind a refusal of its bots
// (runplan.Plan.Refused).
func (c *Config) Refusal(src string, refused *runplan.RefusedError) error {
	if refused.Dir != "" {
		// Isolated bots never see the output directory: a bot that names
		// a file there is refused now, not forfeited in every game.
		return fieldErr(src, "bots", "%v", refused.Err)
	}
	field := "limits"
	var oe *sandbox.OptionError
	var ce *sandbox.ContestError
	switch {
	case errors.As(refused.Err, &oe):
		if f, ok := limitsFields[oe.Option]; ok {
			field = f
		}
		if oe.Option == "Network" && c.File.Limits.NoNetwork {
			field = "limits.no_network"
		}
	case errors.As(refused.Err, &ce):
		field = "limits.contest"
	}
	return fieldErr(src, field, "%v", refused.Err)
}

// ResolveBot parses bot i of a file (b) into its spec: checked
// (programs: its program looked for), or only parsed for a bot that does
// not run here (withdrawn, suspended, a run read for its results).
// before are the bots before it, whose names it must not repeat. The one
// reader of a file's bots: a ladder file's bundled bots are read by it too.
func ResolveBot(src string, i int, b BotFile, baseDir string, programs bool, before []bot.Spec) (bot.Spec, error) {
	field := fmt.Sprintf("bots[%d]", i)
	if b.Name == "" {
		return bot.Spec{}, fieldErr(src, field+".name", "missing")
	}
	if err := bot.CheckName(b.Name); err != nil {
		return bot.Spec{}, fieldErr(src, field+".name", "%v", err)
	}
	if err := bot.CheckNames(append(before[:len(before):len(before)], bot.Spec{Name: b.Name})); err != nil {
		return bot.Spec{}, fieldErr(src, field+".name", "%q is used twice", b.Name)
	}
	if strings.TrimSpace(b.Command) == "" {
		return bot.Spec{}, fieldErr(src, field+".command", "missing (the program to run, e.g. \"python3 bot.py\")")
	}
	dir := b.Dir
	if dir != "" && !filepath.IsAbs(dir) {
		dir = filepath.Join(baseDir, dir)
	}
	// Parsed without looking first: whether the bot runs here decides
	// what it may be given (a dir, env) and what is checked.
	spec, err := bot.ParseUnchecked(b.Name, b.Command, dir)
	if err != nil {
		return bot.Spec{}, fieldErr(src, field+".command", "%v", err)
	}
	local, ok := spec.Target.(bot.Local)
	if !ok {
		if b.Dir != "" || len(b.Env) > 0 {
			return bot.Spec{}, fieldErr(src, field, "%s runs elsewhere (%s): it takes no dir or env here; its owner sets them where it runs", b.Name, b.Command)
		}
		return spec, nil
	}
	if programs {
		if dir != "" {
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return bot.Spec{}, fieldErr(src, field+".dir", "%q is not a directory", b.Dir)
			}
		}
		if spec, err = bot.Parse(b.Name, b.Command, dir); err != nil {
			return bot.Spec{}, fieldErr(src, field+".command", "%v", err)
		}
		local = spec.Target.(bot.Local)
	}
	var env []string
	for _, k := range slices.Sorted(maps.Keys(b.Env)) {
		env = append(env, k+"="+b.Env[k])
	}
	spec.Target = local.WithEnv(env)
	return spec, nil
}

// NewScheduler builds the tournament's scheduler.
func (c *Config) NewScheduler() (schedule.Scheduler, error) {
	format, ok := schedule.LookupFormat(c.Format)
	if !ok {
		return nil, fmt.Errorf("%q is not a format", c.Format)
	}
	return format.New(c.Schedule)
}

// seedingFrom orders bots by their rating in an earlier tournament's
// results (best first), read as standings read them (ReadStandings); without
// ratings (they could not be computed) by the standings' order. Bots that
// did not play there follow in file order.
func seedingFrom(dir string, bots map[string]int) ([]string, error) {
	st, err := ReadStandings(dir)
	if err != nil {
		return nil, err
	}
	byRating := append([]Row(nil), st.Standings...)
	rating := func(r Row) float64 {
		if r.Rating == nil {
			return 0
		}
		return *r.Rating
	}
	sort.SliceStable(byRating, func(a, b int) bool { return rating(byRating[a]) > rating(byRating[b]) })
	var out []string
	for _, r := range byRating {
		if _, ok := bots[r.Name]; ok && r.Games > 0 {
			out = append(out, r.Name)
		}
	}
	return out, nil
}
