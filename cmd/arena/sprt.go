package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

// Exit codes of arena sprt beyond exitOK (H1 accepted), exitFail and
// exitUsage (sprt.Verdict.ExitCode). docs/ci.md documents them.
const (
	exitH0           = sprt.ExitH0
	exitInconclusive = sprt.ExitInconclusive
)

func sprtCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "sprt",
		Usage: "test whether a bot change gains (or loses) strength, stopping as soon as the evidence decides",
		Description: `Plays game pairs (one deal, base and test in swapped seats) between --base and
--test until a sequential probability ratio test decides between H0 (the test
is at most --elo0 normalized Elo better than the base) and H1 (at least
--elo1 better), or --max-games are played, or --max-time is spent. More than
2 seats: the other seats are taken by --filler bots.

   arena sprt --game banqi --base old='./old-bot' --test new='./new-bot' --elo0 -5 --elo1 0

Exit codes: 0 H1 accepted, 3 H0 accepted, 4 inconclusive (--max-games, --max-time),
1 the arena failed, 2 bad usage. See docs/ci.md.

Every bot (fillers too) runs confined as in arena match (docs/security.md).`,
		Flags: append([]cli.Flag{
			options.GameFlag("game to play (see arena games)"),
			&cli.StringFlag{Name: "base", Usage: "NAME=CMD of the reference bot"},
			&cli.StringFlag{Name: "test", Usage: "NAME=CMD of the candidate bot"},
			&cli.StringFlag{Name: "filler", Value: "filler=arena bot random", Usage: "NAME=CMD of the bot in every other seat (NAME1, NAME2... per seat)"},
			&cli.IntFlag{Name: "seats", Usage: "seats per game", DefaultText: "the game's minimum"},
			options.OptionFlag(),
			&cli.Float64Flag{Name: "elo0", Value: 0, Usage: "H0: the test is at most this much better, in normalized Elo"},
			&cli.Float64Flag{Name: "elo1", Value: 5, Usage: "H1: the test is at least this much better, in normalized Elo"},
			&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "chance of accepting H1 when H0 holds"},
			&cli.Float64Flag{Name: "beta", Value: 0.05, Usage: "chance of accepting H0 when H1 holds"},
			&cli.IntFlag{Name: "max-games", Value: 20000, Usage: "stop, inconclusive, after this many games (0: no cap; paired: rounded down to whole pairs)"},
			&cli.DurationFlag{Name: "max-time", Usage: "stop, inconclusive (exit 4), after this much wall time (e.g. 100m), with every report written: keep it below a CI job's timeout (0: no budget)"},
			options.Flags(options.Own, "concurrency")[0],
			// --fresh-deals (a new deal for every game, as in arena match and
			// tournaments) is exactly what --no-pairs does here: a pair is
			// two games of one deal, so the same flag under both names.
			&cli.BoolFlag{Name: "no-pairs", Aliases: []string{"fresh-deals"}, Usage: "independent games (a fresh deal each, seats alternating) and the trinomial statistic; --fresh-deals is the same"},
			options.SeedFlag("seed of the deals; the deals follow from it and the deal secret", "random, printed"),
			options.Flags(options.Own, "deal-secret")[0],
			&cli.StringFlag{Name: "out", Usage: "directory for results.jsonl, replays/, logs/ and sprt.json"},
			options.JSONFlag("print one JSON summary object to stdout"),
			&cli.StringFlag{Name: "summary-md", Usage: "write a Markdown summary to FILE (e.g. $GITHUB_STEP_SUMMARY; appended to)"},
			&cli.StringFlag{Name: "junit", Usage: "write the verdict as a JUnit XML test to FILE"},
			options.QuietFlag("no progress lines"),
		}, append(options.Referee(), options.PlanFlags()...)...),
		Action: runSPRT,
	})
}

// parseBotFlag reads the NAME=CMD of --flag (bot.ParseRequiredFlag).
func parseBotFlag(c *cli.Context, flag string) (bot.Spec, error) {
	b, err := bot.ParseRequiredFlag(flag, c.String(flag))
	return b, usage.Wrap(err)
}

// sprtParamHint is what to give instead, per parameter stats.ParamError
// names first.
var sprtParamHint = map[string]string{
	"elo0":  "e.g. --elo0 -5 --elo1 0 for non-regression",
	"elo1":  "e.g. --elo0 -5 --elo1 0 for non-regression",
	"alpha": "a probability such as 0.05; alpha + beta below 1",
	"beta":  "a probability such as 0.05; alpha + beta below 1",
}

// sprtFlags name the flag behind each field of sprt.FieldError.
var sprtFlags = map[string]string{"Test": "test", "Filler": "filler", "Seats": "seats", "MaxGames": "max-games",
	"MaxTime": "max-time", "Concurrency": "concurrency", "Markdown": "summary-md", "JUnit": "junit"}

