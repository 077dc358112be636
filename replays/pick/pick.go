// Package pick reads the replays a command line names: replay files,
// every game of a pack (*.pack.zst), or with a game id only that game of
// a pack or of a run's output directory (found through its ledger).
package pick

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/replays"
)

// Item is one replay a FILE holds: read, or why it could not be.
type Item struct {
	Name   string // the file, and for a pack's game where it lies and its id
	GameID string
	Replay *replays.Replay
	Err    error
}

// An ArgError is about what the arguments name rather than about a
// replay in them: a FILE that is not there or does not open, a directory
// without a game, a game a FILE or DIR does not hold. Mistake says it is
// the command line's mistake whatever the file system says (a typo, a
// glob that matched nothing); else a FILE not there (fs.ErrNotExist) is.
type ArgError struct {
	Err     error
	Mistake bool
}

func (e *ArgError) Error() string { return e.Err.Error() }
func (e *ArgError) Unwrap() error { return e.Err }

// Usage says whether e is the command line's mistake (exit 2, see
// internal/usage): a Mistake, or a FILE named that is not there.
func (e *ArgError) Usage() bool { return e.Mistake || errors.Is(e.Err, fs.ErrNotExist) }

// check is what is said before reading any FILE: one that is not there,
// or a directory (a results directory given for its replays) without a
// game.
func check(paths []string, game string) error {
	for _, path := range paths {
		fi, err := os.Stat(path)
		if err != nil {
			return &ArgError{Err: err}
		}
		if fi.IsDir() && game == "" {
			return &ArgError{Mistake: true, Err: fmt.Errorf("%s is a directory, not a replay FILE (name one of its games with --game GAME_ID; a run's replays are DIR/replays/*%s)", path, replays.PackExt)}
		}
	}
	return nil
}

// Read reads the replays paths hold: a replay file's, every game of a
// pack, and with game only that game of a pack, or of a run's output
// directory (as its ledger says). Each replay that does not read is an
// Item with its error; a pack cut short gives its whole replays before
// the cut, then the error (naming the offset). A path not there, a
// directory without game, and a game not in a path are ArgErrors; a
// ledger that does not read is its own error.
func Read(paths []string, game string) ([]Item, error) {
	if err := check(paths, game); err != nil {
		return nil, err
	}
	var items []Item
	for _, path := range paths {
		if fi, _ := os.Stat(path); fi.IsDir() {
			src, err := ledger.FindReplay(path, game)
			if errors.Is(err, ledger.ErrNoGame) {
				return nil, &ArgError{Mistake: true, Err: fmt.Errorf("--game %s: %w", game, err)}
			}
			if err != nil {
				return nil, err
			}
			rp, err := src.Read()
			items = append(items, Item{Name: src.String(), GameID: game, Replay: rp, Err: err})
			continue
		}
		held, err := readFile(path, game)
		if err != nil {
			return nil, err
		}
		items = append(items, held...)
	}
	return items, nil
}

// readFile is Read of a replay file or pack.
func readFile(path, game string) ([]Item, error) {
	all, err := replays.ReadAll(path)
	if err != nil {
		return nil, &ArgError{Err: err}
	}
	var held, failed []Item
	for _, p := range all {
		it := Item{Name: path, Replay: p.Replay, Err: p.Err}
		if p.Replay != nil {
			it.GameID = p.Replay.Header.GameID
		}
		if p.At != nil {
			it.Name = fmt.Sprintf("%s at offset %d", path, p.At.Offset)
			if it.GameID != "" {
				it.Name += ": " + it.GameID
			}
		}
		switch {
		case p.Err != nil:
			failed = append(failed, it)
			if game == "" {
				held = append(held, it)
			}
		case game == "" || it.GameID == game:
			held = append(held, it)
		}
	}
	// With a game, the game found is all that is wanted; not found, the
	// replays that did not read may be why.
	if game != "" && len(held) == 0 {
		if len(failed) == 0 {
			return nil, &ArgError{Mistake: true, Err: fmt.Errorf("--game %s: %s does not hold it", game, path)}
		}
		held = failed
	}
	return held, nil
}

// Verify re-simulates each item's replay (replays.Verify), in order, and
// tells done of each: nil, or why it failed (of an item that did not
// read, its error). It returns how many failed.
func Verify(items []Item, done func(Item, error)) (failed int) {
	for _, it := range items {
		err := it.Err
		if err == nil {
			err = replays.Verify(it.Replay)
		}
		if err != nil {
			failed++
		}
		done(it, err)
	}
	return failed
}
