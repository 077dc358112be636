package matchmaking_test

import (
	"fmt"

	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/stats"
)

// A 2-seat ladder of four bots: a newcomer that just joined, two placed
// bots and one that nobody serves. The newcomer gets the table, against
// the placed bot whose game with it says the most, seated where it has
// played least (bot 11 is one game short in seat 1); the unserved bot
// is skipped.
func ExampleMatchmaker_Next() {
	mm, err := matchmaking.New(matchmaking.Params{Seats: matchmaking.Seats{Min: 2, Max: 2}, MaxGap: 20}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	bots := []matchmaking.Bot{
		{ID: 10, Skill: stats.Skill{Mu: 30, Sigma: 1.5}, Games: 80, Last: 40, Seats: []int{40, 40}, Available: true},
		{ID: 11, Skill: stats.Skill{Mu: 24, Sigma: 1.8}, Games: 76, Last: 41, Seats: []int{39, 37}, Available: true},
		{ID: 12, Skill: stats.Skill{Mu: 28, Sigma: 2.0}, Games: 60, Last: 30, Seats: []int{30, 30}, Available: false},
		{ID: 13, Skill: stats.DefaultSkill(), Last: 41, Available: true}, // joined after table 41
	}
	t, ok := mm.Next(42, bots)
	fmt.Println(ok, t.Reason, t.Bots)
	// Output:
	// true placement [13 11]
}

// Spearman compares a ladder's order with the true one: copies of a bot
// (equal true strengths) may come in either order.
func ExampleSpearman() {
	truth := []float64{1, 1, 2, 3}       // two copies of the weakest bot
	standings := []float64{-2, -3, 5, 9} // the copies swapped: still right
	swapped := []float64{-2, -3, 9, 5}   // the two best swapped
	fmt.Printf("%.2f %.2f\n", matchmaking.Spearman(standings, truth), matchmaking.Spearman(swapped, truth))
	// Output:
	// 0.95 0.74
}
