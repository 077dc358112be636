package options_test

import (
	"fmt"
	"time"

	"github.com/arena-dev/arena/arena/options"
)

// A file's settings with the flags given laid over them, then resolved
// into what a run takes.
func Example() {
	file := options.Settings{Concurrency: 4, Clock: options.Clock{Move: options.Duration(2 * time.Second)}}
	var flags options.Given // as options.Read fills it from a command line
	flags.Set("clock.move", 500*time.Millisecond)
	flags.Set("failure.policy", "random")
	if err := options.Merge(&file, flags); err != nil {
		fmt.Println(err)
		return
	}
	s, err := file.Resolve(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(file.Concurrency, s.Limits.Move, s.Limits.Startup, s.Policy, s.MaxStrikes)
	// Output: 4 500ms 10s random 3
}
