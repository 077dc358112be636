package run_test

import (
	"testing"

	"github.com/arena-dev/arena/arena/run"
)

// TestIsMatchID: a match id NewMatchID makes is one IsMatchID knows, for
// its prefix only; other ids are not.
func TestIsMatchID(t *testing.T) {
	id := run.NewMatchID("banqi")
	for _, tc := range []struct {
		id, prefix string
		want       bool
	}{
		{id, "banqi", true},
		{id, "uno", false},
		{"sprt-" + id, "banqi", false},
		{id + "-g0001", "banqi", false},
		{"cup-c1-r01-1-2", "cup", false},
	} {
		if got := run.IsMatchID(tc.id, tc.prefix); got != tc.want {
			t.Errorf("IsMatchID(%q, %q) = %v, want %v", tc.id, tc.prefix, got, tc.want)
		}
	}
}
