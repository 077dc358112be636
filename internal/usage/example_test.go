package usage_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/arena-dev/arena/internal/usage"
)

// Whether an error is the command line's mistake (exit 2) or a failure
// of what was asked (exit 1) is decided where the error is made, and
// read back with one rule, however deeply it is wrapped.
func ExampleIs() {
	flag := usage.Errorf("--games %d: want at least 1", 0)
	wrapped := fmt.Errorf("arena match: %w", flag)
	disk := errors.New("write results.jsonl: no space left on device")
	_, notThere := os.Open("no-such-tournament.yaml")

	fmt.Println(usage.Is(wrapped), usage.Is(disk), usage.Is(usage.Missing(notThere)))
	// Output: true false true
}
