package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

func replayCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "replay",
		Usage: "show, verify or draw replay files",
		Description: `Replays are written to OUT/replays/ by arena match, tournament run and sprt
with --out OUT (docs/replays.md):

   arena replay show out/m1/replays/GAME_ID.jsonl.zst --seat 0
   arena replay verify out/m1/replays/*.jsonl.zst
   arena replay html out/m1/replays/*.jsonl.zst -o out/m1/viewer/`,
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
					if err := checkReplayFiles("replay show", c.Args().Slice()); err != nil {
						return err
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
				Name:      "html",
				Usage:     "write a self-contained HTML viewer page per replay (opens in any browser, offline)",
				ArgsUsage: "FILE...",
				Description: `Each page draws the game move by move, with every hand open or as any one
seat saw it, the move list and the outcome; it needs no server and loads
nothing. Without -o a page is written beside its replay (GAME_ID.html);
-o names the page for one FILE, or a directory for any number.
--seat K writes only what seat K could know into the file (GAME_ID.seatK.html),
to hand to the contestant in seat K (docs/replays.md):

   arena replay html out/m1/replays/GAME_ID.jsonl.zst            # GAME_ID.html beside it
   arena replay html out/m1/replays/*.jsonl.zst -o out/m1/viewer/
   arena replay html out/m1/replays/GAME_ID.jsonl.zst --seat 1 -o for-bob.html`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "the page's file (one FILE) or a directory for the pages", DefaultText: "beside each replay"},
					&cli.IntFlag{Name: "seat", Value: engine.Spectator, Usage: "write only what this seat could know", DefaultText: "every seat's view"},
				},
				Action: replayHTML,
			},
			{
				Name:      "verify",
				Usage:     "re-simulate replays from seed and actions; fail on any mismatch or corruption",
				ArgsUsage: "FILE...",
				Description: `Exit 0 when every replay verifies, 1 when one does not, 2 when a FILE is
not there or is a directory:

   arena replay verify out/m1/replays/*.jsonl.zst`,
				Action: func(c *cli.Context) error {
					if c.NArg() == 0 {
						return usagef("replay verify needs at least one FILE")
					}
					if err := checkReplayFiles("replay verify", c.Args().Slice()); err != nil {
						return err
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

// checkReplayFiles is what the replay commands say before reading any
// FILE: one that is not there, or a directory (a results directory given
// for its replays), is a mistake in the command (a typo, a glob that
// matched nothing), not a replay that fails: a usage error naming it.
func checkReplayFiles(command string, paths []string) error {
	for _, path := range paths {
		fi, err := os.Stat(path)
		if err != nil {
			return inputErr(fmt.Errorf("%s: %w", command, err))
		}
		if fi.IsDir() {
			return usagef("%s: %s is a directory, not a replay FILE (a run's replays are DIR/replays/*%s)", command, path, replays.Ext)
		}
	}
	return nil
}

// replayHTML is `arena replay html`.
func replayHTML(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("replay html needs at least one FILE")
	}
	opts := viewer.Options{}
	if s := c.Int("seat"); s != engine.Spectator {
		if s < 0 {
			return usagef("--seat %d: seats count from 0", s)
		}
		opts = viewer.ForSeat(s)
	}
	files := c.Args().Slice()
	out := c.String("out")
	outDir := false
	if out != "" {
		fi, err := os.Stat(out)
		outDir = (err == nil && fi.IsDir()) || strings.HasSuffix(out, string(filepath.Separator))
		if !outDir && len(files) > 1 {
			return usagef("-o %s: with %d FILEs, -o must be a directory", out, len(files))
		}
	}
	// Before -o DIR is made: a mistyped FILE leaves nothing behind.
	if err := checkReplayFiles("replay html", files); err != nil {
		return err
	}
	if outDir {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("replay html: %w", err)
		}
	}
	bad := 0
	for _, path := range files {
		dest := filepath.Join(filepath.Dir(path), viewer.PageName(path, opts))
		switch {
		case outDir:
			dest = filepath.Join(out, viewer.PageName(path, opts))
		case out != "":
			dest = out
		}
		err := viewer.WriteFile(dest, path, opts)
		if errors.Is(err, viewer.ErrNoSeat) {
			return usageError{fmt.Errorf("--seat: %s: %w", path, err)}
		}
		if err != nil {
			bad++
			fmt.Fprintf(c.App.ErrWriter, "FAIL %s: %v\n", path, err)
			continue
		}
		size := int64(0)
		if fi, err := os.Stat(dest); err == nil {
			size = fi.Size()
		}
		fmt.Fprintf(c.App.Writer, "wrote %s (%d KiB)\n", dest, (size+1023)/1024)
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d replays could not be drawn", bad, len(files))
	}
	return nil
}
