package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/engine"

	"github.com/arena-dev/arena/internal/words"
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
		return usagef("unexpected argument %q (bots are given with --bot NAME=CMD)", c.Args().First())
	}
	if c.String("game") == "" {
		return usagef("--game is required, with one --bot NAME=CMD per seat: e.g. arena match --game banqi " +
			"--bot a='arena bot greedy' --bot b='arena bot random' (arena games lists the games, arena help match every flag)")
	}
	game, given, err := gameAndOptions(c)
	if err != nil {
		return err
	}
	botList, remoteIDs, err := parseBots(c.StringSlice("bot"))
	if err != nil {
		return err
	}
	trace, err := traceFlag(c, botList)
	if err != nil {
		return err
	}
	opts, err := engine.Setup(game, len(botList), given)
	if err != nil {
		return usageError{err}
	}
	settings, err := runSettings(c)
	if err != nil {
		return err
	}
	limits := settings.Limits
	seats := len(botList)
	games := c.Int("games")
	if !c.IsSet("games") {
		games = match.Rotation(seats)
	}
	if games < 1 {
		return usagef("--games %d: want at least 1", games)
	}
	concurrency := c.Int("concurrency")
	if concurrency < 1 {
		return usagef("--concurrency %d: want at least 1", concurrency)
	}
	seed, err := seedFlag(c)
	if err != nil {
		return err
	}
	progress := c.App.ErrWriter
	if c.Bool("quiet") {
		progress = io.Discard
	}
	if rot := match.Rotation(seats); games%rot != 0 && !c.Bool("fresh-deals") {
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: --games %d is not a multiple of %d, so seats are not rotated evenly\n", games, rot)
	}
	out := c.String("out")
	secret, secretFile, err := dealSecret(c, botList)
	if err != nil {
		return err
	}
	sb, err := confineBots(c, botList, out, secretFile)
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "arena: %s, %d games, seed %d, %s, %s\n", game.Info().Name, games, seed, secretNote(secretFile, out), limits)
	sayConfinement(c, progress, "arena: ", sb)

	ctx, release := stopContext(c.App.ErrWriter)
	defer release()
	start := time.Now()
	specs := bot.Specs(botList)
	executor, closeNATS, err := matchExecutor(c, specs, remoteIDs, out, concurrency, limits.Startup)
	if err != nil {
		return err
	}
	defer closeNATS()
	if w := run.LoadWarning(concurrency, seats); w != "" && executor == nil && c.IsSet("concurrency") { // played here, not by workers
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: %s\n", w)
	}
	var tr *bot.Tracer
	if trace >= 0 {
		tr = bot.Traced(specs[trace].Launcher, c.App.ErrWriter)
		specs[trace].Launcher = tr
	}
	sum, err := match.Run(ctx, match.Config{
		Settings: settings, Game: game, Options: opts, Games: games, Seed: seed, Secret: secret, OutDir: out, Version: Version,
		Concurrency: concurrency, Executor: executor,
		OnGame: func(r ledger.Record) { fmt.Fprintln(progress, gameLine(r, games, out != "")) },
		Warn:   c.App.ErrWriter, // a stale lock, leftovers removed, lost stderr logs
	}, specs)
	if tr != nil {
		tr.Flush() // the trace's last lines before the summary, not after it
	}
	if sum != nil && sum.Games > 0 {
		if c.Bool("json") {
			enc := json.NewEncoder(c.App.Writer)
			enc.SetIndent("", "  ")
			if jerr := enc.Encode(sum); jerr != nil {
				return jerr
			}
		} else {
			printSummary(c.App.Writer, sum, time.Since(start))
		}
	}
	if u := runplan.CommandLine(err, secretFile); u != nil {
		return usageError{u}
	}
	return err
}

// matchExecutor reaches the remote bots among specs (remoteIDs) and, with
// --distributed, makes the executor whose workers play the games (nil:
// they are played here); done closes what it opened, and is set even on
// error.
func matchExecutor(c *cli.Context, specs []bot.Spec, remoteIDs map[int]string, out string, concurrency int, wait time.Duration) (
	executor func(run.Config) (run.Executor, error), done func(), err error) {
	if !c.Bool("distributed") {
		done, err = remoteSpecs(c, specs, remoteIDs, wait)
		if done == nil {
			done = func() {}
		}
		return nil, done, err
	}
	link, maker, done, err := natsRun(c, out, concurrency, len(specs))
	if err != nil {
		return nil, done, err
	}
	for i, id := range remoteIDs {
		specs[i].Launcher = &remote.Launcher{NC: link.NC, ID: id, Wait: wait, Grace: options.DurationOf(c, "nats-grace")}
	}
	return maker, done, nil
}

