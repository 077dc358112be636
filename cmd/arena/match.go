package main

import (
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

func matchCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "match",
		Usage: "play games between bots, one bot per seat",
		Description: `Each --bot NAME=CMD takes one seat. CMD is split like a shell would (quotes
honoured) but run without a shell; a CMD starting with "arena" runs this same
executable, so bundled bots need nothing installed:

   arena match --game banqi --bot a='arena bot greedy' --bot b='arena bot random' --games 20

Consecutive games replay the same seed with the seats rotated, so seat and
card luck cancel over each full rotation.

Every bot runs confined (docs/security.md): in a directory of its own, with
only PATH, HOME, TMPDIR, LANG, LC_ALL, ARENA_BOT_NAME and --bot-env variables,
and within --bot-memory, --bot-procs, --bot-files, --bot-file-size and
--bot-cpu-time. The arena prints which mechanism enforces each limit.`,
		Flags: append([]cli.Flag{
			// Not Required: urfave/cli would print the whole help for it
			// and exit 1; runMatch says what is missing in one line.
			gameFlag("game to play (see arena games); required"),
			&cli.StringSliceFlag{Name: "bot", Usage: "NAME=CMD, one per seat, in seat order"},
			optionFlag(),
			&cli.IntFlag{Name: "games", Usage: "games to play", DefaultText: "one full seat rotation, as many games as seats"},
			options.Flags(options.Match, "concurrency")[0],
			options.SeedFlag("match seed; the deals follow from it and the deal secret", "random, printed"),
			options.Flags(options.Own, "deal-secret")[0],
			&cli.BoolFlag{Name: "fresh-deals", Usage: "a new deal for every game instead of replaying one deal with seats rotated (see docs/security.md)"},
			&cli.StringFlag{Name: "out", Usage: "directory for results.jsonl, replays/ and logs/"},
			jsonFlag("print one JSON summary object to stdout"),
			quietFlag("no per-game progress lines"),
			&cli.StringFlag{Name: "trace", Usage: "print one bot's protocol lines to stderr as they pass (`NAME`, or the number of its --bot, from 0): > to the bot, < from it, ! what went wrong"},
		}, append(append(append(options.Referee(), natsFlags()...), distributedFlags()...), sandboxFlags()...)...),
		Action: runMatch,
	})
}

func runMatch(c *cli.Context) error {
	if c.NArg() > 0 {
		return usage.Errorf("unexpected argument %q (bots are given with --bot NAME=CMD)", c.Args().First())
	}
	if c.String("game") == "" {
		return usage.Errorf("--game is required, with one --bot NAME=CMD per seat: e.g. arena match --game banqi " +
			"--bot a='arena bot greedy' --bot b='arena bot random' (arena games lists the games, arena help match every flag)")
	}
	game, given, err := gameAndOptions(c)
	if err != nil {
		return err
	}
	specs, err := parseBots(c.StringSlice("bot"))
	if err != nil {
		return err
	}
	opts, err := engine.Setup(game, len(specs), given)
	if err != nil {
		return usage.Wrap(err)
	}
	settings, err := runSettings(c)
	if err != nil {
		return err
	}
	seats := len(specs)
	games := c.Int("games")
	if !c.IsSet("games") {
		games = match.Rotation(seats)
	}
	if games < 1 {
		return usage.Errorf("--games %d: want at least 1", games)
	}
	concurrency := c.Int("concurrency")
	if concurrency < 1 {
		return usage.Errorf("--concurrency %d: want at least 1", concurrency)
	}
	seed, err := seedFlag(c)
	if err != nil {
		return err
	}
	out := c.String("out")
	o, progress := runOutput(c, output.MatchText, out != "")
	if rot := match.Rotation(seats); games%rot != 0 && !c.Bool("fresh-deals") {
		o.Warn(fmt.Sprintf("--games %d is not a multiple of %d, so seats are not rotated evenly", games, rot))
	}
	plan, err := runPlan(c, specs, out, settings, concurrency, seats)
	if err != nil {
		return err
	}
	plan.Confined = func(r *runplan.Run) {
		output.MatchHeader(progress, game.Info().Name, games, seed, r.SecretNote(out), settings.Limits)
		sayConfinement(c, progress, "arena: ", r.Sandbox)
	}
	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	start := time.Now()
	r, err := plan.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	if w := run.LoadWarning(concurrency, seats); w != "" && r.Executor == nil && c.IsSet("concurrency") { // played here, not by workers
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: %s\n", w)
	}
	sum, err := match.Run(ctx, match.Config{
		Settings: settings, Game: game, Options: opts, Games: games, Seed: seed, Secret: r.Secret, OutDir: out, Version: Version,
		Concurrency: concurrency, Executor: r.Executor,
		OnGame: func(r ledger.Record) { o.Game(output.Game{Record: r, Total: games}) },
		Warn:   c.App.ErrWriter, // a stale lock, leftovers removed, lost stderr logs
	}, r.Bots)
	r.Flush() // the trace's last lines before the summary, not after it
	if oerr := o.End(output.End{Summary: sum, Took: time.Since(start)}); oerr != nil {
		return oerr
	}
	return r.Err(err)
}

// runOutput is a run's Output as --quiet and --json say (output.New),
// and the writer of its own first lines (nowhere with --quiet).
func runOutput(c *cli.Context, kind output.Kind, kept bool) (output.Output, io.Writer) {
	o := output.Options{Kind: kind, Progress: c.App.ErrWriter, Out: c.App.Writer, Quiet: c.Bool("quiet"), JSON: c.Bool("json"), Kept: kept}
	return output.New(o), o.Lines()
}

// runPlan reads the flags of a run's bots (runplan.Plan) given with
// --bot, --base or --test: the sandbox flags, --deal-secret, --trace,
// and where remote bots and workers are, for a run of settings at
// concurrency, of games of seats.
func runPlan(c *cli.Context, specs []bot.Spec, out string, settings run.Settings, concurrency, seats int) (runplan.Plan, error) {
	lim, opts, err := limitFlags(c)
	if err != nil {
		return runplan.Plan{}, err
	}
	p := runplan.Plan{Bots: specs, Out: out, SecretFile: c.String("deal-secret"), Limits: lim, Sandbox: opts, Refused: flagRefusal,
		Wait: settings.Limits.Startup, Trace: c.String("trace"), Log: c.App.ErrWriter, Version: Version}
	p.NATS, p.Distributed = runNATS(c, concurrency, seats)
	return p, nil
}

// parseBots reads --bot NAME=CMD flags (bot.ParseFlags), one bot each.
func parseBots(flags []string) ([]bot.Spec, error) {
	if len(flags) == 0 {
		return nil, usage.Errorf("no bots: give one --bot NAME=CMD per seat")
	}
	specs, err := bot.ParseFlags("bot", flags)
	return specs, usage.Wrap(err)
}

// parseOptions reads --option k=v (options.RuleOptions).
func parseOptions(values []string) (map[string]string, error) {
	opts, err := options.RuleOptions(values)
	return opts, usage.Wrap(err)
}

// runSettings reads the referee flags (options.Referee) and
// --fresh-deals.
func runSettings(c *cli.Context) (run.Settings, error) {
	s, err := options.RunSettings(c)
	return s, usage.Wrap(err)
}