// sprtError says an error of sprt.Config.Settle, sprt.Reports or
// stats.SPRT.Validate by flag.
func sprtError(c *cli.Context, err error) error {
	var fe *sprt.FieldError
	var pe *stats.ParamError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("--%s: %s (%s)", strings.Join(pe.Params, "/--"), pe.Reason(), sprtParamHint[pe.Params[0]])
	case errors.As(err, &fe):
		return fe.Flag(sprtFlags[fe.Field], c.String(sprtFlags[fe.Field]))
	}
	return err
}

// sprtConfig turns the flags into a run's Config (sprt.Config.Settle);
// runSPRT checks it (sprt.Config.Check).
func sprtConfig(c *cli.Context) (*sprt.Config, error) {
	if c.NArg() > 0 {
		return nil, usage.Errorf("unexpected argument %q (bots are given with --base and --test NAME=CMD)", c.Args().First())
	}
	if c.String("game") == "" {
		return nil, usage.Errorf("--game is required (see arena games)")
	}
	game, given, err := options.ReadGame(c)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	cfg := &sprt.Config{Game: game, Paired: !c.Bool("no-pairs"), Version: Version, OutDir: c.String("out"), Seats: c.Int("seats"),
		SPRT:     stats.SPRT{Elo0: c.Float64("elo0"), Elo1: c.Float64("elo1"), Alpha: c.Float64("alpha"), Beta: c.Float64("beta")},
		MaxGames: c.Int("max-games"), MaxTime: c.Duration("max-time"), Concurrency: c.Int("concurrency")}
	if cfg.Base, err = parseBotFlag(c, "base"); err != nil {
		return nil, err
	}
	if cfg.Test, err = parseBotFlag(c, "test"); err != nil {
		return nil, err
	}
	filler := func(used bool) (bot.Spec, error) {
		if used {
			return parseBotFlag(c, "filler")
		}
		if c.IsSet("filler") {
			fmt.Fprintf(c.App.ErrWriter, "arena: warning: --filler is not used: %s has 2 seats\n", game.Info().Name)
		}
		return bot.Spec{}, nil
	}
	if err := cfg.Settle(sprt.Given{Seats: c.IsSet("seats"), Concurrency: c.IsSet("concurrency"), Options: given, Filler: filler}); err != nil {
		return nil, usage.Wrap(sprtError(c, err))
	}
	if cfg.Settings, err = runSettings(c); err != nil {
		return nil, err
	}
	if cfg.Seed, err = options.ReadSeed(c); err != nil {
		return nil, usage.Wrap(err)
	}
	if err := sprtReports(c).Check(); err != nil {
		return nil, usage.Wrap(sprtError(c, err))
	}
	return cfg, nil
}

// sprtReports are the report files --summary-md and --junit name.
func sprtReports(c *cli.Context) sprt.Reports {
	return sprt.Reports{Markdown: c.String("summary-md"), JUnit: c.String("junit")}
}

func runSPRT(c *cli.Context) error {
	cfg, err := sprtConfig(c)
	if err != nil {
		return err
	}
	if err := cfg.Check(); err != nil {
		return usage.Wrap(err)
	}
	// Confined and reached as arena match's bots.
	plan, err := runPlan(c, cfg.Specs(), cfg.OutDir, cfg.Settings, cfg.Concurrency, cfg.Seats)
	if err != nil {
		return err
	}
	r, err := plan.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	cfg.Secret, cfg.Executor = r.Secret, r.Executor
	cfg.SetSpecs(r.Bots)
	o, progress := runOutput(c, output.SPRTText, cfg.OutDir != "")
	if w := run.LoadWarning(cfg.Concurrency, cfg.Seats); w != "" && cfg.Executor == nil { // played here, not by workers
		o.Warn(w)
	}
	output.SPRTHeader(progress, cfg, r.SecretNote(cfg.OutDir))
	sayConfinement(c, progress, "arena: ", r.Sandbox)

	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	res, runErr := sprt.Run(ctx, *cfg, func(s sprt.Status) { o.Game(output.Game{SPRT: &s, Done: s.Games, Total: cfg.MaxGames}) })
	if sprt.Refused(runErr) { // write nothing there, not even sprt.json
		return r.Err(runErr)
	}
	sum := sprt.NewSummary(cfg, res)
	code := res.Verdict.ExitCode()
	sum.ExitCode = &code
	o.Game(output.Game{SPRT: &res.Status, Done: res.Games, Total: cfg.MaxGames, Final: true})
	err = o.End(output.End{SPRT: sum})
	if err == nil {
		err = sprtError(c, sprtReports(c).Write(cfg.OutDir, sum))
	}
	if err != nil {
		if runErr == nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "arena: %v\n", err)
	}
	if runErr != nil {
		return r.Err(runErr)
	}
	if code != exitOK {
		return cli.Exit("", code) // the verdict's own exit code
	}
	return nil
}
