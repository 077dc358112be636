package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/check"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/usage"
)

func checkCommand() *cli.Command {
	var list []string
	for _, c := range check.Checks {
		list = append(list, fmt.Sprintf("   %-17s %s", c.Name, c.Means))
	}
	return withUsage(&cli.Command{
		Name:      "check",
		Usage:     "run a bot through a protocol compliance session",
		ArgsUsage: "CMD",
		Description: `Plays --games games of --game against the bot in one process (the checker
plays the other seats with random legal moves), probing the protocol on the
way, then sends bye; a second process is offered an unknown protocol version.
CMD is one argument, split like a --bot command (quotes honoured, no shell;
"arena ..." runs this executable):

   arena check --game banqi 'python3 my_bot.py'

A remote bot, nats:BOTID, is checked as a match reaches it (--nats URL, or
a server of its own, printed, that arena connect --bot BOTID serves it on):
its lines are judged as a local bot's, but what only its process shows (its
exit status after bye, its process group) is seen where it runs: SKIPped.

Each check is printed as PASS, FAIL, WARN or SKIP with its reason. The first
protocol error (an answer that is not an action message with the turn's id,
or not ready to a hello) stops the session: its failure shows what to send
instead and the last lines exchanged. Progress lines go to stderr (off with
--json unless --progress). The exit status is 0 when no check failed, 1
otherwise (WARNs fail only with --strict).
The checks (docs/check.md explains each):

` + strings.Join(list, "\n"),
		Flags: append(append(append([]cli.Flag{
			// Not Required: urfave/cli would then report a missing --game
			// as an unknown command named after CMD.
			options.GameFlag("game to play (see arena games); required"),
			options.OptionFlag(),
			&cli.IntFlag{Name: "games", Value: 2, Usage: "games played in the same process (2 or more checks keep-alive)"},
			&cli.IntFlag{Name: "seats", Usage: "seats per game", DefaultText: "the game's minimum"},
			options.SeedFlag("seed for the deals and the checker's moves", "random, printed"),
		}, options.Flags(options.Check, "move-time", "startup-time", "margin", "max-line")...),
			&cli.BoolFlag{Name: "strict", Usage: "count warnings as failures"},
			options.JSONFlag("print one JSON report to stdout"),
			&cli.BoolFlag{Name: "progress", Usage: "progress lines on stderr: one per game and every few seconds", DefaultText: "on, off with --json"},
		), append(options.NATSFlags(), options.SandboxFlags()...)...),
		Action: runCheck,
	})
}

func runCheck(c *cli.Context) error {
	if c.NArg() != 1 {
		return usage.Errorf("arena check needs exactly one CMD, quoted if it has spaces: arena check --game banqi 'python3 my_bot.py'")
	}
	if c.String("game") == "" {
		return usage.Errorf("arena check needs --game GAME (see arena games)")
	}
	game, given, err := options.ReadGame(c)
	if err != nil {
		return usage.Wrap(err)
	}
	seats := c.Int("seats")
	if !c.IsSet("seats") {
		seats = game.Info().MinSeats
	}
	opts, err := engine.Setup(game, seats, given)
	if err != nil {
		return usage.Wrap(err)
	}
	cfg := check.Config{
		Game: game, Options: opts, Seats: seats, Games: c.Int("games"), Startup: options.DurationOf(c, "startup-time"),
		Move: options.DurationOf(c, "move-time"), Margin: options.DurationOf(c, "margin"), ByeGrace: time.Second,
		MaxLine: c.Int("max-line"), Strict: c.Bool("strict"),
	}
	if err := cfg.Validate(); err != nil {
		return checkFlagError(err)
	}
	if cfg.Seed, err = options.ReadSeed(c); err != nil {
		return usage.Wrap(err)
	}
	spec, err := bot.Parse("bot", c.Args().First(), "")
	if err != nil {
		return usage.Wrap(err)
	}
	// Confined as in a match, so that what passes here passes there; a
	// remote bot is reached as a match reaches it.
	plan := runplan.Plan{Bots: []bot.Spec{spec}, Wait: cfg.Startup, Log: c.App.ErrWriter}
	if err := options.ReadPlan(c, &plan, 1, seats); err != nil {
		return err
	}
	bots, err := plan.Open()
	if err != nil {
		return err
	}
	defer bots.Close()
	spec = bots.Bots[0]
	cfg.Bot, cfg.Command = spec.Launcher, check.Words(spec.Target)
	out := output.Check{W: c.App.Writer, Log: c.App.ErrWriter, JSON: c.Bool("json")}
	out.Start(cfg)
	if _, here := spec.Target.(bot.Local); !here {
		out.Elsewhere(spec.Target)
	} else if !out.JSON {
		sayConfinement(c, c.App.Writer, "arena check: ", bots.Sandbox)
	}
	if c.Bool("progress") || (!out.JSON && !c.IsSet("progress")) {
		out.Follow(&cfg)
	}
	rep, err := check.Run(cfg)
	if err != nil {
		return err
	}
	if err := out.Report(rep); err != nil {
		return err
	}
	return rep.Err()
}

// checkFlags name the flag that sets each check.Config field.
var checkFlags = map[string]string{"Games": "--games", "Move": "--move-time", "Startup": "--startup-time",
	"Margin": "--margin", "MaxLine": "--max-line"}

// checkFlagError says a field error of check.Config.Validate
// (check.FieldError) with the flag that set the field: "--games 0: want
// at least 1".
func checkFlagError(err error) error {
	var fe *check.FieldError
	if errors.As(err, &fe) {
		return usage.Errorf("%s %v", checkFlags[fe.Field], fe.Err)
	}
	return err
}
