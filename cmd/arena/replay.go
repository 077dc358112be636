package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/ledger"
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
						return usagef("replay show needs exactly one FILE or DIR")
					}
					items, err := readReplayArgs("replay show", c.Args().Slice(), c.String("game"))
					if err != nil {
						return err
					}
					if len(items) != 1 {
						return usagef("replay show: %s holds %d games: name one with --game GAME_ID", c.Args().First(), len(items))
					}
					if items[0].err != nil {
						return inputErr(items[0].err)
					}
					r := items[0].rp
					if s := c.Int("seat"); s != engine.Spectator && (s < 0 || s >= len(r.Header.Seats)) {
						return usagef("--seat %d: the game has seats 0..%d", s, len(r.Header.Seats)-1)
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
						return usagef("replay verify needs at least one FILE")
					}
					items, err := readReplayArgs("replay verify", c.Args().Slice(), c.String("game"))
					if err != nil {
						return err
					}
					bad := 0
					for _, it := range items {
						err := it.err
						if err == nil {
							err = replays.Verify(it.rp)
						}
						if err != nil {
							bad++
							fmt.Fprintf(c.App.ErrWriter, "FAIL %s: %v\n", it.name, err)
							continue
						}
						fmt.Fprintf(c.App.Writer, "ok   %s (%s, %d plies: %s)\n", it.name, it.rp.Header.Game, it.rp.Result.Plies, engine.NameSeats(it.rp.Result.Reason, it.rp.Bots()))
					}
					if bad > 0 {
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
var pickGame = gameFlag("the game GAME_ID of a pack or of a run's output DIR (found through DIR/" + ledger.FileName + ")")

// checkReplayFiles is what the replay commands say before reading any
// FILE: one that is not there, or a directory (a results directory given
// for its replays) without --game, is a mistake in the command (a typo,
// a glob that matched nothing), not a replay that fails: a usage error
// naming it.
func checkReplayFiles(command string, paths []string, game string) error {
	for _, path := range paths {
		fi, err := os.Stat(path)
		if err != nil {
			return inputErr(fmt.Errorf("%s: %w", command, err))
		}
		if fi.IsDir() && game == "" {
			return usagef("%s: %s is a directory, not a replay FILE (name one of its games with --game GAME_ID; a run's replays are DIR/replays/*%s)", command, path, replays.PackExt)
		}
	}
	return nil
}

// replayItem is one replay a FILE holds: read, or why it could not be.
type replayItem struct {
	name   string // the file, and for a pack's game where it lies and its id
	gameID string
	rp     *replays.Replay
	err    error
}

// readReplayArgs reads the replays FILEs hold: a replay file's, every
// game of a pack (*.pack.zst), and with --game only that game of a pack,
// or of a run's output directory (as its ledger says). Each replay that
// does not read is an item with its error; a pack cut short gives its
// whole replays before the cut, then the error (naming the offset). A
// FILE not there, a directory without --game, and a game not in a FILE
// or DIR are usage errors.
func readReplayArgs(command string, paths []string, game string) ([]replayItem, error) {
	if err := checkReplayFiles(command, paths, game); err != nil {
		return nil, err
	}
	var items []replayItem
	for _, path := range paths {
		if fi, _ := os.Stat(path); fi.IsDir() {
			src, err := ledger.FindReplay(path, game)
			if errors.Is(err, ledger.ErrNoGame) {
				return nil, usagef("%s: --game %s: %v", command, game, err)
			}
			if err != nil {
				return nil, err
			}
			rp, err := src.Read()
			items = append(items, replayItem{name: src.String(), gameID: game, rp: rp, err: err})
			continue
		}
		all, err := replays.ReadAll(path)
		if err != nil {
			return nil, inputErr(fmt.Errorf("%s: %w", command, err))
		}
		var held, failed []replayItem
		for _, p := range all {
			it := replayItem{name: path, rp: p.Replay, err: p.Err}
			if p.Replay != nil {
				it.gameID = p.Replay.Header.GameID
			}
			if p.At != nil {
				it.name = fmt.Sprintf("%s at offset %d", path, p.At.Offset)
				if it.gameID != "" {
					it.name += ": " + it.gameID
				}
			}
			switch {
			case p.Err != nil:
				failed = append(failed, it)
				if game == "" {
					held = append(held, it)
				}
			case game == "" || it.gameID == game:
				held = append(held, it)
			}
		}
		// With --game, the game found is all that is wanted; not found,
		// the replays that did not read may be why.
		if game != "" && len(held) == 0 {
			if len(failed) == 0 {
				return nil, usagef("%s: --game %s: %s does not hold it", command, game, path)
			}
			held = failed
		}
		items = append(items, held...)
	}
	return items, nil
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
	items, err := readReplayArgs("replay html", files, c.String("game"))
	if err != nil {
		return err
	}
	if !outDir && out != "" && len(items) > 1 {
		return usagef("-o %s: with %d games, -o must be a directory", out, len(items))
	}
	if outDir {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("replay html: %w", err)
		}
	}
	bad := 0
	for _, it := range items {
		if it.err != nil {
			bad++
			fmt.Fprintf(c.App.ErrWriter, "FAIL %s: %v\n", it.name, it.err)
			continue
		}
		name := viewer.PageName(it.rp.Path, opts)
		if replays.IsPack(it.rp.Path) {
			name = viewer.GamePageName(it.gameID, opts)
		}
		dest := filepath.Join(filepath.Dir(it.rp.Path), name)
		switch {
		case outDir:
			dest = filepath.Join(out, name)
		case out != "":
			dest = out
		}
		err := viewer.WritePage(dest, it.rp, opts)
		if errors.Is(err, viewer.ErrNoSeat) {
			return usageError{fmt.Errorf("--seat: %s: %w", it.name, err)}
		}
		if err != nil {
			bad++
			fmt.Fprintf(c.App.ErrWriter, "FAIL %s: %v\n", it.name, err)
			continue
		}
		size := int64(0)
		if fi, err := os.Stat(dest); err == nil {
			size = fi.Size()
		}
		fmt.Fprintf(c.App.Writer, "wrote %s (%d KiB)\n", dest, (size+1023)/1024)
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d replays could not be drawn", bad, len(items))
	}
	return nil
}
