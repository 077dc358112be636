package ledger

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/replays"
)

func TestFindReplay(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	pack := filepath.Join("replays", replays.PackName(1))
	for _, r := range []Record{
		{GameID: "m-20261202-g0000", Replay: pack, ReplayAt: &replays.Span{Offset: 0, Size: 400}},
		{GameID: "m-20261202-g0001", Replay: pack, ReplayAt: &replays.Span{Offset: 400, Size: 410}},
		{GameID: "cup-r1-1-2-g1", Replay: filepath.Join("replays", "cup-r1-1-2-g1"+replays.Ext)},
		{GameID: "cup-r2-1-2-g1", Replay: filepath.Join("replays", "cup-r2-1-2-g1"+replays.Ext)},
		{GameID: "m-20261202-g0001", Replay: pack, ReplayAt: &replays.Span{Offset: 810, Size: 1}}, // recorded twice: the first counts
		{GameID: "no-replay"},
	} {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	tests := []struct {
		id   string
		want replays.Source
		err  error
	}{
		{"m-20261202-g0001", replays.Source{Path: filepath.Join(dir, pack), At: &replays.Span{Offset: 400, Size: 410}}, nil},
		{"g0001", replays.Source{Path: filepath.Join(dir, pack), At: &replays.Span{Offset: 400, Size: 410}}, nil},
		{"cup-r1-1-2-g1", replays.Source{Path: filepath.Join(dir, "replays", "cup-r1-1-2-g1"+replays.Ext)}, nil},
		{"r2-1-2-g1", replays.Source{Path: filepath.Join(dir, "replays", "cup-r2-1-2-g1"+replays.Ext)}, nil},
		{"1-2-g1", replays.Source{}, ErrNoGame}, // ends two
		{"0001", replays.Source{}, ErrNoGame},   // not after a "-"
		{"no-replay", replays.Source{}, ErrNoGame},
		{"nope", replays.Source{}, ErrNoGame},
	}
	for _, tc := range tests {
		got, err := FindReplay(dir, tc.id)
		if !errors.Is(err, tc.err) || got.Path != tc.want.Path || (got.At == nil) != (tc.want.At == nil) || got.At != nil && *got.At != *tc.want.At {
			t.Errorf("FindReplay(%q) = %v, %v; want %v, %v", tc.id, got, err, tc.want, tc.err)
		}
	}
}
