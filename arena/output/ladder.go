package output

import (
	"fmt"
	"strings"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/words"
)

// LadderGame is a ladder's progress line for a game it counted: the
// game's number in the ledger (a ladder has no total), its id, the
// places, plies and how it ended, its forfeits and strikes (as
// GameLine says them; the ladder keeps every log), and each bot's
// rating after it, as rating tells it (the ladder's mu - 3 sigma):
//
//	game 12 cup-t000006-g2: greedy.v1 1st, me.v1 2nd, 54 plies, all 16 red pieces captured; ratings greedy.v1 3.2, me.v1 -1.5
func LadderGame(r ledger.Record, rating func(version string) float64) string {
	ratings := make([]string, len(r.Bots))
	for i, b := range r.Bots {
		ratings[i] = fmt.Sprintf("%s %.1f", b, rating(b))
	}
	return fmt.Sprintf("game %d %s: %s, %s, %s%s; ratings %s", r.Index+1, r.GameID, PlacesText(r.Bots, r.Ranks),
		words.Count(r.Plies, "ply", "plies"), engine.NameSeats(r.Reason, r.Bots), failuresText(r, true), strings.Join(ratings, ", "))
}
