package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/usage"
)

func gamesCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "games",
		Usage: "list the games, their seat ranges and options with defaults",
		Description: `The options are given as --option k=v (match, sprt, check) or under a
tournament file's options:

   arena games
   arena match --game banqi --option ranks=hk --bot a='arena bot greedy' --bot b='arena bot random'

--json prints every game (or GAME) as JSON, with its schema; --schema
prints GAME's JSON Schema document, for bot and SDK authors:

   arena games --json
   arena games banqi --schema`,
		ArgsUsage: "[GAME]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the games as one JSON object: name, summary, seats, options (defaults, values, meaning), rules revision and schema"},
			&cli.BoolFlag{Name: "schema", Usage: "print GAME's JSON Schema (draft 2020-12) of hello.options, the views and the actions"},
		},
		Action: func(c *cli.Context) error {
			out := c.App.Writer
			games := engine.Games()
			switch {
			case c.NArg() > 1:
				return usage.Errorf("games takes at most one GAME, got %d: %s", c.NArg(), strings.Join(c.Args().Slice(), " "))
			case c.NArg() == 1:
				g, err := engine.Lookup(c.Args().First())
				if err != nil {
					return usage.Wrap(err)
				}
				games = []engine.Game{g}
			case c.Bool("schema"):
				return usage.Errorf("--schema needs a GAME: arena games GAME --schema")
			}
			if c.Bool("schema") && c.Bool("json") {
				return usage.Errorf("give --schema or --json, not both")
			}
			if c.Bool("schema") {
				return output.Schema(out, games[0])
			}
			if c.Bool("json") {
				return output.GamesJSON(out, games)
			}
			return output.Games(out, games)
		},
	})
}
