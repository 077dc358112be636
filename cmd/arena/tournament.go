package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/tournament"
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
					jsonFlag("one JSON object"),
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
		gameFlag("game to play"),
		optionFlag(),
		&cli.IntFlag{Name: "seats", Usage: "seats per game", DefaultText: "the game's minimum"},
		&cli.StringFlag{Name: "format", Usage: schedule.FormatChoice(), DefaultText: tournament.DefaultFormat},
		&cli.IntFlag{Name: "rounds", Usage: "round-robin cycles, or Swiss rounds", DefaultText: strconv.Itoa(tournament.DefaultRounds)},
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
		quietFlag("no progress lines"))
	return append(append(append(flags, natsFlags()...), distributedFlags()...), sandboxFlags()...)
}

// tournamentPlan finds the tournament from FILE (a tournament file), DIR
// (an earlier run's output, resumed) or nothing (flags only, or the saved
// tournament in --out), then lays the flags over it
// (tournament.Locate, File.Apply, Plan.Settle).
func tournamentPlan(c *cli.Context) (*tournament.Plan, error) {
	if c.NArg() > 1 {
		return nil, usagef("tournament run takes one FILE or DIR, got %d arguments", c.NArg())
	}
	over, err := tournamentOverrides(c)
	if err != nil {
		return nil, err
	}
	plan, err := tournament.Locate(c.Args().First(), c.String("out"), c.IsSet("game"))
	if err != nil {
		return nil, usageError{err}
	}
	plan.Withdraw, plan.Readmit = c.StringSlice("withdraw"), c.StringSlice("readmit")
	if err := options.Merge(&plan.File, over); err != nil {
		return nil, usageError{err}
	}
	if err := plan.Settle(c.Bool("resume")); err != nil {
		return nil, usageError{err}
	}
	return plan, nil
}

// tournamentKeys are tournament run's own flags that set a file field
// as given, by the field's key.
var tournamentKeys = map[string]string{"name": "name", "game": "game", "format": "format", "seeding-from": "seeding_from",
	"share-deals": "share_deals", "seats": "seats", "rounds": "rounds", "games-per-encounter": "games_per_encounter",
	"advance": "advance", "max-games": "max_games", "gauntlet": "gauntlet", "seeding": "seeding"}

// tournamentOverrides reads the flags that were given, by the file key
// each sets (options.Given), to lay over the tournament file.
func tournamentOverrides(c *cli.Context) (options.Given, error) {
	g, err := options.Read(c, options.File)
	if err != nil {
		return g, usageError{err}
	}
	g.Keyed(c, tournamentKeys)
	if c.IsSet("bot") {
		bots, err := tournament.BotFlags("bot", c.StringSlice("bot"))
		if err != nil {
			return g, usageError{err}
		}
		g.Set("bots", bots)
	}
	return g, nil
}

func runTournament(c *cli.Context) error {
	sp, err := tournamentPlan(c)
	if err != nil {
		return err
	}
	out := sp.Out
	cfg, err := sp.File.Resolve(sp.Src, sp.BaseDir)
	if err != nil {
		return usageError{err}
	}
	opts := cfg.BotOptions
	if sp.Src != "flags" {
		// The tournament file holds the seed: no bot may read it.
		if abs, err := filepath.Abs(sp.Src); err == nil {
			opts.Hide = append(opts.Hide[:len(opts.Hide):len(opts.Hide)], abs)
		}
	}
	plan := runplan.Plan{Bots: cfg.Bots, Out: out, SecretFile: cfg.SecretFile, Secret: cfg.Secret, Limits: cfg.BotLimits, Sandbox: opts,
		Refused: func(r *runplan.RefusedError) error { return usageError{cfg.Refusal(sp.Src, r)} },
		Wait:    cfg.Limits.Startup, Log: c.App.ErrWriter, Version: Version}
	plan.NATS, plan.Distributed = runNATS(c, cfg.Concurrency, cfg.Seats)
	progress := c.App.ErrWriter
	plan.Confined = func(r *runplan.Run) {
		fmt.Fprintf(progress, "arena: tournament %s: %s %s, %d bots, %d seats, concurrency %d, seed %d, %s, results in %s\n",
			cfg.Name, cfg.Game.Info().Name, cfg.Format, len(cfg.Bots), cfg.Seats, cfg.Concurrency, cfg.Seed, r.SecretNote(out), out)
		sayConfinement(c, progress, "arena: ", r.Sandbox)
		printRoster(progress, sp, cfg)
	}
	ctx, release := stopContext(c.App.ErrWriter)
	defer release()
	r, err := plan.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	var o output.Output = output.Discard{}
	if !c.Bool("quiet") {
		o = output.NewTournament(progress) // on a terminal, a live bar; in CI logs, plain lines at most once a second
	}
	onGame := func(p tournament.Progress) { o.Game(output.TournamentGame(p)) }
	topts := tournament.Options{Version: Version, Warn: c.App.ErrWriter, OnGame: onGame, Executor: r.Executor}
	_, err = tournament.Run(ctx, cfg, out, topts)
	o.End(output.End{}) // ends a bar's line: what follows starts a line of its own
	if errors.Is(err, tournament.ErrInterrupted) {
		fmt.Fprintf(c.App.ErrWriter, "arena: %v; every finished game is recorded; resume with: %s\n", err, resumeCommand(c, out))
		return cli.Exit("", exitFail)
	}
	if err != nil {
		if cfg.Secret != nil && errors.Is(err, deal.ErrMismatch) {
			return usageError{err} // the secret given is not this tournament's
		}
		if errors.Is(err, tournament.ErrEdited) {
			return usageError{err}
		}
		return err
	}
	st, err := standingsOf(c, out, true) // the run has said the directory's warnings
	if err != nil {
		return err
	}
	return st.Table(c.App.Writer)
}

