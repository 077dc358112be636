package deal_test

import (
	"fmt"
	"os"

	"github.com/arena-dev/arena/arena/deal"
)

// A run makes a secret, stores it with its results and derives every deal
// from the run's seed and the secret; a rerun that reads the secret back
// deals the same cards, and one with a new secret does not.
func Example() {
	dir, err := os.MkdirTemp("", "deal-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	secret, err := deal.InDir(dir, nil) // a fresh secret, written to dir/deal-secret (0600)
	if err != nil {
		panic(err)
	}
	const runSeed = 42 // published: in the tournament file, on the command line
	first := secret.Seed(runSeed, "deal", 0)

	again, err := deal.InDir(dir, nil) // a resume reads it back
	if err != nil {
		panic(err)
	}
	fmt.Println("same secret, same deal:", again.Seed(runSeed, "deal", 0) == first)
	fmt.Println("new secret, same deal:", deal.New().Seed(runSeed, "deal", 0) == first)
	// Output:
	// same secret, same deal: true
	// new secret, same deal: false
}
