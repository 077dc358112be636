// Command arena is the headless tournament arena: it runs game engines and
// referees matches between untrusted bot programs. See README.md.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sandbox"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/argorder"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/internal/version"
)

// Version is the arena's version, written into replays.
const Version = "0.1.0"

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the arena failed
	exitUsage = 2 // bad flags, unknown game/bot/option
)

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

// exitStatus is the exit status for err, the one place errors are mapped
// to it: an error that carries its own code (an SPRT verdict, an
// interrupted tournament) has it; the command line's mistakes (usage.Is:
// a flag's value, a file named that is not there, a DIR that holds no
// arena results, ...) exit 2; any other error is the arena's failure.
func exitStatus(err error) int {
	var coded cli.ExitCoder
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &coded):
		return coded.ExitCode()
	case usage.Is(err):
		return exitUsage
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
			return usage.Wrap(err)
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
			ladderCommand(),
			sprtCommand(),
			reportCommand(),
			checkCommand(),
			connectCommand(),
			workerCommand(),
			benchCommand(),
			engineCommand(),
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
	c.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usage.Wrap(err) }
	c.HideHelpCommand = len(c.Subcommands) == 0
	for _, sub := range c.Subcommands {
		withUsage(sub)
	}
	return c
}

// versionOf is --version's text: Version and the commit built from.
func versionOf(info *debug.BuildInfo, ok bool) string { return version.Text(Version, info, ok) }
