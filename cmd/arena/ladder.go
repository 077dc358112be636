package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/outdir"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/internal/words"
)

// ladderGrace is how long a ladder stopped by a signal lets its running
// games finish (ladder.RunOptions.AbandonAfter): a tournament's (the
// default of tournament.Options.AbandonAfter).
const ladderGrace = 5 * time.Second

func ladderCommand() *cli.Command {
	sub := func(name, usage, args, desc string, action cli.ActionFunc, flags ...cli.Flag) *cli.Command {
		return &cli.Command{Name: name, Usage: usage, ArgsUsage: args, Description: desc, Action: action, Flags: flags}
	}
	return withUsage(&cli.Command{
		Name:  "ladder",
		Usage: "run a standing ladder: bots submitted while it plays, rated game by game",
		Description: `A ladder plays for as long as it runs: the matchmaker chooses each next table,
contestants submit bots (and new versions) from other processes, each is
validated before it plays, and every version has a Weng-Lin rating:

   arena ladder init out/cup ladder.yaml
   arena ladder run out/cup
   arena ladder submit out/cup mybot --name me --command 'python3 bot.py' --wait
   arena ladder standings out/cup`,
		Subcommands: []*cli.Command{
			sub("init", "make a ladder directory from a ladder file", "DIR FILE",
				"FILE is a ladder file (ladder.yaml: game, seats, clocks, rating, matchmaking,\nsubmissions, bundled bots); DIR a new or empty directory.\n\n   arena ladder init out/cup ladder.yaml", initLadder),
			sub("run", "run (or resume) a ladder until SIGINT or SIGTERM", "DIR",
				"Plays the ladder in DIR and takes submissions in, until stopped (Ctrl-C or\nSIGTERM: running games get a few seconds to finish). A run killed outright\nresumes where it stopped: no game is lost or counted twice. At its end it\nchecks that its live ratings equal a recomputation from the ledger.\n\n   arena ladder run out/cup",
				runLadder, ladderRunFlags()...),
			sub("submit", "submit a bot (a new version) to a ladder, running or not", "DIR [BOTDIR]",
				"Copies BOTDIR into the ladder as a submission, which the ladder's run builds,\nvalidates and admits or refuses. --name, --command and --build may come from\nBOTDIR/manifest.json ({\"name\": ..., \"command\": ..., \"build\": ...}); the flags\nwin. A bot served from elsewhere (arena connect, docs/remote.md) has no BOTDIR:\nthe organiser enters it with --name NAME --command nats:NAME, judged while it\nis served. Exit 1 with\n--wait when it is refused.\n\n   arena ladder submit out/cup mybot --name me --command 'python3 bot.py' --wait\n   arena ladder submit out/cup --name me --command nats:me --wait",
				submitLadder,
				&cli.StringFlag{Name: "name", Usage: "the bot's name in the ladder (its versions play as NAME.vN)"},
				&cli.StringFlag{Name: "command", Usage: "the command that runs the bot, in BOTDIR"},
				&cli.StringFlag{Name: "build", Usage: "a build command run in BOTDIR, in the sandbox, before it is validated"},
				&cli.BoolFlag{Name: "wait", Usage: "wait for the verdict and print its report"}),
			sub("withdraw", "take a bot out of a ladder, running or not (its games stay)", "DIR NAME",
				"Asks the ladder's run to seat bot NAME at no further table (a ladder not\nrunning: its next run). Only the user the name belongs to, or the organiser,\nmay. A new version submitted later brings it back.\n\n   arena ladder withdraw out/cup alice --reason 'rewriting it'",
				withdrawLadder,
				&cli.StringFlag{Name: "reason", Usage: "why, kept in the roster and shown on the leaderboard"},
				&cli.BoolFlag{Name: "wait", Usage: "wait until the run has taken it"}),
			sub("status", "show a submission's verdict and report", "DIR ID",
				"Exit 0 whatever the verdict (waiting, admitted, refused).\n\n   arena ladder status out/cup ID", ladderStatus,
				options.JSONFlag("the report as one JSON object")),
			sub("serve", "serve a ladder's live leaderboard (read-only), beside its run or alone", "DIR",
				"Serves the standings, each bot's page, the recent games with their replays, and\na live feed, from DIR's files (it takes no lock: another process may run the\nladder). A game is shown only once every game of its table (its deal) has\nended. arena ladder run --http ADDR does the same inside the run.\n\n   arena ladder serve out/cup --http 8080", serveLadder,
				httpFlag(web.DefaultAddr)),
			sub("standings", "show a ladder's standings (during or after a run)", "DIR",
				"   arena ladder standings out/cup\n   arena ladder standings out/cup --json", ladderStandings,
				options.JSONFlag("one JSON object")),
		},
	})
}

