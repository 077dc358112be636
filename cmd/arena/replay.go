package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/pick"
	"github.com/arena-dev/arena/replays/viewer"
)

func replayCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "replay",
		Usage: "show, verify or draw replay files",
		Description: `Replays are written to OUT/replays/ by arena match, tournament run and sprt
with --out OUT (docs/replays.md):

   arena replay show out/m1 --game GAME_ID --seat 0
   arena replay verify out/m1/replays/*.pack.zst
   arena replay html out/m1/replays/*.pack.zst -o out/m1/viewer/

A run's replays are packs, many games each (replays/pack-NNNNNN.pack.zst);
directories written by earlier arenas have a file per game
(replays/GAME_ID.jsonl.zst). Both are read alike.`,
		Subcommands: []*cli.Command{
			{
				Name:      "show",
				Usage:     "print a game move by move, as everyone saw it or as one seat saw it",
				ArgsUsage: "FILE | DIR --game GAME_ID",
				Description: `   arena replay show out/m1 --game GAME_ID                       # a game of a run's output directory
   arena replay show out/m1 --game GAME_ID --seat 1              # what seat 1 saw
   arena replay show out/m1/replays/pack-000001.pack.zst --game GAME_ID
   arena replay show old/replays/GAME_ID.jsonl.zst               # a replay file of its own`,
				Flags: []cli.Flag{
					&cli.IntFlag{Name: "seat", Value: engine.Spectator, Usage: "show the game as this seat saw it", DefaultText: "the public view"},
					pickGame,
				},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usage.Errorf("replay show needs exactly one FILE or DIR")
					}
					items, err := readReplays("replay show", c.Args().Slice(), c.String("game"))
					if err != nil {
						return err
					}
					if len(items) != 1 {
						return usage.Errorf("replay show: %s holds %d games: name one with --game GAME_ID", c.Args().First(), len(items))
					}
					if items[0].Err != nil {
						return usage.Missing(items[0].Err)
					}
					r := items[0].Replay
					if s := c.Int("seat"); s != engine.Spectator && (s < 0 || s >= len(r.Header.Seats)) {
						return usage.Errorf("--seat %d: the game has seats 0..%d", s, len(r.Header.Seats)-1)
					}
					return replays.Show(c.App.Writer, r, c.Int("seat"))
				},
			},
			{
				Name:      "html",
				Usage:     "write a self-contained HTML viewer page per replay (opens in any browser, offline)",
				ArgsUsage: "FILE... | DIR --game GAME_ID",
				Description: `Each page draws the game move by move, with every hand open or as any one
seat saw it, the move list and the outcome; it needs no server and loads
nothing. A pack (*.pack.zst) gives a page for each of its games, or for
the one --game names. Without -o a page is written beside its replay
(GAME_ID.html); -o names the page for one game, or a directory for any
number.
--seat K writes only what seat K could know into the file (GAME_ID.seatK.html),
to hand to the contestant in seat K (docs/replays.md):

   arena replay html out/m1/replays/*.pack.zst -o out/m1/viewer/     # every game
   arena replay html out/m1 --game GAME_ID                         # GAME_ID.html in out/m1/replays/
   arena replay html out/m1 --game GAME_ID --seat 1 -o for-bob.html
   arena replay html old/replays/GAME_ID.jsonl.zst                 # a replay file of its own`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "the page's file (one game) or a directory for the pages", DefaultText: "beside each replay"},
					&cli.IntFlag{Name: "seat", Value: engine.Spectator, Usage: "write only what this seat could know", DefaultText: "every seat's view"},
					pickGame,
				},
				Action: replayHTML,
			},
			{
				Name:      "verify",
				Usage:     "re-simulate replays from seed and actions; fail on any mismatch or corruption",
				ArgsUsage: "FILE...",
				Description: `Every game of a pack (*.pack.zst) is verified, or the one --game names.
Exit 0 when every replay verifies, 1 when one does not, 2 when a FILE is
not there or is a directory (without --game):

   arena replay verify out/m1/replays/*.pack.zst
   arena replay verify old/replays/*.jsonl.zst
   arena tournament verify out/cup    # a whole output directory, against its ledger`,
				Flags: []cli.Flag{pickGame},
				Action: func(c *cli.Context) error {
					if c.NArg() == 0 {
						return usage.Errorf("replay verify needs at least one FILE")
					}
					items, err := readReplays("replay verify", c.Args().Slice(), c.String("game"))
					if err != nil {
						return err
					}
					if bad := pick.Verify(items, output.Replays{W: c.App.Writer, Log: c.App.ErrWriter}.Verified); bad > 0 {
						return fmt.Errorf("%d of %d replays failed verification", bad, len(items))
					}
					return nil
				},
			},
		},
	})
}

// pickGame is --game of the replay commands: one game of a pack or of a
// run's output directory.
var pickGame = options.GameFlag("the game GAME_ID of a pack or of a run's output DIR (found through DIR/" + ledger.FileName + ")")

// readReplays reads the replays FILEs name (pick.Read); what they name
// wrongly is said as command's mistake (exit 2: exitStatus).
func readReplays(command string, paths []string, game string) ([]pick.Item, error) {
	items, err := pick.Read(paths, game)
	var bad *pick.ArgError
	if errors.As(err, &bad) {
		return nil, fmt.Errorf("%s: %w", command, bad)
	}
	return items, err
}

// replayHTML is `arena replay html`.
func replayHTML(c *cli.Context) error {
	if c.NArg() == 0 {
		return usage.Errorf("replay html needs at least one FILE")
	}
	opts := viewer.Options{}
	if s := c.Int("seat"); s != engine.Spectator {
		if s < 0 {
			return usage.Errorf("--seat %d: seats count from 0", s)
		}
		opts = viewer.ForSeat(s)
	}
	files, out := c.Args().Slice(), c.String("out")
	outDir := out != "" && viewer.IsDir(out)
	if out != "" && !outDir && len(files) > 1 {
		return usage.Errorf("-o %s: with %d FILEs, -o must be a directory", out, len(files))
	}
	// Before -o DIR is made: a mistyped FILE leaves nothing behind.
	items, err := readReplays("replay html", files, c.String("game"))
	if err != nil {
		return err
	}
	if !outDir && out != "" && len(items) > 1 {
		return usage.Errorf("-o %s: with %d games, -o must be a directory", out, len(items))
	}
	bad, err := viewer.WritePages(items, out, outDir, opts, output.Replays{W: c.App.Writer, Log: c.App.ErrWriter}.Drawn)
	switch {
	case errors.Is(err, viewer.ErrNoSeat):
		return usage.Errorf("--seat: %w", err)
	case err != nil:
		return fmt.Errorf("replay html: %w", err)
	case bad > 0:
		return fmt.Errorf("%d of %d replays could not be drawn", bad, len(items))
	}
	return nil
}
