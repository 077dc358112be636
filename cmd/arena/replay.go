package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays"
)

func replayCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "replay",
		Usage: "show or verify replay files",
		Description: `Replays are written to OUT/replays/ by arena match, tournament run and sprt
with --out OUT (docs/replays.md):

   arena replay show out/m1/replays/GAME_ID.jsonl.zst --seat 0
   arena replay verify out/m1/replays/*.jsonl.zst`,
		Subcommands: []*cli.Command{
			{
				Name:      "show",
				Usage:     "print a game move by move, as everyone saw it or as one seat saw it",
				ArgsUsage: "FILE",
				Description: `   arena replay show out/m1/replays/GAME_ID.jsonl.zst            # the public view
   arena replay show out/m1/replays/GAME_ID.jsonl.zst --seat 1   # what seat 1 saw`,
				Flags: []cli.Flag{
					&cli.IntFlag{Name: "seat", Value: engine.Spectator, Usage: "show the game as this seat saw it", DefaultText: "the public view"},
				},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usagef("replay show needs exactly one FILE")
					}
					r, err := replays.ReadFile(c.Args().First())
					if err != nil {
						return inputErr(err)
					}
					if s := c.Int("seat"); s != engine.Spectator && (s < 0 || s >= len(r.Header.Seats)) {
						return usagef("--seat %d: the game has seats 0..%d", s, len(r.Header.Seats)-1)
					}
					return replays.Show(c.App.Writer, r, c.Int("seat"))
				},
			},
			{
				Name:      "verify",
				Usage:     "re-simulate replays from seed and actions; fail on any mismatch or corruption",
				ArgsUsage: "FILE...",
				Description: `Exit 0 when every replay verifies, 1 when one does not, 2 when a FILE is
not there:

   arena replay verify out/m1/replays/*.jsonl.zst`,
				Action: func(c *cli.Context) error {
					if c.NArg() == 0 {
						return usagef("replay verify needs at least one FILE")
					}
					// A file that is not there is a mistake in the command
					// (a typo, a glob that matched nothing), not a replay
					// that fails verification: say so before verifying any.
					for _, path := range c.Args().Slice() {
						if _, err := os.Stat(path); err != nil {
							return inputErr(fmt.Errorf("replay verify: %w", err))
						}
					}
					bad := 0
					for _, path := range c.Args().Slice() {
						r, err := replays.ReadFile(path)
						if err == nil {
							err = replays.Verify(r)
						}
						if err != nil {
							bad++
							fmt.Fprintf(c.App.ErrWriter, "FAIL %s: %v\n", path, err)
							continue
						}
						fmt.Fprintf(c.App.Writer, "ok   %s (%s, %d plies: %s)\n", path, r.Header.Game, r.Result.Plies, r.Result.Reason)
					}
					if bad > 0 {
						return fmt.Errorf("%d of %d replays failed verification", bad, c.NArg())
					}
					return nil
				},
			},
		},
	})
}
