// Command expectimax is the bundled expectimax Banqi bot as a standalone
// program (see bots.Summary("expectimax")). Same as `arena bot
// expectimax`, with the same strength flags:
//
//	expectimax [--level weak|medium|strong] [--depth N] [--nodes N] [--time-fraction F]
package main

import "github.com/arena-dev/arena/bots"

func main() { bots.Main("expectimax") }
