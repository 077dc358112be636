// Command ismcts is the bundled information-set MCTS bot as a standalone
// program (see docs/bots.md). Same as `arena bot ismcts`, with the same
// strength flags:
//
//	ismcts [--level weak|medium|strong] [--iterations N] [--time-fraction F]
package main

import (
	"fmt"
	"os"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

func main() {
	o, err := bots.ParseOptions(os.Args[1:])
	if err == nil {
		var bot sdk.Bot
		if bot, err = bots.NewWith("ismcts", o); err == nil {
			sdk.Main(bot, sdk.Options{Name: "ismcts", Version: "1"})
			return
		}
	}
	fmt.Fprintf(os.Stderr, "ismcts: %v\n", err)
	os.Exit(2)
}
