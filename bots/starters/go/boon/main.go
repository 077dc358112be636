// Command bot is a Boon starter bot: copy it, then make it better.
//
// It takes the Boon with a hand of three Golds or more, buries its most
// valuable plain cards, wins a trick with the cheapest card that wins
// when the trick holds points, and otherwise throws its cheapest card.
// The SDK does the talking (hello, ready, turn ids, flushing, many games,
// bye); this file only chooses. See docs/sdk-go.md and docs/games/boon.md.
package main

import (
	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/boon"
)

// move is called on every turn with the view (hand, trick, mode, team,
// ...), the legal actions and the context (seeded Rand, options, time
// left). It returns the index of the chosen action in legal.
func move(v *boon.View, legal []boon.Action, c *sdk.Context) (int, error) {
	golds := 0
	for _, card := range v.HandCards() {
		if card.Suit() == boon.Gold {
			golds++
		}
	}
	winning := v.Winning() // boon.NoCard when this seat leads
	best, bestScore := 0, -1e9
	for i, a := range legal {
		card := a.Card
		score := 0.0
		switch a.Kind {
		case boon.KindTake:
			score = float64(golds - 3) // take with three Golds or more
		case boon.KindPass:
			score = 0
		case boon.KindBury:
			// Buried points count for the picker: bury plain cards with points.
			score = float64(card.Points())
			if card.Suit() == boon.Gold {
				score -= 100
			}
		case boon.KindPlay:
			wins := winning != boon.NoCard && boon.Beats(card, winning)
			if wins && v.Trick.Points+card.Points() > 0 {
				score = 100 - strength(card) // the cheapest winner
			} else {
				score = -strength(card) - float64(card.Points()) // throw the cheapest
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, nil
}

// strength orders cards for winning tricks: every Gold above every plain card.
func strength(card boon.Card) float64 {
	if card.Suit() == boon.Gold {
		return 10 + float64(card.Rank())
	}
	return float64(card.Rank())
}

func main() {
	sdk.Main(sdk.NewPlayer(move))
}
