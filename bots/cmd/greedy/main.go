// Command greedy is the bundled greedy bot as a standalone program (see
// bots.Summary("greedy")). Same as `arena bot greedy`.
package main

import "github.com/arena-dev/arena/bots"

func main() { bots.Main("greedy") }
