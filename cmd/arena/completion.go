package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/internal/completion"
	"github.com/arena-dev/arena/internal/usage"
)

func completionCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "SHELL",
		Description: `Completes commands and flags. Load it in the running shell, or install it:

   source <(arena completion bash)       # or put it in ~/.bashrc
   arena completion zsh > "${fpath[1]}/_arena"
   arena completion fish > ~/.config/fish/completions/arena.fish`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usage.Errorf("arena completion needs one SHELL: bash, zsh or fish")
			}
			shell := c.Args().First()
			script, err := completion.Script(c.App, shell)
			if errors.Is(err, completion.ErrShell) {
				return usage.Errorf("arena completion %q: want bash, zsh or fish", shell)
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(c.App.Writer, script)
			return err
		},
	})
}
