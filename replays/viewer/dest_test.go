package viewer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

// TestDest: a page goes beside its replay, named after the replay file
// or, for a pack's game, after the game; into a directory -o names (one
// that is there, or a name ending in a separator); or to -o's file.
func TestDest(t *testing.T) {
	tmp := t.TempDir()
	there := filepath.Join(tmp, "there")
	if err := os.Mkdir(there, 0o755); err != nil {
		t.Fatal(err)
	}
	file := &replays.Replay{Path: filepath.Join("run", "replays", "g7"+replays.Ext)}
	pack := &replays.Replay{Path: filepath.Join("run", "replays", replays.PackName(1))}
	seat1 := viewer.ForSeat(1)
	tests := []struct {
		r      *replays.Replay
		gameID string
		out    string
		opts   viewer.Options
		want   string
	}{
		{file, "g7", "", viewer.Options{}, filepath.Join("run", "replays", "g7.html")},
		{file, "g7", "", seat1, filepath.Join("run", "replays", "g7.seat1.html")},
		{pack, "g3", "", viewer.Options{}, filepath.Join("run", "replays", "g3.html")},
		{pack, "g3", there, seat1, filepath.Join(there, "g3.seat1.html")},
		{pack, "g3", "new" + string(filepath.Separator), viewer.Options{}, filepath.Join("new", "g3.html")},
		{file, "g7", "for-bob.html", seat1, "for-bob.html"},
	}
	for _, tc := range tests {
		outDir := tc.out != "" && viewer.IsDir(tc.out)
		if got := viewer.Dest(tc.r, tc.gameID, tc.out, outDir, tc.opts); got != tc.want {
			t.Errorf("Dest(%s, %s, -o %q) = %s, want %s", tc.r.Path, tc.gameID, tc.out, got, tc.want)
		}
	}
}
