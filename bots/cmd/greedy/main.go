// Command greedy is the bundled greedy bot as a standalone program (see
// bots.Summary("greedy")). Same as `arena bot greedy`.
package main

import (
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

func main() {
	bot, _ := bots.New("greedy")
	sdk.Main(bot, sdk.Options{Name: "greedy", Version: "1"})
}