// ladderErr is err as the command says it: the command line's mistake (a
// file or directory that is not there or not a ladder's, a ladder file's
// mistake, a bad bot name or directory) exits 2.
func ladderErr(err error) error {
	var field *options.FieldError
	var file *tournament.FileError
	for _, e := range []error{fs.ErrNotExist, ladder.ErrNotLadder, ladder.ErrExists, intake.ErrName, intake.ErrTooLarge, intake.ErrUnsafe, intake.ErrUnknown} {
		if errors.Is(err, e) {
			return usage.Wrap(err)
		}
	}
	if errors.As(err, &field) || errors.As(err, &file) {
		return usage.Wrap(err)
	}
	return err
}

// ladderArgs are the command's n arguments, or a usage error naming them.
func ladderArgs(c *cli.Context, names ...string) ([]string, error) {
	if c.NArg() != len(names) {
		return nil, usage.Errorf("ladder %s needs %s, got %d arguments", c.Command.Name, words.List(names), c.NArg())
	}
	return c.Args().Slice(), nil
}

func initLadder(c *cli.Context) error {
	args, err := ladderArgs(c, "DIR", "FILE")
	if err != nil {
		return err
	}
	cfg, err := ladder.Init(args[0], args[1])
	if err != nil {
		return ladderErr(err)
	}
	w, dir := c.App.Writer, words.ShellQuote(args[0])
	seats := words.Count(cfg.Seats.Max, "seat", "seats")
	if cfg.Seats.Min != cfg.Seats.Max { // a range: as run and standings say it
		seats = fmt.Sprintf("%d-%d seats", cfg.Seats.Min, cfg.Seats.Max)
	}
	fmt.Fprintf(w, "ladder %s made in %s: %s, %s, %s (%s)\n", cfg.Name, args[0], cfg.Game.Info().Name, seats,
		words.Count(len(cfg.Bots), "bundled bot", "bundled bots"), words.List(specNames(cfg)))
	fmt.Fprintf(w, "next: arena ladder run %s\nthen, from another shell: arena ladder submit %s BOTDIR --name NAME --command CMD\n", dir, dir)
	return nil
}

func specNames(cfg *ladder.Config) []string {
	names := make([]string, len(cfg.Bots))
	for i, b := range cfg.Bots {
		names[i] = b.Name
	}
	return names
}

func runLadder(c *cli.Context) error {
	args, err := ladderArgs(c, "DIR")
	if err != nil {
		return err
	}
	dir, progress := args[0], c.App.ErrWriter
	st, err := ladder.ReadRatings(dir) // the start line: no cross-check, flat in memory
	if err != nil {
		return ladderErr(err)
	}
	// A second run is refused before its NATS server and leaderboard
	// start, which would say they are up, or fail on the first run's port.
	if err := outdir.Busy(dir); err != nil {
		return err
	}
	output.LadderStart(progress, st)
	ctx, release := stop.Context(progress)
	defer release()
	var mu sync.Mutex // the run's goroutine (games) and the intake's (admissions) both print
	say := func(w io.Writer, format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, format, args...)
	}
	lines := progress // the games', which --quiet drops
	if c.Bool("quiet") {
		lines = io.Discard
	}
	opts := ladder.RunOptions{Version: Version, Warn: progress, AbandonAfter: ladderGrace,
		Confined: func(sb *sandbox.Sandbox) { sayConfinement(c, progress, "arena: ", sb) },
		OnGame: func(p ladder.Progress) {
			say(lines, "%s\n", output.LadderGame(p.Last, func(v string) float64 { return p.Ratings.Get(v).Display() }))
			for _, s := range p.Suspended {
				say(progress, "arena: %s suspended: %s\n", s.Name, s.Why)
			}
		},
		Intake: func(ctx context.Context, l *ladder.Ladder, admitted func(ladder.Event)) error {
			reps, err := intake.Process(ctx, l, intake.Options{Admitted: admitted, Withdrawn: admitted})
			for _, rep := range reps {
				say(progress, "%s\n", output.IntakeLine(rep))
			}
			return err
		},
	}
	// The run's paths (the versions' directories, where their sandbox
	// starts them) are the ladder directory's: absolute, wherever the
	// bots' processes start.
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	link, err := ladderPlan(c, abs, &opts)
	if err != nil {
		return ladderErr(err)
	}
	defer link.Close()
	board, stopBoard := context.WithCancel(ctx)
	changed, boardDone, err := leaderboard(board, c, abs, c.String("http"))
	if err != nil {
		stopBoard()
		return ladderErr(err)
	}
	defer boardDone()
	defer stopBoard() // after the run: the page shows its last games first
	onGame := opts.OnGame
	opts.OnGame = func(p ladder.Progress) { onGame(p); changed() }
	res, err := ladder.Run(ctx, abs, opts)
	if err != nil {
		return ladderErr(err)
	}
	output.LadderStopped(progress, st.Name, dir, context.Cause(ctx), res)
	return checkRatings(c, abs, res)
}

// checkRatings says whether the ratings a run ended with equal those
// folded from its ledger, which a resume and the standings compute, then
// prints the standings.
func checkRatings(c *cli.Context, dir string, res *ladder.Result) error {
	st, err := ladder.ReadStandings(dir)
	if err != nil {
		return err
	}
	if err := st.Check(res.Ratings); err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "arena: ratings check: the live ratings equal a recomputation from the ledger (%s)\n", words.Count(st.Games, "game", "games"))
	return output.LadderStandings(c.App.Writer, st)
}

