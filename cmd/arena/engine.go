package main

import (
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/engineserver"
	"github.com/arena-dev/arena/internal/usage"
)

func engineCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "engine",
		Usage: "serve the rules engines over JSON lines on stdin/stdout, for bots and agents that simulate games",
		Description: `Reads one request per line (a JSON object, or an array of them: a batch)
and writes one response line each: create states by handle, list legal
actions, apply, view, clone, play random playouts, sample hidden cards.
A bot finds this executable in $ARENA_ENGINE. The operations and error
codes are in docs/engine.md.

   echo '{"id":1,"op":"create","game":"uno","seats":4,"seed":7}' | arena engine`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "max-states", Value: engineserver.DefaultMaxStates, Usage: "live handles (states, observers, environments) kept at most"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usage.Errorf("arena engine takes no arguments, got %q", c.Args().First())
			}
			if n := c.Int("max-states"); n < 1 {
				return usage.Errorf("--max-states %s: want at least 1", strconv.Itoa(n))
			}
			s := engineserver.New(engineserver.Config{MaxStates: c.Int("max-states"), Version: Version})
			return s.Serve(c.App.Reader, c.App.Writer)
		},
	})
}
