package main

import (
	"errors"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/human"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/runplan"

	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

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
			options.GameFlag("game to play (see arena games); required"),
			&cli.IntFlag{Name: "seat", Usage: "your seat in the first game, from 0"},
			&cli.BoolFlag{Name: "timed", Usage: "play on the bots' clock (--move-time, --tc): a choice not made in time is a timeout, as for a bot"},
			&cli.StringSliceFlag{Name: "bot", Usage: "NAME=CMD, one per other seat, in seat order"},
			options.OptionFlag(),
			&cli.IntFlag{Name: "games", Value: 1, Usage: "games to play (each deals new cards; seats rotate from one game to the next)"},
			options.SeedFlag("match seed", "random, printed"),
			options.Flags(options.Own, "deal-secret")[0],
			&cli.StringFlag{Name: "out", Usage: "directory for results.jsonl, replays/ and logs/"},
		}, append(options.Referee(), options.SandboxFlags()...)...),
		Action: runPlay,
	}
}

func runPlay(c *cli.Context) error {
	seat := c.Int("seat")
	cfg, botList, err := matchConfig(c, c.IsSet("game"), "--game is required: e.g. arena play --game banqi --bot greedy='arena bot greedy'",
		func(bots []bot.Spec) (int, error) {
			seats, err := human.Seating(bots, seat)
			var fe *human.FieldError
			if errors.As(err, &fe) {
				return 0, usage.Errorf("--%s %s: %w", fe.Field, fe.Value, fe.Err)
			}
			return seats, err
		})
	if err != nil {
		return err
	}
	cfg.FreshDeals = true // nothing to even out between a person and bots
	plan, err := runPlan(c, botList, cfg.OutDir, cfg.Settings, 1, len(botList)+1)
	if err != nil {
		return err
	}
	w := c.App.ErrWriter
	plan.Confined = func(r *runplan.Run) {
		output.PlayHeader(w, cfg.Game.Info().Name, cfg.Games, cfg.Seed, seat, cfg.Limits)
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
	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	o := output.Play{Person: person, Name: human.Name, Kept: cfg.OutDir != ""}
	cfg.Secret, cfg.Warn = r.Secret, w
	cfg.OnGame = func(r ledger.Record) { o.Game(output.Game{Record: r, Total: cfg.Games}) }
	sum, err := match.Run(ctx, cfg, human.Seated(r.Bots, seat, person))
	if oerr := o.End(output.End{Summary: sum}); oerr != nil {
		return oerr
	}
	return r.Err(err)
}
