package main

import (
	"os"
	"slices"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/human"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/engine"

	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

// humanName is the person's name in hello.players and the results.
const humanName = "you"

func playCommand() *cli.Command {
	return &cli.Command{
		Name:  "play",
		Usage: "take a seat yourself, against bots, in the terminal",
		Description: `You take --seat (default 0) in the first game; the --bot flags fill the
other seats in order, and seats rotate from one game to the next. Each turn
fits an 80x24 terminal: your seat's view (the Banqi board, the Uno table
and your hand, the Boon table and hand), what the others did since, what
you are asked, and your choices. Type your move in the game's notation:
Banqi b3 (flip) or b3-b4 (move, capture); Uno r7, wd4 green, draw (d),
challenge (c), accept (a); Boon take (t), pass (p), a card (b5, au14). A
number picks a listed choice (scripts may pipe numbers in). ? shows the
legend, v the view as JSON, q (or the end of input) leaves the game: a
forfeit, recorded as "left". The referee is the one of arena match, with
the bots' clocks; yours has none unless --timed.

   arena play --game banqi --bot greedy='arena bot greedy'
   arena play --game uno --seat 1 --bot a='arena bot random' --bot b='arena bot greedy'`,
		Flags: append([]cli.Flag{
			gameFlag("game to play (see arena games); required"),
			&cli.IntFlag{Name: "seat", Usage: "your seat in the first game, from 0"},
			&cli.BoolFlag{Name: "timed", Usage: "play on the bots' clock (--move-time, --tc): a choice not made in time is a timeout, as for a bot"},
			&cli.StringSliceFlag{Name: "bot", Usage: "NAME=CMD, one per other seat, in seat order"},
			optionFlag(),
			&cli.IntFlag{Name: "games", Value: 1, Usage: "games to play (each deals new cards; seats rotate from one game to the next)"},
			options.SeedFlag("match seed", "random, printed"),
			options.Flags(options.Own, "deal-secret")[0],
			&cli.StringFlag{Name: "out", Usage: "directory for results.jsonl, replays/ and logs/"},
		}, append(options.Referee(), sandboxFlags()...)...),
		Action: runPlay,
	}
}

func runPlay(c *cli.Context) error {
	if c.Args().Present() {
		return usage.Errorf("unexpected argument %q (bots are given with --bot NAME=CMD)", c.Args().First())
	}
	if !c.IsSet("game") {
		return usage.Errorf("--game is required: e.g. arena play --game banqi --bot greedy='arena bot greedy'")
	}
	game, given, err := gameAndOptions(c)
	if err != nil {
		return err
	}
	botList, err := parseBots(c.StringSlice("bot"))
	if err != nil {
		return err
	}
	if bot.HasScheme(botList, remote.SchemeName) {
		return usage.Errorf("--bot nats:BOTID: arena play seats local bots only")
	}
	if slices.ContainsFunc(botList, func(b bot.Spec) bool { return b.Name == humanName }) {
		return usage.Errorf("--bot %s=...: %q is your name here", humanName, humanName)
	}
	seats := len(botList) + 1
	seat := c.Int("seat")
	if seat < 0 || seat >= seats {
		return usage.Errorf("--seat %d: want 0 to %d (%d --bot flags and you)", seat, seats-1, len(botList))
	}
	opts, err := engine.Setup(game, seats, given)
	if err != nil {
		return usage.Wrap(err)
	}
	settings, err := runSettings(c)
	if err != nil {
		return err
	}
	settings.FreshDeals = true // nothing to even out between a person and bots
	games := c.Int("games")
	if games < 1 {
		return usage.Errorf("--games %d: want at least 1", games)
	}
	seed, err := seedFlag(c)
	if err != nil {
		return err
	}
	out := c.String("out")
	plan, err := runPlan(c, botList, out, settings, 1, seats)
	if err != nil {
		return err
	}
	w := c.App.ErrWriter
	plan.Confined = func(r *runplan.Run) {
		output.PlayHeader(w, game.Info().Name, games, seed, seat, settings.Limits)
		sayConfinement(c, w, "arena: ", r.Sandbox)
	}
	r, err := plan.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	person := &human.Seat{
		In: os.Stdin, Out: c.App.Writer, Timed: c.Bool("timed"), DropTypeahead: isatty.IsTerminal(os.Stdin.Fd()), Results: true,
	}
	specs := slices.Insert(r.Bots, seat, bot.Spec{Name: humanName, Launcher: person})

	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	o := output.Play{Person: person, Name: humanName, Kept: out != ""}
	sum, err := match.Run(ctx, match.Config{
		Settings: settings, Game: game, Options: opts, Games: games, Seed: seed, Secret: r.Secret, OutDir: out, Version: Version,
		OnGame: func(r ledger.Record) { o.Game(output.Game{Record: r, Total: games}) },
		Warn:   w,
	}, specs)
	if oerr := o.End(output.End{Summary: sum}); oerr != nil {
		return oerr
	}
	return r.Err(err)
}
