// Command random is the bundled random bot as a standalone program: a
// uniformly random legal action, seeded from hello. Same as `arena bot random`.
package main

import (
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

func main() {
	bot, _ := bots.New("random")
	sdk.Main(bot, sdk.Options{Name: "random", Version: "1"})
}
