// Command bot is a Banqi starter bot: copy it, then make it better.
//
// It captures the most valuable piece it can, otherwise flips a random
// face-down piece, otherwise makes a random move. The SDK does the
// talking (hello, ready, turn ids, flushing, many games, bye); this file
// only chooses. See docs/sdk-go.md and docs/games/banqi.md.
package main

import (
	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/banqi"
)

// move is called on every turn with the view (the board, captured
// pieces, ...), the legal actions and the context (seeded Rand, options,
// time left). It returns the index of the chosen action in legal.
func move(v *banqi.View, legal []banqi.Action, c *sdk.Context) (int, error) {
	best, bestRank := -1, 0
	var flips, moves []int
	for i, a := range legal {
		switch a.Type {
		case banqi.Capture:
			// The piece on the target square, e.g. 'k' (a black King).
			if r := banqi.Rank(v.Ranks, v.At(a.To).Kind()); r > bestRank {
				best, bestRank = i, r
			}
		case banqi.Flip:
			flips = append(flips, i)
		default: // banqi.Move, banqi.Stop
			moves = append(moves, i)
		}
	}
	switch {
	case best >= 0:
		return best, nil
	case len(flips) > 0:
		return flips[c.Rand.IntN(len(flips))], nil
	}
	return moves[c.Rand.IntN(len(moves))], nil
}

func main() {
	sdk.Main(sdk.NewPlayer(move))
}
