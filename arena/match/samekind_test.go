package match

import (
	"testing"

	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/internal/testkit"
)

// TestSameKind: the games a match adds to are those of a match of the
// same game, or of its own match id, whatever that id holds ("-g" too).
func TestSameKind(t *testing.T) {
	g, _ := testkit.Setup(t, "banqi", 2, nil)
	other := run.NewMatchID("banqi")
	for _, tc := range []struct {
		id, matchID string
		want        bool
	}{
		{other + "-g0003", "", true},
		{run.NewMatchID("uno") + "-g0003", "", false},
		{"sprt-" + other + "-g00003", "", false},
		{"cup-c1-r01-1-2", "", false},
		{"my-game-g0001", "my-game", true},
		{"my-game-g0001", "my", false},
	} {
		if got := sameKind(tc.id, Config{Game: g, MatchID: tc.matchID}); got != tc.want {
			t.Errorf("sameKind(%q) with match id %q = %v, want %v", tc.id, tc.matchID, got, tc.want)
		}
	}
}
