package seed_test

import (
	"fmt"

	"github.com/arena-dev/arena/arena/seed"
)

// A run's seed, the seeds derived from it and the seeds bots are sent
// are all below 2^53; the derivations are fixed, so a run is reproduced
// from its seed (and its deal secret, see package deal).
func Example() {
	run := uint64(42)
	game := seed.Derive(run, "check", 0)
	fmt.Println(game, game <= seed.Mask)
	fmt.Println(seed.Bot(game, 0) != seed.Bot(game, 1))
	fmt.Println(seed.Random() <= seed.Mask)
	// Output:
	// 4283763817726064 true
	// true
	// true
}
