package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/stoprule"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/internal/words"
)

func tournamentCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "tournament",
		Usage: "run tournaments and show their standings",
		Description: `Round-robin, gauntlet, Swiss and elimination tournaments, parallel and
resumable (docs/tournaments.md):

   arena tournament run cup.yaml
   arena tournament standings out/cup
   arena tournament verify out/cup
   arena tournament report out/cup`,
		Subcommands: []*cli.Command{
			{
				Name:      "run",
				Usage:     "run (or resume) a tournament from a file, a results directory, or flags",
				ArgsUsage: "[FILE|DIR]",
				Description: `FILE is a tournament file (YAML, see docs/tournaments.md); DIR is the output
directory of an earlier run, which is resumed. Every field of the file can be
given as a flag, and flags override the file. Finished games are never played
again; games that were running when a run stopped are played from scratch.
One run at a time plays into a directory (it holds DIR/arena.lock).

   arena tournament run cup.yaml
   arena tournament run out/cup                     # resume it
   arena tournament run --name quick --game banqi --bot a='arena bot greedy' \
       --bot b='arena bot random' --games-per-encounter 4`,
				Flags:  tournamentFlags(),
				Action: runTournament,
			},
			{
				Name:      "standings",
				Usage:     "show a tournament's standings from its results directory (during or after a run)",
				ArgsUsage: "DIR",
				Description: `   arena tournament standings out/cup
   arena tournament standings out/cup --json`,
				Flags: []cli.Flag{
					options.JSONFlag("one JSON object"),
					&cli.BoolFlag{Name: "csv", Usage: "one CSV line per bot"},
					&cli.BoolFlag{Name: "head-to-head", Usage: "with --csv: the head-to-head matrix instead, a line per bot"},
				},
				Action: showStandings,
			},
			{
				Name:        "report",
				Usage:       "write an HTML report of the results directory (the same as arena report DIR)",
				ArgsUsage:   "DIR",
				Description: reportDescription,
				Flags:       reportFlags(),
				Action:      writeReport,
			},
			{
				Name:      "verify",
				Usage:     "check a results directory: every ledger line against the schedule, the deal secret and its replay (re-simulated)",
				ArgsUsage: "DIR",
				Description: `Exit 0 when all is well; 1 with one line per problem, naming the file, the
line and the game; 2 when DIR is not a tournament directory.

   arena tournament verify out/cup`,
				Action: verifyTournament,
			},
		},
	})
}

