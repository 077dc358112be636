package options

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/internal/words"
)

// Mode is how a command's flags relate to the settings: each flag's
// value, usage and default text follow from it.
type Mode int

const (
	// Own: the flags are all there is (match, sprt, play): each has the
	// default as its value.
	Own Mode = iota
	// File: the flags lie over a tournament file (tournament run): none
	// has a value of its own, so that the file's field stays unless its
	// flag is given; help shows the default all the same.
	File
	// Check: arena check's flags, which judge one bot.
	Check
	// Bench: arena bench's flags, which measure a move clock.
	Bench
	// Match: Own, but games are played one at a time unless
	// --concurrency says otherwise, as a match always has.
	Match
)

// flagDef is one flag: the file key it sets and how each mode declares
// it (nil: the mode has no such flag).
type flagDef struct {
	key  string
	make func(Mode) cli.Flag
}

// moveDefault is the help's default of --move-time: move, unless a
// Fischer clock is given.
func moveDefault(move time.Duration) string { return fmt.Sprintf("%v without --tc", move) }

// defs are the settings' flags, each declared once.
var defs = map[string]flagDef{
	"move-time": {"clock.move", func(m Mode) cli.Flag {
		switch m {
		case Check:
			return DurationFlag("move-time", "limit per move", run.Defaults.Limits.Move, "")
		case Bench:
			return DurationFlag("move-time", "the move clock judged", 100*time.Millisecond, "")
		}
		return DurationFlag("move-time", "limit per move", 0, moveDefault(run.Defaults.Limits.Move))
	}},
	"tc": {"clock.tc", func(m Mode) cli.Flag {
		if m == File {
			return &cli.StringFlag{Name: "tc", Usage: "Fischer clock BASE+INC"}
		}
		return &cli.StringFlag{Name: "tc", Usage: "Fischer clock BASE+INC, e.g. 60s+1s"}
	}},
	"startup-time": {"clock.startup", func(m Mode) cli.Flag {
		if m == File {
			return DurationFlag("startup-time", "time from hello to ready", 0, run.Defaults.Limits.Startup.String())
		}
		return DurationFlag("startup-time", "time from hello to ready", run.Defaults.Limits.Startup, "")
	}},
	"margin": {"clock.margin", func(m Mode) cli.Flag {
		if m == File {
			return DurationFlag("margin", "grace added to every deadline", 0, run.Defaults.Limits.Margin.String())
		}
		return DurationFlag("margin", "grace added to every deadline for OS jitter", run.Defaults.Limits.Margin, "")
	}},
	"on-timeout": {"failure.policy", func(m Mode) cli.Flag {
		if m == File {
			return &cli.StringFlag{Name: "on-timeout", Usage: "forfeit or random", DefaultText: string(run.Defaults.Policy)}
		}
		return &cli.StringFlag{Name: "on-timeout", Value: string(run.Defaults.Policy), Usage: "what a failed move costs: forfeit, or random (a random move and a strike)"}
	}},
	"max-strikes": {"failure.max_strikes", func(m Mode) cli.Flag {
		if m == File {
			return &cli.IntFlag{Name: "max-strikes", Usage: "strikes before a forfeit with --on-timeout random", DefaultText: strconv.Itoa(run.Defaults.MaxStrikes)}
		}
		return &cli.IntFlag{Name: "max-strikes", Value: run.Defaults.MaxStrikes, Usage: "with --on-timeout random: strikes before a forfeit"}
	}},
	"max-startup-failures": {"failure.max_startup_failures", func(m Mode) cli.Flag {
		// In a file's mode the value is 0: a flag not given keeps the
		// file's failure.max_startup_failures.
		value := run.Defaults.MaxStartupFailures
		if m == File {
			value = 0
		}
		return &cli.IntFlag{Name: "max-startup-failures", Value: value, DefaultText: strconv.Itoa(run.Defaults.MaxStartupFailures),
			Usage: "suspend a bot after this many of its games in a row without starting (no ready within the startup time, which each of them costs): " +
				"its remaining games are forfeits, recorded without starting it; 0: never"}
	}},
	"max-line": {"max_line", func(m Mode) cli.Flag {
		if m == Check {
			return &cli.IntFlag{Name: "max-line", Value: run.Defaults.MaxLine, Usage: "longest line the bot may send, in bytes"}
		}
		return &cli.IntFlag{Name: "max-line", Value: run.Defaults.MaxLine, Usage: "longest line a bot may send, in bytes"}
	}},
	"stderr-cap": {"stderr_cap", func(Mode) cli.Flag {
		return &cli.Int64Flag{Name: "stderr-cap", Value: run.Defaults.StderrCap, Usage: "bytes of a bot's stderr kept per game"}
	}},
	"restart-bots": {"restart_bots", func(m Mode) cli.Flag {
		if m == File {
			return &cli.BoolFlag{Name: "restart-bots", Usage: "fresh bot processes for every game (no memory carried between games; each bot's next one starts while a game is played)"}
		}
		return &cli.BoolFlag{Name: "restart-bots", Usage: "fresh bot processes for every game, so no memory carries over; each bot's next one starts while a game is played (see docs/security.md)"}
	}},
	"spare-processes": {"spare_processes", func(Mode) cli.Flag {
		return &cli.IntFlag{Name: "spare-processes", Usage: "bot processes kept outside games (idle, or started ahead), across all bots; " +
			"the least recently used idle one is closed first", DefaultText: "max(concurrency, seats) x seats"}
	}},
	"concurrency": {"concurrency", func(m Mode) cli.Flag {
		if m == Match {
			return &cli.IntFlag{Name: "concurrency", Value: 1, Usage: "games at once"}
		}
		return &cli.IntFlag{Name: "concurrency", Usage: "games at once", DefaultText: "cores / seats"}
	}},
	"deal-secret": {"deal_secret", func(Mode) cli.Flag {
		return &cli.StringFlag{Name: "deal-secret", Usage: "deal with the secret in FILE, an earlier run's OUT/" + deal.FileName +
			" (mode 0600): the same --seed and secret deal the same cards, game for game. Without it a run into a new directory " +
			"deals new cards even with the same --seed (docs/security.md)"}
	}},
}