// gameLine is a game's progress line: the bots by seat with their ranks,
// the plies, how it ended, and for each bot that forfeited why (with
// what it last wrote to stderr, and where its whole log is: kept is true
// with --out), and for each bot struck (--on-timeout random) its strikes.
func gameLine(r ledger.Record, total int, kept bool) string {
	line := fmt.Sprintf("game %d/%d %s: %s, %s, %s", r.Index+1, total, r.GameID, placesText(r.Bots, r.Ranks), words.Count(r.Plies, "ply", "plies"), engine.NameSeats(r.Reason, r.Bots))
	return line + failuresText(r, kept)
}

// placesText lists a game's bots by finishing place, best first, seat
// order among equals: "random 1st, me 2nd"; bots sharing a place are
// named together: "me and random tied 1st", "a 1st, b, c and d tied 2nd".
func placesText(bots []string, ranks []int) string {
	order := make([]int, len(bots))
	for s := range order {
		order[s] = s
	}
	slices.SortStableFunc(order, func(a, b int) int { return ranks[a] - ranks[b] })
	var parts []string
	for i := 0; i < len(order); {
		var names []string
		j := i
		for ; j < len(order) && ranks[order[j]] == ranks[order[i]]; j++ {
			names = append(names, bots[order[j]])
		}
		place := words.Ordinal(ranks[order[i]])
		if len(names) == 1 {
			parts = append(parts, names[0]+" "+place)
		} else {
			parts = append(parts, words.List(names)+" tied "+place)
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// strikesText describes a game's strikes, per bot in the order they
// first struck: " [r struck 2 times: timeout, illegal_action; last: DETAIL]".
func strikesText(strikes []ledger.SeatFailure) string {
	var order []string
	per := map[string][]ledger.SeatFailure{}
	for _, f := range strikes {
		if per[f.Bot] == nil {
			order = append(order, f.Bot)
		}
		per[f.Bot] = append(per[f.Bot], f)
	}
	var b strings.Builder
	for _, bot := range order {
		fs := per[bot]
		reasons := make([]string, len(fs))
		for i, f := range fs {
			reasons[i] = string(f.Reason)
		}
		times := "once"
		if len(fs) > 1 {
			times = fmt.Sprintf("%d times", len(fs))
		}
		fmt.Fprintf(&b, " [%s struck %s: %s; last: %s]", bot, times, strings.Join(reasons, ", "), fs[len(fs)-1].Detail)
	}
	return b.String()
}

// strikeTotals is " (strikes: a 3, b 1)" for the bots of sum that were
// struck, "" if none was.
func strikeTotals(sum *match.Summary) string {
	if sum == nil || sum.Strikes() == 0 {
		return ""
	}
	var parts []string
	for _, b := range sum.Bots {
		if b.Strikes > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", b.Name, b.Strikes))
		}
	}
	return " (strikes: " + strings.Join(parts, ", ") + ")"
}

func printSummary(w io.Writer, sum *match.Summary, took time.Duration) {
	t := tablewriter.NewWriter(w)
	// Strikes (--on-timeout random) get a column when there are any: a
	// bot that was helped out of failed turns should be seen to be.
	struck := sum.Strikes() > 0
	header := []any{"bot", "games", "wins", "draws", "losses", "forfeits"}
	if struck {
		header = append(header, "strikes")
	}
	t.Header(append(header, "score", "score %", "mean rank")...)
	for _, b := range sum.Bots {
		row := []any{b.Name, b.Games, b.Wins, b.Draws, b.Losses, b.Forfeits}
		if struck {
			row = append(row, b.Strikes)
		}
		t.Append(append(row, fmt.Sprintf("%.1f", b.Score), fmt.Sprintf("%.1f", b.ScorePct()), fmt.Sprintf("%.2f", b.MeanRank))...)
	}
	t.Render()
	if e, ok := sum.EloEstimate(); ok {
		fmt.Fprintln(w, eloLine(sum.Bots[0].Name, sum.Bots[1].Name, e))
		fmt.Fprintln(w, losLine(sum.Bots[0].Name, sum.Bots[1].Name, e))
	}
	fmt.Fprintf(w, "%s in %v", words.Count(sum.Games, "game", "games"), took.Round(time.Millisecond))
	if sum.Out != "" {
		fmt.Fprintf(w, "; results in %s", filepath.Join(sum.Out, "results.jsonl"))
	}
	fmt.Fprintln(w)
}

// eloLine is the match's Elo line: a's Elo difference to b with its 95%
// interval, computed on the score scale and converted, so asymmetric, and
// open where the score's interval passes 0 or 1 ("+381.7, at least
// +159.0"); when one bot won every game, the exact bound, phrased on the
// side it bounds whichever bot is named first ("a vs b: at most -278" when
// b won all 20), and said to be inconclusive when it does not exclude the
// loser being the stronger (2 of 2 gives only "at least -291"). The
// parenthesis says what was counted: game pairs (one deal, seats swapped,
// pentanomial error bars, as arena sprt) or games.
func eloLine(a, b string, e match.EloEstimate) string {
	head := fmt.Sprintf("Elo difference %s vs %s: ", a, b)
	basis := fmt.Sprintf("%d games, unpaired", e.Units)
	if e.Paired {
		basis = fmt.Sprintf("%d game pairs", e.Units)
		if e.Units == 1 {
			basis = "1 game pair"
		}
	}
	if e.Left > 0 {
		basis += "; the last game, without its pair, left out"
	}
	if math.IsInf(e.Elo, 0) {
		winner, bound, word := a, e.EloLow, "at least"
		if e.Elo < 0 {
			winner, bound, word = b, e.EloHigh, "at most"
		}
		all := fmt.Sprintf("all %d games", e.Games)
		switch e.Games {
		case 1:
			all = "the only game"
		case 2:
			all = "both games"
		}
		note := ""
		if (e.Elo > 0) != (bound > 0) {
			note = ": too few to tell which bot is stronger"
		}
		return fmt.Sprintf("%s%s %+.0f (95%%; %s won %s%s)", head, word, bound, winner, all, note)
	}
	lo, hi := e.EloLow, e.EloHigh
	switch {
	case e.Units < 2:
		return fmt.Sprintf("%s%+.1f (%s: too few for an interval)", head, e.Elo, basis)
	case lo == hi:
		return fmt.Sprintf("%s%+.1f (%s, all scored alike: no spread to put an interval on)", head, e.Elo, basis)
	case stats.Symmetric(e.Elo, lo, hi):
		return fmt.Sprintf("%s%+.1f +/- %.1f (95%%; %s)", head, e.Elo, (hi-lo)/2, basis)
	case !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
		return fmt.Sprintf("%s%+.1f, 95%% interval [%+.1f, %+.1f] (%s)", head, e.Elo, lo, hi, basis)
	case !math.IsInf(lo, 0):
		return fmt.Sprintf("%s%+.1f, at least %+.1f (95%%; %s)", head, e.Elo, lo, basis)
	case !math.IsInf(hi, 0):
		return fmt.Sprintf("%s%+.1f, at most %+.1f (95%%; %s)", head, e.Elo, hi, basis)
	}
	return fmt.Sprintf("%s%+.1f, not bounded either way at 95%% (%s: too few games)", head, e.Elo, basis)
}

// losLine is the match's likelihood of superiority of a over b, exact
// from the decisive games of the Elo estimate (stats.LOS): "LOS a vs b:
// 99.95% (the chance that the stronger is a, from the decisive games: 10
// won, 0 lost; draws do not count)".
func losLine(a, b string, e match.EloEstimate) string {
	return fmt.Sprintf("LOS %s vs %s: %s (the chance that the stronger is %s, from the decisive games: %d won, %d lost; draws do not count)",
		a, b, stats.FormatLOS(e.LOS), a, e.WDL.W, e.WDL.L)
}

// parseBots reads --bot NAME=CMD flags. A CMD nats:BOTID seats a remote
// bot: it gets no command (ids[i] is its id).
func parseBots(specs []string) (out []bot.Command, ids map[int]string, err error) {
	if len(specs) == 0 {
		return nil, nil, usagef("no bots: give one --bot NAME=CMD per seat")
	}
	seen := map[string]bool{}
	ids = map[int]string{}
	for _, spec := range specs {
		name, cmdline, ok := strings.Cut(spec, "=")
		if !ok || strings.TrimSpace(cmdline) == "" {
			return nil, nil, usagef("--bot %q: want NAME=CMD", spec)
		}
		if err := bot.CheckName(name); err != nil {
			return nil, nil, usagef("--bot %q: %v", spec, err)
		}
		if seen[name] {
			return nil, nil, usagef("--bot %q: name %q is used twice", spec, name)
		}
		seen[name] = true
		if id, ok := bot.RemoteID(cmdline); ok {
			if err := bot.CheckRemoteID(id); err != nil {
				return nil, nil, usagef("--bot %s: %v", name, err)
			}
			ids[len(out)] = id
			out = append(out, bot.Command{Name: name})
			continue
		}
		argv, err := bot.ParseCommand(cmdline, "")
		if err != nil {
			return nil, nil, usagef("--bot %s: %v", name, err)
		}
		out = append(out, bot.Command{Name: name, Argv: argv})
	}
	return out, ids, nil
}

// confineBots builds the sandbox from the flags and wraps every bot in it.
// With --bot-user the output directory is made unreadable to others, so
// bots cannot read results and replays (docs/security.md). Isolated bots
// see neither the output directory nor the directory of a reused deal
// secret file (secretFile, "" if none).
func confineBots(c *cli.Context, botList []bot.Command, out, secretFile string) (*sandbox.Sandbox, error) {
	lf, err := options.ReadLimits(c)
	if err != nil {
		return nil, usageError{err}
	}
	lim, err := lf.Resolve()
	if err != nil {
		var fe *options.FieldError
		if errors.As(err, &fe) { // the limits field the flag --bot-FIELD sets
			return nil, usagef("%s: %v", options.LimitFlag(fe.Field), fe.Err)
		}
		return nil, usageError{err}
	}
	opts := lf.Options(".")
	if out != "" {
		// Isolated bots must not see results and replays of finished games:
		// a finished game of a rotation block tells the deal of the next.
		// A bot that names a file there is refused now, before a check of
		// who may read it would suggest opening it.
		if err := bot.CheckOutside(botList, out); err != nil {
			return nil, usagef("--out %s: %w", out, err)
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
		opts.Hide = []string{out}
	}
	opts.Hide = hideSecret(opts.Hide, secretFile, out)
	for _, b := range botList {
		if len(b.Argv) > 0 { // a remote bot runs elsewhere
			opts.Programs = append(opts.Programs, sandbox.Program{Argv: b.Argv, Dir: b.Dir})
		}
	}
	sb, err := sandbox.New(lim, opts)
	if err != nil {
		return nil, usageError{sandboxFlagErr(err)}
	}
	if lf.User != "" && out != "" {
		if err := privateDir(out); err != nil {
			return nil, err
		}
	}
	for i := range botList {
		botList[i].Sandbox = sb
	}
	return sb, nil
}

// privateDir creates dir (if needed) readable by the arena's user only.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	return nil
}

func parseOptions(specs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, spec := range specs {
		k, v, ok := strings.Cut(spec, "=")
		if !ok || k == "" {
			return nil, usagef("--option %q: want key=value", spec)
		}
		out[k] = v
	}
	return out, nil
}

// runSettings reads the referee flags (options.Referee) and
// --fresh-deals.
func runSettings(c *cli.Context) (run.Settings, error) {
	s, err := options.RunSettings(c)
	if err != nil {
		return s, usageError{err}
	}
	return s, nil
}

// traceFlag is the index of the bot --trace names (by name, or by the
// number of its --bot from 0), -1 without --trace.
func traceFlag(c *cli.Context, bots []bot.Command) (int, error) {
	which := c.String("trace")
	if which == "" {
		return -1, nil
	}
	names := make([]string, len(bots))
	for i, b := range bots {
		if b.Name == which || strconv.Itoa(i) == which {
			return i, nil
		}
		names[i] = fmt.Sprintf("%d or %s", i, b.Name)
	}
	return -1, usagef("--trace %q: no such bot (want %s)", which, strings.Join(names, ", "))
}