// tournamentFlags are tournament run's flags. None has a value of its
// own, so that a tournament file's field stays unless its flag is given
// (options.File); the defaults shown are what the tournament package
// fills in for a field neither gives.
func tournamentFlags() []cli.Flag {
	flags := append([]cli.Flag{
		&cli.StringFlag{Name: "name", Usage: "tournament name"},
		options.GameFlag("game to play"),
		options.OptionFlag(),
		&cli.IntFlag{Name: "seats", Usage: "seats per game", DefaultText: "the game's minimum"},
		&cli.StringFlag{Name: "format", Usage: schedule.FormatChoice(), DefaultText: tournament.DefaultFormat},
		&cli.IntFlag{Name: "rounds", Usage: "round-robin cycles (with --until, the most), or Swiss rounds", DefaultText: strconv.Itoa(tournament.DefaultRounds)},
		&cli.StringFlag{Name: "until", Usage: fmt.Sprintf("round-robin: play cycles until the standings separate the top K, --rounds at most (%d unless given): %s",
			tournament.DefaultUntilRounds, stoprule.Forms)},
		&cli.IntFlag{Name: "games-per-encounter", Usage: "games each time bots meet (a multiple of the seats)", DefaultText: "seats"},
		&cli.StringSliceFlag{Name: "bot", Usage: "NAME=CMD (repeatable; replaces the file's bots)"},
		&cli.StringSliceFlag{Name: "gauntlet", Usage: "bot that runs the gauntlet (repeatable)"},
		&cli.StringSliceFlag{Name: "seeding", Usage: "bot names in seed order, best first (repeatable)"},
		&cli.StringFlag{Name: "seeding-from", Usage: "seed by the ratings of an earlier tournament's results directory"},
		&cli.IntFlag{Name: "advance", Usage: "table-elimination: how many of each table advance", DefaultText: "half the seats"},
		&cli.IntFlag{Name: "max-games", Usage: "elimination: cap on an encounter extended by ties, then the higher seed goes through", DefaultText: fmt.Sprintf("%d x --games-per-encounter", schedule.TieCapFactor)},
	}, options.Flags(options.File, "move-time", "tc", "startup-time", "margin", "on-timeout", "max-strikes", "max-startup-failures")...)
	flags = append(flags,
		&cli.StringSliceFlag{Name: "withdraw", Usage: "take bot `NAME` out of a tournament under way: its remaining games are forfeits, recorded without starting it " +
			"(repeatable; removing it from the tournament file does the same)"},
		&cli.StringSliceFlag{Name: "readmit", Aliases: []string{"unsuspend"}, Usage: "let bot `NAME`, withdrawn or suspended after failing to start, play its remaining games (repeatable)"},
		options.SeedFlag("tournament seed; the deals follow from it and the deal secret", "random, saved for resume"),
		options.Flags(options.File, "deal-secret")[0],
		&cli.BoolFlag{Name: "fresh-deals", Usage: "a new deal for every game instead of replaying one deal with seats rotated"},
		&cli.StringFlag{Name: "share-deals", Usage: "which games play the same deal: encounter (its seat rotations; bot processes are kept between encounters) " +
			"or cycle (every encounter of a cycle or round: card luck cancels across the table, most games start fresh processes); saved, kept on resume",
			DefaultText: tournament.DefaultShareDeals})
	flags = append(flags, options.Flags(options.File, "restart-bots", "spare-processes", "concurrency")...)
	flags = append(flags,
		&cli.StringFlag{Name: "out", Usage: "output directory", DefaultText: "out/NAME"},
		&cli.BoolFlag{Name: "resume", Usage: "insist on resuming: fail if the output directory (--out, or out/NAME) holds no tournament"},
		options.QuietFlag("no progress lines"))
	return append(flags, options.PlanFlags()...)
}

// tournamentPlan finds the tournament from FILE (a tournament file), DIR
// (an earlier run's output, resumed) or nothing (flags only, or the saved
// tournament in --out), then lays the flags over it
// (tournament.Locate, Plan.Apply).
func tournamentPlan(c *cli.Context) (*tournament.Plan, error) {
	if c.NArg() > 1 {
		return nil, usage.Errorf("tournament run takes one FILE or DIR, got %d arguments", c.NArg())
	}
	over, err := tournament.FlagOverrides(c, tournamentKeys)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	plan, err := tournament.Locate(c.Args().First(), c.String("out"), c.IsSet("game"))
	if err != nil {
		return nil, usage.Wrap(err)
	}
	plan.Withdraw, plan.Readmit = c.StringSlice("withdraw"), c.StringSlice("readmit")
	if err := plan.Apply(over, c.Bool("resume")); err != nil {
		return nil, usage.Wrap(err)
	}
	return plan, nil
}

// tournamentKeys are tournament run's own flags that set a file field
// as given, by the field's key.
var tournamentKeys = map[string]string{"name": "name", "game": "game", "format": "format", "seeding-from": "seeding_from",
	"share-deals": "share_deals", "seats": "seats", "rounds": "rounds", "games-per-encounter": "games_per_encounter",
	"advance": "advance", "max-games": "max_games", "gauntlet": "gauntlet", "seeding": "seeding", "until": "until"}