// Flags are the flags named, as mode declares them, in the order named.
// A name that is not a setting's flag panics: the list is the program's.
func Flags(m Mode, names ...string) []cli.Flag {
	out := make([]cli.Flag, len(names))
	for i, n := range names {
		d, ok := defs[n]
		if !ok {
			panic("options: no flag " + n)
		}
		out[i] = d.make(m)
	}
	return out
}

// Referee are the clock, failure and bot-process flags of every command
// that referees games from flags alone (match, sprt, play); RunSettings
// reads them.
func Referee() []cli.Flag {
	return Flags(Own, "move-time", "tc", "startup-time", "margin", "on-timeout", "max-strikes", "max-startup-failures",
		"max-line", "stderr-cap", "restart-bots", "spare-processes")
}

// ErrRuleOption is an --option that is not key=value.
var ErrRuleOption = errors.New("want key=value")

// RuleOptions reads the values of --option k=v, a game's rule options;
// a value without '=' or key is ErrRuleOption, said with the flag.
func RuleOptions(values []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range values {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--option %q: %w", v, ErrRuleOption)
		}
		out[k] = val
	}
	return out, nil
}

// Again are the flags of fs that were given, said again as arguments
// of a command line ("--nats", "URL"), each value shell-quoted: a bool
// flag given true as its name alone, one given false not at all.
func Again(c *cli.Context, fs []cli.Flag) []string {
	var out []string
	for _, f := range fs {
		name := f.Names()[0]
		_, isBool := f.(*cli.BoolFlag)
		switch {
		case !c.IsSet(name):
		case isBool:
			if c.Bool(name) {
				out = append(out, "--"+name)
			}
		default:
			out = append(out, "--"+name, words.ShellQuote(fmt.Sprint(c.Value(name))))
		}
	}
	return out
}

// SeedFlag is --seed, read by ReadSeed.
func SeedFlag(usage, defaultText string) cli.Flag {
	return &cli.StringFlag{Name: "seed", Usage: usage, DefaultText: defaultText}
}

// ReadSeed reads --seed, the run's seed: a fresh random one (seed.Random)
// when the flag is not given.
func ReadSeed(c *cli.Context) (uint64, error) {
	if !c.IsSet("seed") {
		return seed.Random(), nil
	}
	var s uint64
	if _, err := fmt.Sscan(c.String("seed"), &s); err != nil {
		return 0, fmt.Errorf("--seed %q: want a non-negative integer", c.String("seed"))
	}
	return s, nil
}

// Read reads the settings' flags that were given (and the ARENA_BOT_ENV
// variable, which adds to --bot-env), each by the file key it sets, as
// mode declares them. Its errors are the command line's, worded by flag;
// in File mode a clock or policy given is checked with the file's
// fields, by its resolve.
func Read(c *cli.Context, m Mode) (Given, error) {
	var g Given
	set := func(name string) bool { return c.IsSet(name) && defs[name].key != "" }
	for _, name := range []string{"move-time", "startup-time", "margin"} {
		if set(name) {
			g.Set(defs[name].key, DurationOf(c, name))
		}
	}
	if set("spare-processes") {
		n := c.Int("spare-processes")
		if n < 1 {
			return g, fmt.Errorf("--spare-processes %d: want at least 1 (--restart-bots keeps only the processes it starts ahead)", n)
		}
		g.Set("spare_processes", n)
	}
	if set("tc") {
		if _, _, err := clock.ParseTC(c.String("tc")); m != File && err != nil && c.String("tc") != "" {
			return g, fmt.Errorf("--tc: %w", err)
		}
		g.Set("clock.tc", c.String("tc"))
	}
	if set("on-timeout") {
		if p := referee.Policy(c.String("on-timeout")); m != File && p != referee.Forfeit && p != referee.Random {
			return g, fmt.Errorf("--on-timeout %q: want forfeit or random", p)
		}
		g.Set("failure.policy", c.String("on-timeout"))
	}
	if set("max-startup-failures") {
		n := c.Int("max-startup-failures")
		if n < 0 {
			return g, fmt.Errorf("--max-startup-failures %d: want 0 (never suspend a bot) or more", n)
		}
		g.Set("failure.max_startup_failures", n)
	}
	for _, name := range []string{"max-strikes", "max-line", "concurrency"} {
		if set(name) {
			g.Set(defs[name].key, c.Int(name))
		}
	}
	if set("stderr-cap") {
		g.Set("stderr_cap", c.Int64("stderr-cap"))
	}
	for _, name := range []string{"restart-bots", "fresh-deals"} {
		if c.IsSet(name) {
			g.Set(strings.ReplaceAll(name, "-", "_"), c.Bool(name))
		}
	}
	if c.IsSet("seed") && m == File { // Own: the command reads it (ReadSeed) where it says what it did
		s, err := ReadSeed(c)
		if err != nil {
			return g, err
		}
		g.Set("seed", s)
	}
	if v := c.String("deal-secret"); v != "" {
		g.Set("deal_secret", v)
	}
	if c.IsSet("option") && m == File { // Own: the command reads them with --game
		opts, err := RuleOptions(c.StringSlice("option"))
		if err != nil {
			return g, err
		}
		g.Set("options", opts)
	}
	readLimits(c, &g)
	return g, nil
}

