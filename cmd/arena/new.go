package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/bots/starters"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/usage"
)

func newCommand() *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "write a starter kit: a bot to edit, its SDK and a README, in a new directory",
		ArgsUsage: "LANGUAGE GAME DIR",
		Description: `Writes DIR (which must not exist, or be empty) with a minimal bot for GAME in
LANGUAGE, the SDK beside it (a sandboxed bot sees only its own directory)
and a README of the next commands:

   arena new python uno mybot
   arena check --game uno 'python3 mybot/bot.py'
   arena match --game uno --bot me='python3 mybot/bot.py' --bot random='arena bot random' --games 20

A kit builds and runs where it is written, with no clone of this
repository and no network: it carries the docs its README links to, and a
Go kit is a module of its own with a copy of the SDK's source
(arena-sdk/, which its go.mod points to).

Languages (in upper or lower case): ` + starters.LanguageNames() + `.`,
		Action: runNew,
	}
}

func runNew(c *cli.Context) error {
	if c.NArg() != 3 {
		return usage.Errorf("want LANGUAGE GAME DIR, e.g. arena new python uno mybot (languages: %s)", starters.LanguageNames())
	}
	lang, game, dir := c.Args().Get(0), c.Args().Get(1), c.Args().Get(2)
	if _, err := engine.Lookup(game); err != nil {
		return usage.Wrap(err)
	}
	names, err := starters.Write(dir, lang, game)
	if err != nil { // no such kit, or DIR not new: exit 2 (usageErrs)
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: %s\n", dir, strings.Join(starters.TopLevel(names), ", "))
	fmt.Fprintf(c.App.Writer, "next: read %s, then run its commands\n", filepath.Join(dir, "README.md"))
	return nil
}
