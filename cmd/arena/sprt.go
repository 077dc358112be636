package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/outdir"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/engine"
)

// Exit codes of arena sprt beyond exitOK (H1 accepted), exitFail and
// exitUsage. docs/ci.md documents them.
const (
	exitH0           = 3 // H0 accepted: the change is not an improvement (a regression, for non-regression bounds)
	exitInconclusive = 4 // --max-games played or --max-time spent without crossing a bound
)

// sprtExitCode maps a verdict to the command's exit code.
func sprtExitCode(v sprt.Verdict) int {
	switch v {
	case sprt.H1:
		return exitOK
	case sprt.H0:
		return exitH0
	case sprt.Inconclusive:
		return exitInconclusive
	}
	return exitFail
}

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
			gameFlag("game to play (see arena games)"),
			&cli.StringFlag{Name: "base", Usage: "NAME=CMD of the reference bot"},
			&cli.StringFlag{Name: "test", Usage: "NAME=CMD of the candidate bot"},
			&cli.StringFlag{Name: "filler", Value: "filler=arena bot random", Usage: "NAME=CMD of the bot in every other seat (NAME1, NAME2... per seat)"},
			&cli.IntFlag{Name: "seats", Usage: "seats per game", DefaultText: "the game's minimum"},
			optionFlag(),
			&cli.Float64Flag{Name: "elo0", Value: 0, Usage: "H0: the test is at most this much better, in normalized Elo"},
			&cli.Float64Flag{Name: "elo1", Value: 5, Usage: "H1: the test is at least this much better, in normalized Elo"},
			&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "chance of accepting H1 when H0 holds"},
			&cli.Float64Flag{Name: "beta", Value: 0.05, Usage: "chance of accepting H0 when H1 holds"},
			&cli.IntFlag{Name: "max-games", Value: 20000, Usage: "stop, inconclusive, after this many games (0: no cap; paired: rounded down to whole pairs)"},
			&cli.DurationFlag{Name: "max-time", Usage: "stop, inconclusive (exit 4), after this much wall time (e.g. 100m), with every report written: keep it below a CI job's timeout (0: no budget)"},
			concurrencyFlag(),
			// --fresh-deals (a new deal for every game, as in arena match and
			// tournaments) is exactly what --no-pairs does here: a pair is
			// two games of one deal, so the same flag under both names.
			&cli.BoolFlag{Name: "no-pairs", Aliases: []string{"fresh-deals"}, Usage: "independent games (a fresh deal each, seats alternating) and the trinomial statistic; --fresh-deals is the same"},
			options.SeedFlag("seed of the deals; the deals follow from it and the deal secret", "random, printed"),
			options.Flags(options.Own, "deal-secret")[0],
			&cli.StringFlag{Name: "out", Usage: "directory for results.jsonl, replays/, logs/ and sprt.json"},
			jsonFlag("print one JSON summary object to stdout"),
			&cli.StringFlag{Name: "summary-md", Usage: "write a Markdown summary to FILE (e.g. $GITHUB_STEP_SUMMARY; appended to)"},
			&cli.StringFlag{Name: "junit", Usage: "write the verdict as a JUnit XML test to FILE"},
			quietFlag("no progress lines"),
		}, append(append(append(options.Referee(), natsFlags()...), distributedFlags()...), sandboxFlags()...)...),
		Action: runSPRT,
	})
}

// parseBotFlag reads the NAME=CMD of --flag (bot.ParseFlagOf).
func parseBotFlag(c *cli.Context, flag string) (bot.Spec, error) {
	spec := c.String(flag)
	if strings.TrimSpace(spec) == "" {
		return bot.Spec{}, usagef("--%s NAME=CMD is required", flag)
	}
	b, err := bot.ParseFlagOf(flag, spec)
	if err != nil {
		return b, usageError{err}
	}
	return b, nil
}

// sprtParamHint is what to give instead, per parameter stats.ParamError
// names first.
var sprtParamHint = map[string]string{
	"elo0":  "e.g. --elo0 -5 --elo1 0 for non-regression",
	"elo1":  "e.g. --elo0 -5 --elo1 0 for non-regression",
	"alpha": "a probability such as 0.05; alpha + beta below 1",
	"beta":  "a probability such as 0.05; alpha + beta below 1",
}

