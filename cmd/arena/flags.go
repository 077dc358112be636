package main

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/engine"
)

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

// durationFlag is a duration flag with value def. defaultText is what help
// shows as its default ("" shows def); a flag whose default another
// setting decides gives it, and def 0.
func durationFlag(name, usage string, def time.Duration, defaultText string) cli.Flag {
	if defaultText == "" {
		defaultText = def.String()
	}
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &durationValue{d: def}, DefaultText: defaultText}
}

// duration reads a durationFlag.
func duration(c *cli.Context, name string) time.Duration {
	if v, ok := c.Generic(name).(*durationValue); ok {
		return v.d
	}
	return 0
}

// seedFlag reads --seed, the run's seed: a fresh random one (seed.Random)
// when the flag is not given.
func seedFlag(c *cli.Context) (uint64, error) {
	if !c.IsSet("seed") {
		return seed.Random(), nil
	}
	var s uint64
	if _, err := fmt.Sscan(c.String("seed"), &s); err != nil {
		return 0, usagef("--seed %q: want a non-negative integer", c.String("seed"))
	}
	return s, nil
}

// runDefaults is what a run takes for what it is not given, as the
// tournament package fills it in (File.Resolve): a tournament file with
// nothing but a name, a game and two bots, resolved. Help texts and the
// values of match's and sprt's flags take the defaults from it, so they
// cannot drift from what runs; the package exports no constants for
// rounds, max strikes or the stderr cap.
//
// Resolving needs os.Executable (for "arena bot random"), which fails
// only without /proc. Then it is a zero Config: the help shows zeros, and
// a run given zero max strikes or stderr cap gets the referee's and the
// transport's own defaults, the same values, so nothing else changes (and
// `arena bot NAME`, which starts this CLI too, keeps working).
var runDefaults = sync.OnceValue(func() *tournament.Config {
	f := tournament.File{Name: "defaults", Game: engine.Games()[0].Info().Name,
		Bots: []tournament.BotFile{{Name: "a", Command: "arena bot random"}, {Name: "b", Command: "arena bot random"}}}
	cfg, err := f.Resolve("defaults", ".")
	if err != nil {
		return &tournament.Config{}
	}
	return cfg
})

// The flags below mean the same in every command that has them (match,
// sprt, check, tournament run): each is made here once, so that a name,
// alias or parse rule cannot drift between commands. Usage texts still
// say what the flag does in the command at hand.

// gameFlag is --game. Not Required: urfave/cli would print the whole help
// for it and exit 1; each command says what is missing in one line.
func gameFlag(usage string) cli.Flag { return &cli.StringFlag{Name: "game", Usage: usage} }

// gameAndOptions reads --game (the caller has said what to do when it is
// missing) and --option: the game and the options given.
func gameAndOptions(c *cli.Context) (engine.Game, map[string]string, error) {
	game, err := engine.Lookup(c.String("game"))
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("--game: %w", err)}
	}
	given, err := parseOptions(c.StringSlice("option"))
	if err != nil {
		return nil, nil, err
	}
	return game, given, nil
}

// optionFlag is --option k=v, the game's rule options.
func optionFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "option", Usage: "rule option k=v (repeatable)"}
}

// newSeedFlag is --seed, read by seedFlag.
func newSeedFlag(usage, defaultText string) cli.Flag {
	return &cli.StringFlag{Name: "seed", Usage: usage, DefaultText: defaultText}
}

// concurrencyFlag is --concurrency, games at once.
func concurrencyFlag() cli.Flag {
	return &cli.IntFlag{Name: "concurrency", Usage: "games at once", DefaultText: "cores / seats"}
}

// jsonFlag is --json, one JSON object on stdout.
func jsonFlag(usage string) cli.Flag { return &cli.BoolFlag{Name: "json", Usage: usage} }

// quietFlag is --quiet (-q), no progress lines.
func quietFlag(usage string) cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: usage}
}

// maxStartupFailuresFlag is --max-startup-failures (run.Settings.
// MaxStartupFailures), whose value is value: run.Defaults' in match and
// sprt, 0 in tournament run, where a flag not given keeps the file's
// failure.max_startup_failures (the help shows the default all the same).
func maxStartupFailuresFlag(value int) cli.Flag {
	return &cli.IntFlag{Name: "max-startup-failures", Value: value, DefaultText: strconv.Itoa(run.Defaults.MaxStartupFailures),
		Usage: "suspend a bot after this many of its games in a row without starting (no ready within the startup time, which each of them costs): " +
			"its remaining games are forfeits, recorded without starting it; 0: never"}
}

// maxStartupFailures reads --max-startup-failures: nil when not given,
// else the count as people give it (0: never), which run.SuspendAfter
// turns into run.Settings.MaxStartupFailures.
func maxStartupFailures(c *cli.Context) (*int, error) {
	if !c.IsSet("max-startup-failures") {
		return nil, nil
	}
	n := c.Int("max-startup-failures")
	if n < 0 {
		return nil, usagef("--max-startup-failures %d: want 0 (never suspend a bot) or more", n)
	}
	return &n, nil
}