func runTournament(c *cli.Context) error {
	sp, err := tournamentPlan(c)
	if err != nil {
		return err
	}
	out := sp.Out
	cfg, err := sp.File.Resolve(sp.Src, sp.BaseDir)
	if err != nil {
		return usage.Wrap(err)
	}
	plan := sp.RunPlan(cfg)
	plan.Log, plan.Version = c.App.ErrWriter, Version
	plan.NATS, plan.Distributed = options.ReadNATS(c, cfg.Concurrency, cfg.Seats)
	progress := c.App.ErrWriter
	plan.Confined = func(r *runplan.Run) {
		output.TournamentHeader(progress, cfg, r.SecretNote(out), out)
		sayConfinement(c, progress, "arena: ", r.Sandbox)
		output.Roster(progress, sp.Notes, cfg)
	}
	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	r, err := plan.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	o, _ := runOutput(c, output.TournamentText, true)
	onGame := func(p tournament.Progress) { o.Game(output.TournamentGame(p)) }
	topts := tournament.Options{Version: Version, Warn: c.App.ErrWriter, OnGame: onGame, Executor: r.Executor}
	_, err = tournament.Run(ctx, cfg, out, topts)
	o.End(output.End{}) // ends a bar's line: what follows starts a line of its own
	if errors.Is(err, tournament.ErrInterrupted) {
		fmt.Fprintf(c.App.ErrWriter, "arena: %v; every finished game is recorded; resume with: %s\n", err, resumeCommand(c, out))
		return cli.Exit("", exitFail)
	}
	if u := cfg.CommandLine(err); u != nil {
		return usage.Wrap(u) // the secret given is not this tournament's, or its saved file was edited
	}
	if err != nil {
		return err
	}
	st, err := standingsOf(c, out, true) // the run has said the directory's warnings
	if err != nil {
		return err
	}
	if !cfg.Until.IsZero() {
		fmt.Fprintf(c.App.ErrWriter, "arena: until %s: %v, after %d of %d games\n", cfg.Until, st.Separated(cfg.Until), st.Games, st.Total)
	}
	return st.Table(c.App.Writer)
}

// standingsOf reads a results directory as a resume reads it, and
// prints its warnings (ratings that failed, ledger lines that do not
// count) to stderr.
func standingsOf(c *cli.Context, dir string, afterRun bool) (*tournament.Standings, error) {
	st, err := tournament.ReadStandings(dir)
	if err != nil {
		// A damaged ledger is the results' fault, anything else (no such
		// directory, not a tournament's) the command line's.
		var le *ledger.LineError
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, usage.Wrap(err)
	}
	warnings := st.Warnings
	if afterRun {
		warnings = warnings[st.DirWarnings:]
	}
	for _, w := range warnings {
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: %s\n", w)
	}
	return st, nil
}

func showStandings(c *cli.Context) error {
	if c.NArg() != 1 {
		return usage.Errorf("tournament standings needs one DIR")
	}
	if c.Bool("head-to-head") && !c.Bool("csv") {
		return usage.Errorf("--head-to-head goes with --csv (the table shows the matrix, and --json has it as head_to_head)")
	}
	st, err := standingsOf(c, c.Args().First(), false)
	if err != nil {
		return err
	}
	switch {
	case c.Bool("json"):
		return output.WriteJSON(c.App.Writer, st)
	case c.Bool("head-to-head"):
		return st.HeadToHeadCSV(c.App.Writer)
	case c.Bool("csv"):
		return st.CSV(c.App.Writer)
	}
	return st.Table(c.App.Writer)
}

func verifyTournament(c *cli.Context) error {
	if c.NArg() != 1 {
		return usage.Errorf("tournament verify needs one DIR")
	}
	dir := c.Args().First()
	v, err := tournament.Verify(dir)
	if err != nil {
		return usage.Wrap(err)
	}
	output.Verified(c.App.Writer, dir, v)
	if len(v.Problems) > 0 {
		return cli.Exit(fmt.Sprintf("verify %s: %d problems (%d games counted)", dir, len(v.Problems), v.Games), exitFail)
	}
	return nil
}

// resumeCommand is the command that resumes the tournament in out as it
// was run: the directory holds the tournament itself, but not where its
// games are played (workers, a NATS server, remote bots), which the flags
// given say again.
func resumeCommand(c *cli.Context, out string) string {
	cmd := []string{"arena", "tournament", "run", words.ShellQuote(out)}
	return strings.Join(append(cmd, options.Again(c, append(options.DistributedFlags(), options.NATSFlags()...))...), " ")
}
