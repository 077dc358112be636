// Command bot is an Uno starter bot: copy it, then make it better.
//
// It catches a seat that forgot to call "uno", always makes the call
// itself, and otherwise plays its most valuable card, keeping Wilds for
// when nothing else plays and naming the colour it holds most. The SDK
// does the talking (hello, ready, turn ids, flushing, many games, bye);
// this file only chooses. See docs/sdk-go.md and docs/games/uno.md.
package main

import (
	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/uno"
)

// move is called on every turn with the view (hand, top card, counts,
// the decision asked of this seat, ...), the legal actions and the
// context (seeded Rand, options, time left). It returns the index of the
// chosen action in legal.
func move(v *uno.View, legal []uno.Action, c *sdk.Context) (int, error) {
	// How many cards of each colour the hand holds.
	var held [4]int
	for _, card := range v.HandCards() {
		if col := card.Colour(); col >= 0 {
			held[col]++
		}
	}
	best, bestScore := 0, -1e9
	for i, a := range legal {
		score := 0.0
		switch a.Type {
		case uno.ActCatch:
			score = 1000
		case uno.ActPlay, uno.ActJump:
			score = float64(a.Card.Points())
			if a.Card.IsWild() {
				score = -50 // a wild only when nothing else plays
			}
			if a.Colour >= 0 {
				score += float64(held[a.Colour]) // name the colour held most
			}
			if a.Uno {
				score += 100 // the same play with the call: never forget it
			}
		case uno.ActColour:
			score = float64(held[max(a.Colour, 0)])
		case uno.ActDraw, uno.ActKeep, uno.ActPass, uno.ActAccept:
			score = -100
		case uno.ActChallenge:
			score = -150 // challenging a Wild Draw Four is a gamble: don't
		}
		// Ties go to the first; c.Rand.Float64() would break them at random.
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, nil
}

func main() {
	sdk.Main(sdk.NewPlayer(move))
}
