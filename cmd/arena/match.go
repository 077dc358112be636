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
			options.GameFlag("game to play (see arena games); required"),
			&cli.StringSliceFlag{Name: "bot", Usage: "NAME=CMD, one per seat, in seat order"},
			options.OptionFlag(),
			&cli.IntFlag{Name: "games", Usage: "games to play", DefaultText: "one full seat rotation, as many games as seats"},
			options.Flags(options.Match, "concurrency")[0],
			options.SeedFlag("match seed; the deals follow from it and the deal secret", "random, printed"),
			options.Flags(options.Own, "deal-secret")[0],
			&cli.BoolFlag{Name: "fresh-deals", Usage: "a new deal for every game instead of replaying one deal with seats rotated (see docs/security.md)"},
			&cli.StringFlag{Name: "out", Usage: "directory for results.jsonl, replays/ and logs/"},
			options.JSONFlag("print one JSON summary object to stdout"),
			options.QuietFlag("no per-game progress lines"),
			&cli.StringFlag{Name: "trace", Usage: "print one bot's protocol lines to stderr as they pass (`NAME`, or the number of its --bot, from 0): > to the bot, < from it, ! what went wrong"},
		}, append(options.Referee(), options.PlanFlags()...)...),
		Action: runMatch,
	})
}

func runMatch(c *cli.Context) error {
	cfg, specs, err := matchConfig(c, c.String("game") != "", "--game is required, with one --bot NAME=CMD per seat: e.g. arena match --game banqi "+
		"--bot a='arena bot greedy' --bot b='arena bot random' (arena games lists the games, arena help match every flag)",
		func(specs []bot.Spec) (int, error) { return len(specs), nil })
	if err != nil {
		return err
	}
	seats := len(specs)
	o, progress := runOutput(c, output.MatchText, cfg.OutDir != "")
	if cfg.Uneven(seats) {
		o.Warn(fmt.Sprintf("--games %d is not a multiple of %d, so seats are not rotated evenly", cfg.Games, match.Rotation(seats)))
	}
	plan, err := runPlan(c, specs, cfg.OutDir, cfg.Settings, cfg.Concurrency, seats)
	if err != nil {
		return err
	}
	plan.Confined = func(r *runplan.Run) {
		output.MatchHeader(progress, cfg.Game.Info().Name, cfg.Games, cfg.Seed, r.SecretNote(cfg.OutDir), cfg.Limits)
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
	if w := run.LoadWarning(cfg.Concurrency, seats); w != "" && r.Executor == nil && c.IsSet("concurrency") { // played here, not by workers
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: %s\n", w)
	}
	cfg.Secret, cfg.Executor = r.Secret, r.Executor
	cfg.OnGame = func(r ledger.Record) { o.Game(output.Game{Record: r, Total: cfg.Games}) }
	cfg.Warn = c.App.ErrWriter // a stale lock, leftovers removed, lost stderr logs
	sum, err := match.Run(ctx, cfg, r.Bots)
	r.Flush() // the trace's last lines before the summary, not after it
	if oerr := o.End(output.End{Summary: sum, Took: time.Since(start)}); oerr != nil {
		return oerr
	}
	return r.Err(err)
}

// matchConfig reads what arena match and play share, in this order: no
// arguments, --game (unless given, missing says what to do), --option, the
// --bot flags, the bot --trace names (if given: play has none), the bots
// seated (how many seats they make, or their mistake), the
// game's rules for that many seats, the referee flags, --games (without
// a default of its own, one full seat rotation), --concurrency where
// given and --seed; with --out, a match's Config but for its bots'
// secret, executor and output.
func matchConfig(c *cli.Context, given bool, missing string, seated func([]bot.Spec) (int, error)) (match.Config, []bot.Spec, error) {
	if c.NArg() > 0 {
		return match.Config{}, nil, usage.Errorf("unexpected argument %q (bots are given with --bot NAME=CMD)", c.Args().First())
	}
	if !given {
		return match.Config{}, nil, usage.Errorf("%s", missing)
	}
	game, opts, err := options.ReadGame(c)
	if err != nil {
		return match.Config{}, nil, usage.Wrap(err)
	}
	specs, err := parseBots(c.StringSlice("bot"))
	if err != nil {
		return match.Config{}, nil, err
	}
	// --trace is the bots' mistake: said before any other flag's, and
	// before a warning about the games (Plan.Open only finds it again).
	if which := c.String("trace"); which != "" {
		if _, err := runplan.FindBot(specs, which); err != nil {
			return match.Config{}, nil, err
		}
	}
	seats, err := seated(specs)
	if err != nil {
		return match.Config{}, nil, err
	}
	cfg := match.Config{Game: game, Games: c.Int("games"), OutDir: c.String("out"), Version: Version}
	if cfg.Options, err = engine.Setup(game, seats, opts); err != nil {
		return match.Config{}, nil, usage.Wrap(err)
	}
	if cfg.Settings, err = runSettings(c); err != nil {
		return match.Config{}, nil, err
	}
	if !c.IsSet("games") && cfg.Games == 0 {
		cfg.Games = match.Rotation(seats)
	}
	if cfg.Games < 1 {
		return match.Config{}, nil, usage.Errorf("--games %d: want at least 1", cfg.Games)
	}
	if cfg.Concurrency = c.Int("concurrency"); cfg.Concurrency < 1 && c.IsSet("concurrency") {
		return match.Config{}, nil, usage.Errorf("--concurrency %d: want at least 1", cfg.Concurrency)
	}
	cfg.Seed, err = options.ReadSeed(c)
	return cfg, specs, usage.Wrap(err)
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
	p := runplan.Plan{Bots: specs, Out: out, Wait: settings.Limits.Startup, Trace: c.String("trace"), Log: c.App.ErrWriter, Version: Version}
	err := options.ReadPlan(c, &p, concurrency, seats)
	return p, err
}

// parseBots reads --bot NAME=CMD flags (bot.ParseFlags), one bot each.
func parseBots(flags []string) ([]bot.Spec, error) {
	if len(flags) == 0 {
		return nil, usage.Errorf("no bots: give one --bot NAME=CMD per seat")
	}
	specs, err := bot.ParseFlags("bot", flags)
	return specs, usage.Wrap(err)
}

// runSettings reads the referee flags (options.Referee) and
// --fresh-deals.
func runSettings(c *cli.Context) (run.Settings, error) {
	s, err := options.RunSettings(c)
	return s, usage.Wrap(err)
}
