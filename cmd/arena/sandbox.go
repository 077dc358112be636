package main

import (
	"errors"
	"io"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/usage"
)

// sandboxFlags are the bot confinement flags of match and tournament run.
// They have no Value so that a tournament file's limits stay unless a flag
// is given; the defaults are sandbox.DefaultLimits.
func sandboxFlags() []cli.Flag {
	d := sandbox.DefaultLimits
	return []cli.Flag{
		&cli.StringFlag{Name: "bot-memory", Usage: "memory per bot, with everything it starts (e.g. 512MiB; unlimited)", DefaultText: sandbox.FormatSize(d.Memory)},
		&cli.StringFlag{Name: "bot-cpu-time", Usage: "CPU time a bot process may use per game, whole seconds (e.g. 30s)", DefaultText: "unlimited"},
		&cli.StringFlag{Name: "bot-procs", Usage: "processes and threads per bot", DefaultText: strconv.FormatInt(d.Procs, 10)},
		&cli.StringFlag{Name: "bot-files", Usage: "open files per bot process", DefaultText: strconv.FormatInt(d.Files, 10)},
		&cli.StringFlag{Name: "bot-file-size", Usage: "largest file a bot may write", DefaultText: sandbox.FormatSize(d.FileSize)},
		&cli.StringFlag{Name: "bot-cpus", Usage: "CPU rate per bot, in cores (e.g. 0.5, 2; throttled past it)", DefaultText: "unlimited"},
		&cli.StringFlag{Name: "bot-disk", Usage: "size of an isolated bot's writable directory", DefaultText: sandbox.FormatSize(d.Disk)},
		&cli.StringFlag{Name: "bot-isolate", Usage: "give each bot a read-only view of the files, a private directory and its own processes: auto (where the machine allows), yes (or refuse to start), no", DefaultText: "auto"},
		&cli.StringFlag{Name: "bot-user", Usage: "run every bot process as this user (needs root; by default an isolated bot of a root arena runs as a uid of its own)"},
		&cli.StringFlag{Name: "bot-uids", Usage: "the uids isolated bot processes of a root arena run as, one each", DefaultText: sandbox.DefaultUIDs},
		&cli.StringFlag{Name: "bot-network", Usage: "loopback (each bot process has only a loopback of its own), none, or host (the host's network: bots reach each other and the machine)", DefaultText: "loopback where the machine allows it"},
		&cli.BoolFlag{Name: "bot-no-network", Usage: "the same as --bot-network none"},
		&cli.StringSliceFlag{Name: "bot-ro", Usage: "show PATH read-only to isolated bots, at the same place (repeatable)"},
		&cli.StringSliceFlag{Name: "bot-rw", Usage: "show PATH writable to isolated bots: shared by every bot process, so a channel between them (repeatable; --contest refuses it)"},
		&cli.BoolFlag{Name: "contest", Usage: "refuse to start unless every protection against bots passing hidden information is in place (docs/security.md)"},
		// The flag takes one NAME=VALUE each time, commas and all; the
		// variable is a list, split at commas, for the environment the
		// arena is started from (a test harness, a CI job).
		&cli.StringSliceFlag{Name: "bot-env", Usage: "add NAME=VALUE to the bots' scrubbed environment; a bare NAME passes the arena's value (repeatable, one variable each; the arena's ARENA_BOT_ENV adds a comma-separated list)"},
		&cli.BoolFlag{Name: "verbose", Usage: "say at start how bots are confined in full: what enforces each limit and protection here, and why one is missing (by default one line)"},
	}
}

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
		Flags:  sandboxFlags(),
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

// sandboxFlagNames name the flag behind each sandbox option.
var sandboxFlagNames = map[string]string{"User": "--bot-user", "Network": "--bot-network", "Isolate": "--bot-isolate",
	"Env": "--bot-env", "CPUs": "--bot-cpus", "UIDs": "--bot-uids", "ReadOnly": "--bot-ro", "ReadWrite": "--bot-rw",
	"Contest": "--contest"}

// flagRefusal names the flag behind a refusal of the bots
// (runplan.Plan.Refused): --out, or the sandbox flag.
func flagRefusal(refused *runplan.RefusedError) error {
	if refused.Dir != "" {
		return usage.Errorf("--out %s: %w", refused.Dir, refused.Err)
	}
	var oe *sandbox.OptionError
	var ce *sandbox.ContestError
	switch {
	case errors.As(refused.Err, &oe):
		if flag, ok := sandboxFlagNames[oe.Option]; ok {
			return usage.Errorf("%s: %w", flag, oe.Err)
		}
	case errors.As(refused.Err, &ce):
		return usage.Errorf("--%w", refused.Err)
	}
	return usage.Wrap(refused.Err)
}

// limitFlags reads the sandbox flags: the limits and options of
// sandbox.New.
func limitFlags(c *cli.Context) (sandbox.Limits, sandbox.Options, error) {
	lf, err := options.ReadLimits(c)
	if err != nil {
		return sandbox.Limits{}, sandbox.Options{}, usage.Wrap(err)
	}
	lim, err := lf.Resolve()
	if err != nil {
		var fe *options.FieldError
		if errors.As(err, &fe) { // the limits field the flag --bot-FIELD sets
			return lim, sandbox.Options{}, usage.Errorf("%s: %v", options.LimitFlag(fe.Field), fe.Err)
		}
		return lim, sandbox.Options{}, usage.Wrap(err)
	}
	return lim, lf.Options("."), nil
}

// flagGroup reads the sandbox flags for specs, which see no output
// directory: their runplan.Group, which says how they are confined with
// prefix ("": says nothing).
func flagGroup(c *cli.Context, specs []bot.Spec, prefix string) (runplan.Group, error) {
	lim, opts, err := limitFlags(c)
	g := runplan.Group{Bots: specs, Limits: lim, Sandbox: opts, Refused: flagRefusal}
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
