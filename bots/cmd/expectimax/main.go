// Command expectimax is the bundled expectimax Banqi bot as a standalone
// program (see bots.Summary("expectimax")). Same as `arena bot
// expectimax`, with the same strength flags:
//
//	expectimax [--level weak|medium|strong] [--depth N] [--nodes N] [--time-fraction F]
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
	flag.IntVar(&o.Depth, "depth", 0, "fixed search depth per move, in plies (replaces the level's budget)")
	flag.Int64Var(&o.Nodes, "nodes", 0, "fixed search nodes per move (replaces the level's budget)")
	flag.Float64Var(&o.TimeFraction, "time-fraction", 0, "share of each move's clock to think for (replaces the level's budget)")
	flag.Parse()
	bot, err := bots.NewWith("expectimax", o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "expectimax: %v\n", err)
		os.Exit(2)
	}
	sdk.Main(bot, sdk.Options{Name: "expectimax", Version: "1"})
}
