package viewer_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/pick"
	"github.com/arena-dev/arena/replays/viewer"
)

// TestWritePages: each item's page is written where Dest places it (the
// directory made first) and told with its size, an item that did not
// read is told with its error and counted, and a seat the game does not
// have stops the pages at once, naming the item.
func TestWritePages(t *testing.T) {
	tmp := t.TempDir()
	r := play(t, game{name: "banqi", seats: 2, seed: 3})
	r.Path = filepath.Join(tmp, "g3"+replays.Ext)
	good := pick.Item{Name: "g3", GameID: "g3", Replay: r}
	bad := pick.Item{Name: "broken", Err: errors.New("did not read")}
	out := filepath.Join(tmp, "pages") + string(filepath.Separator)
	tests := []struct {
		name   string
		items  []pick.Item
		opts   viewer.Options
		pages  []string // told, "" for an item told failed
		failed int
		noSeat bool
	}{
		{"every seat", []pick.Item{good, bad}, viewer.Options{}, []string{filepath.Join(out, "g3.html"), ""}, 1, false},
		{"one seat", []pick.Item{good}, viewer.ForSeat(1), []string{filepath.Join(out, "g3.seat1.html")}, 0, false},
		{"no such seat", []pick.Item{bad, good}, viewer.ForSeat(5), []string{""}, 1, true},
	}
	for _, tc := range tests {
		var told []string
		failed, err := viewer.WritePages(tc.items, out, true, tc.opts, func(it pick.Item, page string, size int64, err error) {
			if err == nil {
				if fi, serr := os.Stat(page); serr != nil || fi.Size() != size || size == 0 {
					t.Errorf("%s: %s told as %d bytes: %v", tc.name, page, size, serr)
				}
			}
			told = append(told, page)
		})
		if tc.noSeat != errors.Is(err, viewer.ErrNoSeat) || (err == nil) == tc.noSeat || failed != tc.failed {
			t.Errorf("%s: %d failed, %v; want %d failed, ErrNoSeat %v", tc.name, failed, err, tc.failed, tc.noSeat)
		}
		if len(told) != len(tc.pages) {
			t.Fatalf("%s: told %q, want %q", tc.name, told, tc.pages)
		}
		for i := range told {
			if told[i] != tc.pages[i] {
				t.Errorf("%s: told %q, want %q", tc.name, told, tc.pages)
			}
		}
	}
}
