package ismcts_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/bots/ismcts"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
)

// Rollout plays whole games of every game it has a policy for, each
// action legal, at the fewest and most seats; Banqi has none.
func TestRolloutPlaysWholeGames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"uno", "bounce", "boon", "banqi"} {
		g, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		r := ismcts.Rollout(name)
		if (r == nil) != (name == "banqi") {
			t.Fatalf("%s: Rollout is nil: %v", name, r == nil)
		}
		if r == nil {
			continue
		}
		info := g.Info()
		for _, seats := range []int{info.MinSeats, min(info.MaxSeats, 6)} {
			opts, err := engine.Setup(g, seats, map[string]string{})
			if err != nil {
				t.Fatal(err)
			}
			st, err := g.New(seats, uint64(seats), opts)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(seats)))
			for plies := 0; !st.Over(); plies++ {
				if plies > 100000 {
					t.Fatalf("%s at %d seats: no end after %d plies", name, seats, plies)
				}
				if err := st.Apply(r(st, rng)); err != nil {
					t.Fatalf("%s at %d seats: %v", name, seats, err)
				}
			}
		}
	}
}