// sprtConfig turns the flags into a run's Config; runSPRT checks it
// (sprt.Config.Check).
func sprtConfig(c *cli.Context) (*sprt.Config, error) {
	if c.NArg() > 0 {
		return nil, usagef("unexpected argument %q (bots are given with --base and --test NAME=CMD)", c.Args().First())
	}
	if c.String("game") == "" {
		return nil, usagef("--game is required (see arena games)")
	}
	game, given, err := gameAndOptions(c)
	if err != nil {
		return nil, err
	}
	cfg := &sprt.Config{Game: game, Paired: !c.Bool("no-pairs"), Version: Version, OutDir: c.String("out")}
	if cfg.Base, err = parseBotFlag(c, "base"); err != nil {
		return nil, err
	}
	if cfg.Test, err = parseBotFlag(c, "test"); err != nil {
		return nil, err
	}
	if cfg.Base.Name == cfg.Test.Name {
		return nil, usagef("--test %q: name %q is the --base's too; give the bots different names", c.String("test"), cfg.Test.Name)
	}
	info := game.Info()
	cfg.Seats = max(2, info.MinSeats)
	if c.IsSet("seats") {
		cfg.Seats = c.Int("seats")
		if cfg.Seats < 2 {
			return nil, usagef("--seats %d: base and test need 2 seats at least", cfg.Seats)
		}
	}
	if cfg.Options, err = engine.Setup(game, cfg.Seats, given); err != nil {
		if c.IsSet("seats") {
			return nil, usageError{fmt.Errorf("--seats: %w", err)}
		}
		return nil, usageError{err}
	}
	if cfg.Seats > 2 {
		if cfg.Filler, err = parseBotFlag(c, "filler"); err != nil {
			return nil, err
		}
		for _, n := range cfg.FillerNames() {
			if n == cfg.Base.Name || n == cfg.Test.Name {
				return nil, usagef("--filler %q: its seats are named %s, which clashes with --base or --test; give it another NAME", c.String("filler"), strings.Join(cfg.FillerNames(), ", "))
			}
		}
	} else if c.IsSet("filler") {
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: --filler is not used: %s has 2 seats\n", info.Name)
	}
	cfg.SPRT = stats.SPRT{Elo0: c.Float64("elo0"), Elo1: c.Float64("elo1"), Alpha: c.Float64("alpha"), Beta: c.Float64("beta")}
	if err := cfg.SPRT.Validate(); err != nil {
		var pe *stats.ParamError
		if !errors.As(err, &pe) {
			return nil, usageError{err}
		}
		return nil, usagef("--%s: %s (%s)", strings.Join(pe.Params, "/--"), pe.Reason(), sprtParamHint[pe.Params[0]])
	}
	cfg.MaxGames = c.Int("max-games")
	if cfg.MaxGames < 0 || (cfg.Paired && cfg.MaxGames == 1) {
		return nil, usagef("--max-games %d: want 0 (no cap) or at least 2 (one pair)", cfg.MaxGames)
	}
	if cfg.MaxTime = c.Duration("max-time"); cfg.MaxTime < 0 {
		return nil, usagef("--max-time %v: want a duration such as 100m, or 0 (no budget)", cfg.MaxTime)
	}
	if cfg.Settings, err = runSettings(c); err != nil {
		return nil, err
	}
	cfg.Concurrency = max(1, runtime.NumCPU()/cfg.Seats)
	if c.IsSet("concurrency") {
		cfg.Concurrency = c.Int("concurrency")
		if cfg.Concurrency < 1 {
			return nil, usagef("--concurrency %d: want at least 1", cfg.Concurrency)
		}
	}
	if cfg.Seed, err = seedFlag(c); err != nil {
		return nil, err
	}
	for _, flag := range []string{"summary-md", "junit"} {
		if path := c.String(flag); path != "" {
			if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
				return nil, usagef("--%s %s: no directory %s", flag, path, filepath.Dir(path))
			}
		}
	}
	return cfg, nil
}

