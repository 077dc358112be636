// Command expectimax is the bundled expectimax Banqi bot as a standalone
// program (see bots.Summary("expectimax")). Same as `arena bot
// expectimax`, with the same strength flags:
//
//	expectimax [--level weak|medium|strong] [--depth N] [--nodes N] [--time-fraction F]
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
		if bot, err = bots.NewWith("expectimax", o); err == nil {
			sdk.Main(bot, sdk.Options{Name: "expectimax", Version: "1"})
			return
		}
	}
	fmt.Fprintf(os.Stderr, "expectimax: %v\n", err)
	os.Exit(2)
}
