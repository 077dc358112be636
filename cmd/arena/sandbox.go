package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/usage"
)

// sandboxCommand says how bots would be confined here: a run's summary
// line, then the details.
func sandboxCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "sandbox",
		Usage: "say how bots are confined on this machine: what enforces each limit and protection, what is missing and why",
		Description: `Prints the line a run starts with (match, tournament run, sprt, check, play,
connect, worker), then the details that run --verbose prints: which mechanism
enforces each limit and protection here, and why one is not. The sandbox
flags are the runs' own, so a run's settings can be tried first:

   arena sandbox
   arena sandbox --bot-memory 512MiB --bot-cpus 1
   sudo arena sandbox --contest`,
		Flags:  options.SandboxFlags(),
		Action: runSandbox,
	})
}

func runSandbox(c *cli.Context) error {
	if c.NArg() > 0 {
		return usage.Errorf("arena sandbox takes no arguments, only the sandbox flags: arena sandbox --bot-memory 512MiB")
	}
	sb, err := confineBots(c, nil, "")
	if err != nil {
		return err
	}
	output.Sandbox(c.App.Writer, sb)
	return nil
}

// sayConfinement is how a run starts: how bots are confined, in one
// line or (--verbose) in full (output.Confinement).
func sayConfinement(c *cli.Context, w io.Writer, prefix string, sb *sandbox.Sandbox) {
	output.Confinement(w, prefix, sb, c.Bool("verbose"))
}

// flagGroup reads the sandbox flags for specs, which see no output
// directory: their runplan.Group, which says how they are confined with
// prefix ("": says nothing).
func flagGroup(c *cli.Context, specs []bot.Spec, prefix string) (runplan.Group, error) {
	g, err := options.ReadGroup(c, specs)
	if prefix != "" {
		g.Confined = func(sb *sandbox.Sandbox) { sayConfinement(c, c.App.ErrWriter, prefix, sb) }
	}
	return g, err
}

// confineBots confines specs as the sandbox flags say (flagGroup).
func confineBots(c *cli.Context, specs []bot.Spec, prefix string) (*sandbox.Sandbox, error) {
	g, err := flagGroup(c, specs, prefix)
	if err != nil {
		return nil, err
	}
	return g.Confine()
}
