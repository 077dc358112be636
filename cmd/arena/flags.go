package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/check"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/usage"
)

// seedFlag reads --seed (options.ReadSeed): a fresh random seed when
// the flag is not given.
func seedFlag(c *cli.Context) (uint64, error) {
	s, err := options.ReadSeed(c)
	if err != nil {
		return 0, usage.Wrap(err)
	}
	return s, nil
}

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
		return nil, nil, usage.Errorf("--game: %w", err)
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

// concurrencyFlag is --concurrency, games at once.
func concurrencyFlag() cli.Flag { return options.Flags(options.Own, "concurrency")[0] }

// jsonFlag is --json, one JSON object on stdout.
func jsonFlag(usage string) cli.Flag { return &cli.BoolFlag{Name: "json", Usage: usage} }

// quietFlag is --quiet (-q), no progress lines.
func quietFlag(usage string) cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: usage}
}

// checkFlags name the flag that sets each check.Config field.
var checkFlags = map[string]string{"Games": "--games", "Move": "--move-time", "Startup": "--startup-time",
	"Margin": "--margin", "MaxLine": "--max-line"}

// flagError says a config's field error (check.FieldError) with the
// flag that set the field: "--games 0: want at least 1".
func flagError(err error) error {
	var fe *check.FieldError
	if errors.As(err, &fe) {
		return usage.Errorf("%s %v", checkFlags[fe.Field], fe.Err)
	}
	return err
}
