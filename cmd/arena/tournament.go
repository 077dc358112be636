package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/tournament"
)

func tournamentCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "tournament",
		Usage: "run tournaments and show their standings",
		Description: `Round-robin, gauntlet, Swiss and elimination tournaments, parallel and
resumable (docs/tournaments.md):

   arena tournament run cup.yaml
   arena tournament standings out/cup
   arena tournament verify out/cup`,
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
					&cli.BoolFlag{Name: "json", Usage: "one JSON object"},
					&cli.BoolFlag{Name: "csv", Usage: "one CSV line per bot"},
					&cli.BoolFlag{Name: "head-to-head", Usage: "with --csv: the head-to-head matrix instead, a line per bot"},
				},
				Action: showStandings,
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
// own, so that a tournament file's field stays unless its flag is given;
// the defaults shown are what the tournament package fills in for a field
// neither gives (runDefaults).
func tournamentFlags() []cli.Flag {
	d := runDefaults()
	return append([]cli.Flag{
		&cli.StringFlag{Name: "name", Usage: "tournament name"},
		&cli.StringFlag{Name: "game", Usage: "game to play"},
		&cli.StringSliceFlag{Name: "option", Usage: "rule option k=v (repeatable)"},
		&cli.IntFlag{Name: "seats", Usage: "seats per game", DefaultText: "the game's minimum"},
		&cli.StringFlag{Name: "format", Usage: "round-robin, gauntlet, swiss, single-elimination, double-elimination or table-elimination", DefaultText: d.Format},
		&cli.IntFlag{Name: "rounds", Usage: "round-robin cycles, or Swiss rounds", DefaultText: strconv.Itoa(d.Schedule.Rounds)},
		&cli.IntFlag{Name: "games-per-encounter", Usage: "games each time bots meet (a multiple of the seats)", DefaultText: "seats"},
		&cli.StringSliceFlag{Name: "bot", Usage: "NAME=CMD (repeatable; replaces the file's bots)"},
		&cli.StringSliceFlag{Name: "gauntlet", Usage: "bot that runs the gauntlet (repeatable)"},
		&cli.StringSliceFlag{Name: "seeding", Usage: "bot names in seed order, best first (repeatable)"},
		&cli.StringFlag{Name: "seeding-from", Usage: "seed by the ratings of an earlier tournament's results directory"},
		&cli.IntFlag{Name: "advance", Usage: "table-elimination: how many of each table advance", DefaultText: "half the seats"},
		&cli.IntFlag{Name: "max-games", Usage: "elimination: cap on an encounter extended by ties", DefaultText: "no cap"},
		durationFlag("move-time", "limit per move", 0, moveDefault(d.Limits.Move)),
		&cli.StringFlag{Name: "tc", Usage: "Fischer clock BASE+INC"},
		durationFlag("startup-time", "time from hello to ready", 0, d.Limits.Startup.String()),
		durationFlag("margin", "grace added to every deadline", 0, d.Limits.Margin.String()),
		&cli.StringFlag{Name: "on-timeout", Usage: "forfeit or random", DefaultText: string(d.Policy)},
		&cli.IntFlag{Name: "max-strikes", Usage: "strikes before a forfeit with --on-timeout random", DefaultText: strconv.Itoa(d.MaxStrikes)},
		&cli.StringFlag{Name: "seed", Usage: "tournament seed; the deals follow from it and the deal secret", DefaultText: "random, saved for resume"},
		dealSecretFlag(),
		&cli.BoolFlag{Name: "fresh-deals", Usage: "a new deal for every game instead of replaying one deal with seats rotated"},
		&cli.BoolFlag{Name: "restart-bots", Usage: "fresh bot processes for every game (no memory carried between games)"},
		&cli.IntFlag{Name: "concurrency", Usage: "games at once", DefaultText: "cores / seats"},
		&cli.StringFlag{Name: "out", Usage: "output directory", DefaultText: "out/NAME"},
		&cli.BoolFlag{Name: "resume", Usage: "insist on resuming: fail if the output directory (--out, or out/NAME) holds no tournament"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress lines"},
	}, sandboxFlags()...)
}

// tournamentSpec is where a run's settings came from.
type tournamentSpec struct {
	file    tournament.File
	src     string // for error messages: the file, the saved copy, or "flags"
	baseDir string // where relative bot directories start
	out     string
}

// tournamentFile builds the File from FILE (a tournament file), DIR (an
// earlier run's output, resumed) or nothing (flags only, or the saved
// tournament in --out), then lays the flags over it.
func tournamentFile(c *cli.Context) (*tournamentSpec, error) {
	sp := &tournamentSpec{src: "flags", baseDir: ".", out: c.String("out")}
	f := &sp.file
	if c.NArg() > 1 {
		return nil, usagef("tournament run takes one FILE or DIR, got %d arguments", c.NArg())
	}
	resumeFrom := ""
	if arg := c.Args().First(); arg != "" {
		st, err := os.Stat(arg)
		switch {
		case err != nil:
			return nil, usagef("%v", err)
		case st.IsDir():
			resumeFrom = arg
			if sp.out == "" {
				sp.out = arg
			}
		default:
			loaded, err := tournament.LoadFile(arg)
			if err != nil {
				return nil, usageError{err}
			}
			*f, sp.src, sp.baseDir = *loaded, arg, filepath.Dir(arg)
		}
	} else if sp.out != "" && !c.IsSet("game") {
		// `run --out DIR [--concurrency N]`: the tournament saved there.
		if _, err := tournament.LoadSaved(sp.out); err == nil || errors.Is(err, tournament.ErrEdited) {
			resumeFrom = sp.out
		}
	}
	if resumeFrom != "" {
		saved, err := tournament.LoadSaved(resumeFrom)
		if err != nil {
			return nil, usageError{err}
		}
		*f, sp.src = *saved, filepath.Join(resumeFrom, tournament.SavedConfig)
	}
	// Flags override the file, field by field.
	for name, dst := range map[string]*string{"name": &f.Name, "game": &f.Game, "format": &f.Format,
		"seeding-from": &f.SeedingFrom, "tc": &f.Clock.TC, "on-timeout": &f.Failure.Policy} {
		if c.IsSet(name) {
			*dst = c.String(name)
		}
	}
	for name, dst := range map[string]*int{"seats": &f.Seats, "rounds": &f.Rounds, "games-per-encounter": &f.GamesPerEncounter,
		"advance": &f.Advance, "max-games": &f.MaxGames, "max-strikes": &f.Failure.MaxStrikes, "concurrency": &f.Concurrency} {
		if c.IsSet(name) {
			*dst = c.Int(name)
		}
	}
	for name, dst := range map[string]*tournament.Duration{"move-time": &f.Clock.Move, "startup-time": &f.Clock.Startup, "margin": &f.Clock.Margin} {
		if c.IsSet(name) {
			*dst = tournament.Duration(duration(c, name))
		}
	}
	for name, dst := range map[string]*[]string{"gauntlet": &f.Gauntlet, "seeding": &f.Seeding} {
		if c.IsSet(name) {
			*dst = c.StringSlice(name)
		}
	}
	for name, dst := range map[string]*bool{"fresh-deals": &f.FreshDeals, "restart-bots": &f.RestartBots} {
		if c.IsSet(name) {
			*dst = c.Bool(name)
		}
	}
	if c.IsSet("option") {
		given, err := parseOptions(c.StringSlice("option"))
		if err != nil {
			return nil, err
		}
		if f.Options == nil {
			f.Options = map[string]string{}
		}
		for k, v := range given {
			f.Options[k] = v
		}
	}
	if c.IsSet("bot") {
		f.Bots = nil
		for _, spec := range c.StringSlice("bot") {
			name, cmdline, ok := strings.Cut(spec, "=")
			if !ok {
				return nil, usagef("--bot %q: want NAME=CMD", spec)
			}
			f.Bots = append(f.Bots, tournament.BotFile{Name: name, Command: cmdline})
		}
	}
	if c.IsSet("seed") {
		var seed uint64
		if _, err := fmt.Sscan(c.String("seed"), &seed); err != nil {
			return nil, usagef("--seed %q: want a non-negative integer", c.String("seed"))
		}
		f.Seed = &seed
	}
	if path := c.String("deal-secret"); path != "" {
		// Relative to here, where a file's deal_secret is relative to the file.
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, usagef("--deal-secret %s: %v", path, err)
		}
		f.DealSecret = abs
	}
	limitsFromFlags(c, &f.Limits)
	if sp.out == "" {
		if f.Name == "" {
			return nil, usagef("give the tournament a name (--name or the file's name field) or an --out directory")
		}
		sp.out = filepath.Join("out", f.Name)
	}
	// The same command again resumes (the directory then holds the same
	// tournament): with no seed given, that is the saved one, not a new
	// random seed that would make it another tournament.
	saved, err := tournament.LoadSaved(sp.out)
	switch {
	case err == nil:
		f.InheritSeed(saved)
	case c.Bool("resume"):
		if errors.Is(err, tournament.ErrEdited) {
			return nil, usageError{err}
		}
		if errors.Is(err, os.ErrNotExist) {
			return nil, usagef("--resume: no tournament to resume in %s (it has no %s); give the tournament's output directory with --out or as DIR", sp.out, tournament.SavedConfig)
		}
		return nil, usagef("--resume: %v", err)
	}
	return sp, nil
}

