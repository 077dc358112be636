// Command arena is the headless tournament arena: it runs game engines and
// referees matches between untrusted bot programs. See README.md.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/report"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/bots/starters"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/argorder"
	"github.com/arena-dev/arena/internal/version"
	"github.com/arena-dev/arena/replays/pick"
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

// inputErr makes an error about an input file that does not exist a usage
// error, as for every command: the file named is the mistake. Other errors
// (a file that is there but cannot be read or is damaged) stay failures.
func inputErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return usageError{err}
	}
	return err
}

func main() {
	// First of all: started by the sandbox as `arena __sandbox -- CMD`,
	// this process is a bot's wrapper, which confines itself and execs
	// CMD (and never returns here).
	sandbox.RunWrapperIfAsked()
	os.Exit(runMain(os.Args))
}

func runMain(args []string) int {
	if len(args) < 2 || args[1] != "bot" { // a bundled bot keeps Go's default
		run.TuneGC()
		if err := sandbox.ShieldArena(); err != nil {
			fmt.Fprintln(os.Stderr, "arena: warning: bots of this user may reach into the arena's process (prctl PR_SET_DUMPABLE:", err.Error()+")")
		}
	}
	app := newApp()
	app.Setup() // adds the help command, which argorder.FlagsFirst must know
	err := app.Run(argorder.FlagsFirst(app, args))
	if err != nil && err.Error() != "" { // an error with a code of its own may have said it all
		fmt.Fprintln(os.Stderr, "arena:", err)
	}
	return exitStatus(err)
}

// usageErrs are errors that are the command line's mistake wherever they
// are found (exit 2): a DIR that holds no arena results, a starter kit
// for a language or game there is none of, or into a DIR that is not
// new. (A damaged ledger or sprt.json, a file that cannot be written,
// are the run's or the disk's.)
var usageErrs = []error{report.ErrNotResults, starters.ErrNoKit, starters.ErrNotEmpty, starters.ErrNotDir}

// exitStatus is the exit status for err, the one place errors are mapped
// to it, by their types: an error that carries its own code (an SPRT
// verdict, an interrupted tournament) has it; the command line's
// mistakes (usageError, runplan.UsageError, what replay FILEs name
// wrongly or that is not there, usageErrs) exit 2; any other error is
// the arena's failure.
func exitStatus(err error) int {
	var coded cli.ExitCoder
	var u usageError
	var planned *runplan.UsageError
	var picked *pick.ArgError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &coded):
		return coded.ExitCode()
	case errors.As(err, &u), errors.As(err, &planned):
		return exitUsage
	case errors.As(err, &picked) && (picked.Mistake || errors.Is(picked, fs.ErrNotExist)):
		return exitUsage
	}
	for _, target := range usageErrs {
		if errors.Is(err, target) {
			return exitUsage
		}
	}
	return exitFail
}

func newApp() *cli.App {
	return &cli.App{
		Name:    "arena",
		Usage:   "a headless tournament arena for game-playing bots",
		Version: versionOf(debug.ReadBuildInfo()),
		Description: `Start with a match of the bundled bots, then check your own bot:

   arena games
   arena match --game banqi --bot greedy='arena bot greedy' --bot random='arena bot random' --games 20
   arena check --game banqi 'python3 my_bot.py'

arena help COMMAND (or arena COMMAND --help) shows a command's flags and
examples; arena completion bash|zsh|fish prints a shell completion script.`,
		// Repeatable flags take one value each: a comma belongs to the
		// value (a --bot command such as 'python3 bot.py --weights a,b',
		// a --bot-env value), it does not separate two. ARENA_BOT_ENV is the
		// one comma-separated list, split by the arena (options.SandboxFlags).
		DisableSliceFlagSeparator: true,
		EnableBashCompletion:      true,
		ExitErrHandler:            func(*cli.Context, error) {}, // runMain reports errors and picks the exit code
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
			playCommand(),
			newCommand(),
			botCommand(),
			replayCommand(),
			tournamentCommand(),
			sprtCommand(),
			reportCommand(),
			checkCommand(),
			connectCommand(),
			workerCommand(),
			benchCommand(),
			sandboxCommand(),
			serveCommand(),
			natsCommand(),
			completionCommand(),
		},
	}
}

// withUsage makes flag errors of a subcommand exit with code 2. A command
// without subcommands gets no "help" subcommand (urfave/cli would add
// one, taking "help" from its arguments: `arena bot help`); arena help
// COMMAND and COMMAND --help remain.
func withUsage(c *cli.Command) *cli.Command {
	c.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usageError{err} }
	c.HideHelpCommand = len(c.Subcommands) == 0
	for _, sub := range c.Subcommands {
		withUsage(sub)
	}
	return c
}

// versionOf is --version's text: Version and the commit built from.
func versionOf(info *debug.BuildInfo, ok bool) string { return version.Text(Version, info, ok) }
