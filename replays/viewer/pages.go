package viewer

import (
	"errors"
	"fmt"
	"os"

	"github.com/arena-dev/arena/replays/pick"
)

// WritePages writes the page of each item (WritePage) where Dest places
// it, in order, after making the directory out when outDir. It tells
// done of each item: the page written and its size in bytes, or why not
// (of an item that did not read, its error). It returns how many failed.
// A seat the game does not have (ErrNoSeat) stops it at once, with an
// error naming the item; so does out not made.
func WritePages(items []pick.Item, out string, outDir bool, opts Options, done func(it pick.Item, page string, size int64, err error)) (failed int, err error) {
	if outDir {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return 0, err
		}
	}
	for _, it := range items {
		page, size, err := "", int64(0), it.Err
		if err == nil {
			page = Dest(it.Replay, it.GameID, out, outDir, opts)
			if err = WritePage(page, it.Replay, opts); errors.Is(err, ErrNoSeat) {
				return failed, fmt.Errorf("%s: %w", it.Name, err)
			}
		}
		if err != nil {
			failed++
		} else if fi, serr := os.Stat(page); serr == nil {
			size = fi.Size()
		}
		done(it, page, size, err)
	}
	return failed, nil
}
