// Command random is the bundled random bot as a standalone program: a
// uniformly random legal action, seeded from hello. Same as `arena bot random`.
package main

import (
	"fmt"
	"os"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

func main() {
	bot, _ := bots.New("random")
	if err := sdk.Run(os.Stdin, os.Stdout, bot, sdk.Options{Name: "random", Version: "1"}); err != nil {
		fmt.Fprintln(os.Stderr, "random:", err)
		os.Exit(1)
	}
}