// RunSettings reads the Referee flags (and --fresh-deals) into the
// run.Settings a run takes: a flag given at zero keeps zero, a flag not
// given takes the default.
func RunSettings(c *cli.Context) (run.Settings, error) {
	g, err := Read(c, Own)
	if err != nil {
		return run.Settings{}, err
	}
	var s Settings
	if err := Merge(&s, g); err != nil {
		return run.Settings{}, err
	}
	rs, err := s.Resolve(g.Has)
	if err != nil {
		return rs, err
	}
	if err := rs.Limits.Validate(); err != nil {
		return rs, err
	}
	return rs, nil
}

// limitFields are the limits section's fields that a sandbox flag of
// one value sets, each by the flag limitFlag names.
var limitFields = []string{"memory", "cpu_time", "procs", "files", "file_size", "user", "cpus", "disk", "isolate", "uids", "network"}

// readLimits reads the sandbox flags that were given (and ARENA_BOT_ENV)
// into g.
func readLimits(c *cli.Context, g *Given) {
	for _, field := range limitFields {
		if flag := limitFlag(field)[len("--"):]; c.IsSet(flag) {
			g.Set("limits."+field, c.String(flag))
		}
	}
	if c.IsSet("bot-no-network") {
		g.Set("limits.no_network", c.Bool("bot-no-network"))
	}
	if c.IsSet("contest") {
		g.Set("limits.contest", c.Bool("contest"))
	}
	for _, field := range []string{"ro", "rw"} {
		if v := c.StringSlice(limitFlag(field)[len("--"):]); len(v) > 0 {
			g.Set("limits."+field, v)
		}
	}
	var env []string
	if v := os.Getenv("ARENA_BOT_ENV"); v != "" {
		env = strings.Split(v, ",")
	}
	if env = append(env, c.StringSlice("bot-env")...); len(env) > 0 {
		g.Set("limits.env", env)
	}
}

// limitsOfFlags reads the sandbox flags (and ARENA_BOT_ENV) alone, over an
// empty limits section: a match's, a check's, a worker's. A mistake is a
// *FieldError naming the field within the section ("memory"); limitFlag
// names its flag.
func limitsOfFlags(c *cli.Context) (Limits, error) {
	var g Given
	readLimits(c, &g)
	var s Settings
	err := Merge(&s, g)
	return s.Limits, err
}

// limitFlag is the flag that sets a limits section's field: "--bot-cpu-time"
// for "cpu_time".
func limitFlag(field string) string { return "--bot-" + strings.ReplaceAll(field, "_", "-") }

// durationValue is the value of a duration flag. It replaces
// cli.DurationFlag, whose error for "--move-time 100" is the flag
// package's bare "parse error": this one says what is missing.
type durationValue struct{ d time.Duration }

func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err == nil {
		v.d = d
		return nil
	}
	if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
		return fmt.Errorf("%q has no unit: %sms or %ss? (units: ms, s, m, h)", s, s, s)
	}
	return fmt.Errorf("%q is not a duration (such as 500ms, 2s or 1m30s)", s)
}

func (v *durationValue) String() string { return v.d.String() }

// Get makes it a flag.Getter, as the flag package's own values are:
// cli.Context.Value reads a flag through it.
func (v *durationValue) Get() any { return v.d }

// DurationFlag is a duration flag with value def. defaultText is what
// help shows as its default ("" shows def); a flag whose default another
// setting decides gives it, and def 0.
func DurationFlag(name, usage string, def time.Duration, defaultText string) cli.Flag {
	if defaultText == "" {
		defaultText = def.String()
	}
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &durationValue{d: def}, DefaultText: defaultText}
}

// DurationOf reads a DurationFlag.
func DurationOf(c *cli.Context, name string) time.Duration {
	if v, ok := c.Generic(name).(*durationValue); ok {
		return v.d
	}
	return 0
}