func runTournament(c *cli.Context) error {
	sp, err := tournamentFile(c)
	if err != nil {
		return err
	}
	out := sp.out
	cfg, err := sp.file.Resolve(sp.src, sp.baseDir)
	if err != nil {
		return usageError{err}
	}
	cfg.BotOptions.Hide = hideSecret(cfg.BotOptions.Hide, cfg.SecretFile, out)
	if sp.src != "flags" {
		// The tournament file holds the seed: no bot may read it.
		if abs, err := filepath.Abs(sp.src); err == nil {
			cfg.BotOptions.Hide = append(cfg.BotOptions.Hide, abs)
		}
	}
	sb, err := cfg.Confine(sp.src, out)
	if err != nil {
		return usageError{err}
	}
	if cfg.BotOptions.User != "" {
		// Bots running as another user cannot read results or replays.
		if err := privateDir(out); err != nil {
			return err
		}
	}
	progress := c.App.ErrWriter
	quiet := c.Bool("quiet")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(progress, "arena: tournament %s: %s %s, %d bots, %d seats, concurrency %d, seed %d, %s, results in %s\n",
		cfg.Name, cfg.Game.Info().Name, cfg.Format, len(cfg.Bots), cfg.Seats, cfg.Concurrency, cfg.Seed, secretNote(cfg.SecretFile, out), out)
	fmt.Fprintf(progress, "arena: %s\n", sb.Describe())
	var last time.Time
	onGame := func(p tournament.Progress) {
		if quiet || (time.Since(last) < time.Second && p.Done != p.Total) {
			return
		}
		last = time.Now()
		fmt.Fprintln(progress, p.Line()+strikeTotals(p.Summary))
	}
	// On a terminal, a live bar; in CI logs, plain lines at most once a second.
	if f, ok := progress.(*os.File); ok && !quiet && isatty.IsTerminal(f.Fd()) {
		var bar *progressbar.ProgressBar
		onGame = func(p tournament.Progress) {
			if bar == nil {
				bar = progressbar.NewOptions(p.Total, progressbar.OptionSetWriter(f), progressbar.OptionShowCount(),
					progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionShowIts(), progressbar.OptionSetItsString("games"), progressbar.OptionFullWidth(),
					progressbar.OptionOnCompletion(func() { fmt.Fprintln(f) }))
			}
			if p.Total < 0 && p.Estimate > 0 {
				bar.ChangeMax(p.Estimate) // a bracket: about so many games
			}
			bar.Describe(p.Headline() + strikeTotals(p.Summary))
			bar.Set(p.Done)
		}
	}
	_, err = tournament.Run(ctx, cfg, out, tournament.Options{Version: Version, Warn: c.App.ErrWriter, OnGame: onGame})
	if errors.Is(err, tournament.ErrInterrupted) {
		fmt.Fprintf(c.App.ErrWriter, "arena: %v\narena: every finished game is recorded; resume with: arena tournament run %s\n", err, out)
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
	st, err := standingsOf(c, out)
	if err != nil {
		return err
	}
	return st.Table(c.App.Writer)
}

// standingsOf reads a results directory as a resume reads it, and
// prints its warnings (ratings that failed, ledger lines that do not
// count) to stderr.
func standingsOf(c *cli.Context, dir string) (*tournament.Standings, error) {
	d, err := tournament.Open(dir)
	if err != nil {
		var le *ledger.LineError
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, usageError{err}
	}
	st, err := d.Standings()
	if err != nil {
		return nil, err
	}
	for _, w := range st.Warnings {
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
	st, err := standingsOf(c, c.Args().First())
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
