package ismcts_test

import (
	"fmt"

	"github.com/arena-dev/arena/bots/ismcts"
	"github.com/arena-dev/arena/engine/boon"
)

// Greedy's pick and burial, as the strong level models the other seats:
// a four-seat hand takes the Boon at a PickStrength of TakeBar or more,
// and buries first the plain card of highest BuryScore.
func ExamplePickStrength() {
	var hand boon.Set
	for _, s := range []string{"B2", "G6", "R5", "Au3", "Au9", "Au12", "Au14"} {
		c, _ := boon.ParseCard(s)
		hand |= boon.SetOf(c)
	}
	fmt.Printf("strength %.2f, bar %.1f (the dealer's %.1f)\n", ismcts.PickStrength(hand), ismcts.TakeBar(4, false), ismcts.TakeBar(4, true))
	best, bestScore := boon.Card(0), -1e9
	for _, c := range hand.Cards() {
		if sc := ismcts.BuryScore(hand, c); sc > bestScore {
			best, bestScore = c, sc
		}
	}
	fmt.Println("buries first", best)
	// Output:
	// strength 10.05, bar 7.0 (the dealer's 6.5)
	// buries first G6
}
