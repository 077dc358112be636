package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

func botCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:      "bot",
		Usage:     "run a bundled bot over stdin/stdout (" + strings.Join(bots.Names(), ", ") + ")",
		ArgsUsage: "NAME",
		Description: `Speaks the protocol on stdin/stdout, so it can play in a match (a CMD
starting with "arena" runs this executable) or be typed to by hand:

   arena match --game banqi --bot me='python3 my_bot.py' --bot greedy='arena bot greedy'
   arena bot random`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				var lines []string
				for _, n := range bots.Names() {
					lines = append(lines, fmt.Sprintf("  %-8s %s", n, bots.Summary(n)))
				}
				return usagef("arena bot needs one bot name; bundled bots:\n%s", strings.Join(lines, "\n"))
			}
			name := c.Args().First()
			bot, err := bots.New(name)
			if err != nil {
				return usageError{err}
			}
			return sdk.Run(os.Stdin, os.Stdout, bot, sdk.Options{Name: name, Version: Version})
		},
	})
}
