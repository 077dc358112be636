// Command ismcts is the bundled information-set MCTS bot as a standalone
// program (see docs/bots.md). Same as `arena bot ismcts`, with the same
// options:
//
//	ismcts -level medium
//	ismcts -iterations 2000
//	ismcts -time-fraction 0.3
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

func main() {
	var o bots.Options
	flag.StringVar(&o.Level, "level", "", "strength: weak, medium or strong (default strong)")
	flag.IntVar(&o.Iterations, "iterations", 0, "search iterations per move, instead of the level's budget")
	flag.Float64Var(&o.TimeFraction, "time-fraction", 0, "fraction of the move clock to search, instead of the level's budget")
	flag.Parse()
	bot, err := bots.NewWith("ismcts", o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ismcts:", err)
		os.Exit(2)
	}
	sdk.Main(bot, sdk.Options{Name: "ismcts", Version: "1"})
}