// printRoster says what the run changed of who plays (sp.Notes), and
// which bots take no part in it.
func printRoster(w io.Writer, sp *tournament.Plan, cfg *tournament.Config) {
	for _, n := range sp.Notes {
		fmt.Fprintf(w, "arena: %s\n", n)
	}
	var out []string
	for i, b := range cfg.Bots {
		if why, ok := cfg.Absent[i]; ok {
			out = append(out, fmt.Sprintf("%s (%s)", b.Name, why))
		}
	}
	switch len(out) {
	case 0:
	case 1:
		fmt.Fprintf(w, "arena: not playing: %s; its remaining games are forfeits, recorded without starting it (--readmit NAME lets it play again)\n", out[0])
	default:
		fmt.Fprintf(w, "arena: not playing: %s; their remaining games are forfeits, recorded without starting them (--readmit NAME lets one play again)\n",
			strings.Join(out, ", "))
	}
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
		return nil, usageError{err}
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
		return usagef("tournament standings needs one DIR")
	}
	if c.Bool("head-to-head") && !c.Bool("csv") {
		return usagef("--head-to-head goes with --csv (the table shows the matrix, and --json has it as head_to_head)")
	}
	st, err := standingsOf(c, c.Args().First(), false)
	if err != nil {
		return err
	}
	switch {
	case c.Bool("json"):
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	case c.Bool("head-to-head"):
		return st.HeadToHeadCSV(c.App.Writer)
	case c.Bool("csv"):
		return st.CSV(c.App.Writer)
	}
	return st.Table(c.App.Writer)
}

func verifyTournament(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("tournament verify needs one DIR")
	}
	dir := c.Args().First()
	v, err := tournament.Verify(dir)
	if err != nil {
		return usageError{err}
	}
	for _, p := range v.Problems {
		fmt.Fprintln(c.App.Writer, p.Error())
	}
	if len(v.Problems) > 0 {
		return cli.Exit(fmt.Sprintf("verify %s: %d problems (%d games counted)", dir, len(v.Problems), v.Games), exitFail)
	}
	fmt.Fprintf(c.App.Writer, "ok %s: %d games, each matching its replay\n", dir, v.Games)
	return nil
}

// resumeCommand is the command that resumes the tournament in out as it
// was run: the directory holds the tournament itself, but not where its
// games are played (workers, a NATS server, remote bots), which the flags
// given say again.
func resumeCommand(c *cli.Context, out string) string {
	cmd := []string{"arena", "tournament", "run", words.ShellQuote(out)}
	for _, f := range append(distributedFlags(), natsFlags()...) {
		name := f.Names()[0]
		switch {
		case !c.IsSet(name):
		case isBool(f):
			if c.Bool(name) { // --distributed=false is not said again
				cmd = append(cmd, "--"+name)
			}
		default:
			cmd = append(cmd, "--"+name, words.ShellQuote(fmt.Sprint(c.Value(name))))
		}
	}
	return strings.Join(cmd, " ")
}

func isBool(f cli.Flag) bool {
	_, ok := f.(*cli.BoolFlag)
	return ok
}