// submission is the manifest of BOTDIR (manifest.json, if there is one)
// with the flags laid over it.
func submission(c *cli.Context, botDir string) (intake.Manifest, error) {
	var m intake.Manifest
	path := filepath.Join(botDir, intake.ManifestName)
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &m); err != nil {
			return m, usage.Errorf("%s: %v (want {\"name\": ..., \"command\": ..., \"build\": ...})", path, err)
		}
	}
	for _, f := range []struct {
		flag string
		to   *string
	}{{"name", &m.Name}, {"command", &m.Command}, {"build", &m.Build}} {
		if c.IsSet(f.flag) {
			*f.to = c.String(f.flag)
		}
	}
	if m.Name == "" || m.Command == "" {
		return m, usage.Errorf("ladder submit needs --name and --command (or %s with a name and a command)", path)
	}
	return m, nil
}

func submitLadder(c *cli.Context) error {
	if c.NArg() == 1 { // a bot that runs elsewhere: no files
		if !c.IsSet("name") || !strings.Contains(c.String("command"), ":") {
			return usage.Errorf("ladder submit DIR BOTDIR, or for a bot you serve from your machine: ladder submit DIR --name NAME --command nats:NAME")
		}
		return deliverSubmission(c, c.Args().First(), "", intake.Manifest{Name: c.String("name"), Command: c.String("command")})
	}
	args, err := ladderArgs(c, "DIR", "BOTDIR")
	if err != nil {
		return err
	}
	dir, botDir := args[0], args[1]
	if st, err := os.Stat(botDir); err != nil || !st.IsDir() {
		return usage.Errorf("%s is not a directory (BOTDIR: the bot's files)", botDir)
	}
	m, err := submission(c, botDir)
	if err != nil {
		return err
	}
	return deliverSubmission(c, dir, botDir, m)
}

// deliverSubmission submits m (its files in botDir; "" none) to the
// ladder in dir, and follows it.
func deliverSubmission(c *cli.Context, dir, botDir string, m intake.Manifest) error {
	id, err := intake.SubmitManifest(dir, botDir, m)
	if err != nil {
		return ladderErr(err)
	}
	fmt.Fprintf(c.App.Writer, "submitted %s as submission %s\n", m.Name, id)
	return follow(c, dir, id)
}

// follow tells how to follow request id (a submission, a withdrawal),
// or with --wait waits for its verdict and prints it: exit 1 if refused.
func follow(c *cli.Context, dir, id string) error {
	w := c.App.Writer
	if !c.Bool("wait") {
		fmt.Fprintf(w, "follow it with: arena ladder status %s %s\n", words.ShellQuote(dir), id)
		return nil
	}
	ctx, release := stop.Context(c.App.ErrWriter) // before saying it waits: Ctrl-C from then on is taken
	defer release()
	if outdir.Busy(dir) == nil { // nobody holds the ladder: no run
		fmt.Fprintf(c.App.ErrWriter, "arena: no run of this ladder is going on: the verdict comes once one starts (arena ladder run %s); Ctrl-C stops waiting, not the submission\n", words.ShellQuote(dir))
	} else {
		fmt.Fprintf(c.App.ErrWriter, "arena: waiting for the verdict, which the ladder's run gives (arena ladder run %s)\n", words.ShellQuote(dir))
	}
	rep, err := intake.Await(ctx, dir, id)
	if err != nil {
		return ladderErr(err)
	}
	output.SubmissionReport(w, rep)
	if rep.Verdict == intake.VerdictRefused {
		return cli.Exit("", exitFail)
	}
	return nil
}

func withdrawLadder(c *cli.Context) error {
	args, err := ladderArgs(c, "DIR", "NAME")
	if err != nil {
		return err
	}
	id, err := intake.Withdraw(args[0], args[1], c.String("reason"))
	if err != nil {
		return ladderErr(err)
	}
	fmt.Fprintf(c.App.Writer, "asked to withdraw %s: request %s\n", args[1], id)
	return follow(c, args[0], id)
}

func ladderStatus(c *cli.Context) error {
	args, err := ladderArgs(c, "DIR", "ID")
	if err != nil {
		return err
	}
	rep, err := intake.Status(args[0], args[1])
	if err != nil {
		return ladderErr(err)
	}
	if c.Bool("json") {
		return output.WriteJSON(c.App.Writer, rep)
	}
	output.SubmissionReport(c.App.Writer, rep)
	return nil
}

func ladderStandings(c *cli.Context) error {
	args, err := ladderArgs(c, "DIR")
	if err != nil {
		return err
	}
	st, err := ladder.ReadStandings(args[0])
	if err != nil {
		return ladderErr(err)
	}
	for _, w := range st.Warnings {
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: %s\n", w)
	}
	if c.Bool("json") {
		return output.WriteJSON(c.App.Writer, st)
	}
	return output.LadderStandings(c.App.Writer, st)
}
