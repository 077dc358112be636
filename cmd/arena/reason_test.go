package main

import (
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/output"
)

// TestGameLineNamesTheReasonsSeats: a game's progress line says who the
// seat its reason names is ("seat 1 (crash5) reached ..."), not "seat 1"
// alone.
func TestGameLineNamesTheReasonsSeats(t *testing.T) {
	r := ledger.Record{Index: 0, GameID: "m-g0000", Bots: []string{"me", "crash5"}, Ranks: []int{2, 1},
		Reason: "seat 1 reached 248 points after 1 hand", Plies: 40}
	if line := output.GameLine(r, 4, false); !strings.Contains(line, "seat 1 (crash5) reached 248 points after 1 hand") {
		t.Errorf("the game line does not name seat 1's bot:\n%s", line)
	}
}
