// Command ismcts is the bundled information-set MCTS bot as a standalone
// program (see docs/bots.md). Same as `arena bot ismcts`, with the same
// strength flags:
//
//	ismcts [--level weak|medium|strong] [--iterations N] [--time-fraction F]
package main

import "github.com/arena-dev/arena/bots"

func main() { bots.Main("ismcts") }
