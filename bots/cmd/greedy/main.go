// Command greedy is the bundled greedy bot as a standalone program (see
// bots.Summary("greedy")). Same as `arena bot greedy`.
package main

import (
	"fmt"
	"os"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

func main() {
	bot, _ := bots.New("greedy")
	if err := sdk.Run(os.Stdin, os.Stdout, bot, sdk.Options{Name: "greedy", Version: "1"}); err != nil {
		fmt.Fprintln(os.Stderr, "greedy:", err)
		os.Exit(1)
	}
}