func runSPRT(c *cli.Context) error {
	cfg, err := sprtConfig(c)
	if err != nil {
		return err
	}
	// The run's bots, fillers as one (they share one launcher, and so one
	// ARENA_BOT_NAME, the --filler NAME).
	bots := []bot.Spec{cfg.Test, cfg.Base}
	if cfg.Seats > 2 {
		bots = append(bots, cfg.Filler)
	}
	if err := cfg.Check(); err != nil {
		return usageError{err}
	}
	// Confined and reached as arena match's bots.
	plan, err := runPlan(c, bots, cfg.OutDir, cfg.Settings, cfg.Concurrency, cfg.Seats)
	if err != nil {
		return err
	}
	r, err := plan.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	cfg.Secret, cfg.Executor = r.Secret, r.Executor
	cfg.Test, cfg.Base = r.Bots[0], r.Bots[1]
	if cfg.Seats > 2 {
		cfg.Filler = r.Bots[2]
	}
	warn := c.App.ErrWriter
	progress := c.App.ErrWriter
	if c.Bool("quiet") {
		progress = io.Discard
	}
	text := output.NewSPRT(progress, c.App.Writer)
	text.Warnings.W = warn
	var o output.Output = text
	if c.Bool("json") {
		o = output.JSON{Output: o, W: c.App.Writer}
	}
	if w := run.LoadWarning(cfg.Concurrency, cfg.Seats); w != "" && cfg.Executor == nil { // played here, not by workers
		o.Warn(w)
	}
	lo, hi := cfg.SPRT.Bounds()
	mode := "game pairs (pentanomial)"
	if !cfg.Paired {
		mode = "independent games (trinomial)"
	}
	maxText := "no game cap"
	if cfg.MaxGames > 0 {
		maxText = fmt.Sprintf("at most %d games", cfg.MaxGames)
	}
	if cfg.MaxTime > 0 {
		maxText += fmt.Sprintf(", at most %v", cfg.MaxTime)
	}
	fmt.Fprintf(progress, "arena: sprt %s (test) vs %s (base), %s, %d seats, %s, nElo H0 <= %g H1 >= %g, alpha %g beta %g, LLR bounds [%.2f, %.2f], %s, concurrency %d, seed %d, %s, %s\n",
		cfg.Test.Name, cfg.Base.Name, cfg.Game.Info().Name, cfg.Seats, mode, cfg.SPRT.Elo0, cfg.SPRT.Elo1, cfg.SPRT.Alpha, cfg.SPRT.Beta,
		lo, hi, maxText, cfg.Concurrency, cfg.Seed, r.SecretNote(cfg.OutDir), cfg.Limits)
	sayConfinement(c, progress, "arena: ", r.Sandbox)

	ctx, release := stopContext(c.App.ErrWriter)
	defer release()
	res, runErr := sprt.Run(ctx, *cfg, func(s sprt.Status) { o.Game(output.Game{SPRT: &s, Done: s.Games, Total: cfg.MaxGames}) })
	if errors.Is(runErr, outdir.ErrBusy) {
		return runErr // another run's directory: write nothing there, not even sprt.json (sprt.Run wrote none)
	}
	var other *run.OtherRunError
	if errors.As(runErr, &other) {
		return usageError{runErr} // the --out given is the mistake: nothing is written there
	}
	sum := sprt.NewSummary(cfg, res)
	code := sprtExitCode(res.Verdict)
	sum.ExitCode = &code
	o.Game(output.Game{SPRT: &res.Status, Done: res.Games, Total: cfg.MaxGames, Final: true})
	if err := writeSPRTReports(c, o, cfg, sum); err != nil {
		if runErr == nil {
			return err
		}
		fmt.Fprintf(warn, "arena: %v\n", err)
	}
	if runErr != nil {
		if u := runplan.CommandLine(runErr, r.SecretFile); u != nil {
			return usageError{u}
		}
		return runErr
	}
	if code != exitOK {
		return cli.Exit("", code) // the verdict's own exit code
	}
	return nil
}

// writeSPRTReports prints the summary to o and writes the requested files.
func writeSPRTReports(c *cli.Context, o output.Output, cfg *sprt.Config, sum *sprt.Summary) error {
	if err := o.End(output.End{SPRT: sum}); err != nil {
		return err
	}
	if cfg.OutDir != "" {
		if err := sprt.WriteSummary(cfg.OutDir, sum); err != nil {
			return err
		}
	}
	if path := c.String("summary-md"); path != "" {
		if err := sprt.AppendMarkdown(path, sum); err != nil {
			return fmt.Errorf("--summary-md: %w", err)
		}
	}
	if path := c.String("junit"); path != "" {
		if err := sprt.WriteJUnit(path, sum); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
	}
	return nil
}
