// Command arena is the headless tournament arena: it runs game engines and
// referees matches between untrusted bot programs. See README.md.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	_ "github.com/arena-dev/arena/engine/all"
)

// Version is the arena's version, written into replays.
const Version = "0.1.0"

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the arena failed
	exitUsage = 2 // bad flags, unknown game/bot/option
)

// usageError marks mistakes in how arena was called (exit code 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func main() {
	os.Exit(run(os.Args))
}

func run(args []string) int {
	app := newApp()
	err := app.Run(args)
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(os.Stderr, "arena:", err)
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFail
}

func newApp() *cli.App {
	return &cli.App{
		Name:            "arena",
		Usage:           "a headless tournament arena for game-playing bots",
		Version:         Version,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {}, // run() reports errors and picks the exit code
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageError{err}
		},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(os.Stderr, "arena: unknown command %q (try arena --help)\n", name)
			os.Exit(exitUsage)
		},
		Commands: []*cli.Command{
			gamesCommand(),
			matchCommand(),
			botCommand(),
			replayCommand(),
		},
	}
}

// withUsage makes flag errors of a subcommand exit with code 2.
func withUsage(c *cli.Command) *cli.Command {
	c.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usageError{err} }
	for _, sub := range c.Subcommands {
		withUsage(sub)
	}
	return c
}
