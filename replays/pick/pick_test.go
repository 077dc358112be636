package pick_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	_ "github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/internal/replaytest"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/pick"
)

// writeRun writes a run's output directory: the games of seeds in one
// pack (replays/pack-000001.pack.zst), and a ledger line for each
// saying where its replay lies; and the first game as a replay file of
// its own beside the directory. It returns the directory and that file.
func writeRun(t *testing.T, seeds ...uint64) (dir, file string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "run")
	if err := os.MkdirAll(filepath.Join(dir, "replays"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := ledger.Open(filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	pack := filepath.Join("replays", replays.PackName(1))
	var data []byte
	for i, seed := range seeds {
		rec, _ := replaytest.Play(t, replaytest.Game{Name: "banqi", Seats: 2, Seed: seed})
		frame, err := rec.Compressed()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			file = filepath.Join(root, "g-1"+replays.Ext)
			if err := os.WriteFile(file, frame, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		at := &replays.Span{Offset: int64(len(data)), Size: int64(len(frame))}
		data = append(data, frame...)
		if err := w.Append(ledger.Record{GameID: fmt.Sprintf("g-%d", seed), Replay: pack, ReplayAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, pack), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// TestRead: what a command line names reads as its games; what it names
// wrongly is an ArgError, the command line's mistake unless the file
// system says otherwise; a ledger that does not read is its own error.
func TestRead(t *testing.T) {
	dir, file := writeRun(t, 1, 2, 3)
	pack := filepath.Join(dir, "replays", replays.PackName(1))
	empty, unreadable := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(unreadable, ledger.FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		paths   []string
		game    string
		games   []string // the items' game ids
		mistake bool     // an ArgError, the command line's mistake
		argErr  bool     // an ArgError, not a mistake
		notHere bool     // fs.ErrNotExist
		other   bool     // another error
	}{
		{name: "a replay file", paths: []string{file}, games: []string{"g-1"}},
		{name: "a pack", paths: []string{pack}, games: []string{"g-1", "g-2", "g-3"}},
		{name: "a pack and a file", paths: []string{pack, file}, games: []string{"g-1", "g-2", "g-3", "g-1"}},
		{name: "a game of a pack", paths: []string{pack}, game: "g-2", games: []string{"g-2"}},
		{name: "a game of a run", paths: []string{dir}, game: "g-3", games: []string{"g-3"}},
		{name: "a game a pack does not hold", paths: []string{pack}, game: "g-9", mistake: true},
		{name: "a game a run does not hold", paths: []string{dir}, game: "g-9", mistake: true},
		{name: "a directory without a game", paths: []string{dir}, mistake: true},
		{name: "a file not there", paths: []string{file, filepath.Join(empty, "nope"+replays.Ext)}, argErr: true, notHere: true},
		{name: "a directory with no ledger", paths: []string{empty}, game: "g-1", mistake: true},
		{name: "a ledger that does not read", paths: []string{unreadable}, game: "g-1", other: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items, err := pick.Read(tc.paths, tc.game)
			var a *pick.ArgError
			isArg := errors.As(err, &a)
			switch {
			case tc.mistake && !(isArg && a.Mistake),
				tc.argErr && !(isArg && !a.Mistake),
				tc.other && (err == nil || isArg),
				tc.notHere != errors.Is(err, fs.ErrNotExist):
				t.Fatalf("Read: %v (an ArgError: %v)", err, isArg)
			case err != nil && !tc.mistake && !tc.argErr && !tc.other:
				t.Fatalf("Read: %v", err)
			case usage.Is(err) != (tc.mistake || tc.notHere): // exit 2, not 1
				t.Fatalf("Read: %v: the command line's mistake: %v", err, usage.Is(err))
			}
			if err != nil {
				return
			}
			var got []string
			for _, it := range items {
				if it.Err != nil || it.Replay == nil || it.Replay.Header.GameID != it.GameID {
					t.Fatalf("item %s: %+v", it.Name, it)
				}
				got = append(got, it.GameID)
			}
			if len(got) != len(tc.games) {
				t.Fatalf("games %v, want %v", got, tc.games)
			}
			for i := range got {
				if got[i] != tc.games[i] {
					t.Fatalf("games %v, want %v", got, tc.games)
				}
			}
		})
	}
}

// TestReadDamagedPack: a pack cut short gives its whole replays, then
// the error naming the offset; with a game it does not hold among those
// that read, the replays that did not read are why.
func TestReadDamagedPack(t *testing.T) {
	dir, _ := writeRun(t, 1, 2)
	pack := filepath.Join(dir, "replays", replays.PackName(1))
	data, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pack, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, game := range []string{"", "g-2"} {
		items, err := pick.Read([]string{pack}, game)
		if err != nil {
			t.Fatalf("game %q: %v", game, err)
		}
		last := items[len(items)-1]
		if last.Err == nil || last.Name == pack {
			t.Fatalf("game %q: the last item %q read (%v), want the cut one named with its offset", game, last.Name, last.Err)
		}
		if want := map[string]int{"": 2, "g-2": 1}[game]; len(items) != want {
			t.Fatalf("game %q: %d items, want %d", game, len(items), want)
		}
	}
}

// TestVerify: each item is told as it verified, or why not: its read
// error, or the verification's; failed counts those.
func TestVerify(t *testing.T) {
	dir, _ := writeRun(t, 1, 2)
	items, err := pick.Read([]string{filepath.Join(dir, "replays", replays.PackName(1))}, "")
	if err != nil {
		t.Fatal(err)
	}
	tampered := *items[1].Replay
	tampered.Result.Plies++
	unread := errors.New("did not read")
	tests := []struct {
		name  string
		items []pick.Item
		bad   []bool // per item, in order
	}{
		{"all verify", items, []bool{false, false}},
		{"one did not read", []pick.Item{items[0], {Name: "x", Err: unread}}, []bool{false, true}},
		{"one does not verify", []pick.Item{{Name: "y", Replay: &tampered}, items[0]}, []bool{true, false}},
	}
	for _, tc := range tests {
		var got []bool
		failed := pick.Verify(tc.items, func(it pick.Item, err error) { got = append(got, err != nil) })
		want := 0
		for i, b := range tc.bad {
			if b {
				want++
			}
			if i >= len(got) || got[i] != b {
				t.Errorf("%s: told %v, want %v", tc.name, got, tc.bad)
				break
			}
		}
		if failed != want || len(got) != len(tc.bad) {
			t.Errorf("%s: %d failed, %d told, want %d of %d", tc.name, failed, len(got), want, len(tc.bad))
		}
	}
}
