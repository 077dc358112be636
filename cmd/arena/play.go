package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/human"
	webseat "github.com/arena-dev/arena/arena/human/web"
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
		Usage: "take a seat yourself, against bots, in the terminal or the browser (--web)",
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

With --web the seat is a page in your browser instead: arena play prints
its URL (on loopback, a free port unless --web-addr; --open opens it).
The page draws the game as the replay viewer does, from your seat's view
only; click a highlighted card or square, or a listed choice, to move.

   arena play --game banqi --bot greedy='arena bot greedy'
   arena play --game uno --seat 1 --bot a='arena bot random' --bot b='arena bot greedy'
   arena play --web --game banqi --bot greedy='arena bot greedy'`,
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
			&cli.BoolFlag{Name: "web", Usage: "play in your browser: serve the seat as a page and print its URL"},
			&cli.StringFlag{Name: "web-addr", Value: webseat.DefaultAddr, Usage: "with --web, the page's HOST:PORT (port 0: a free one); loopback only unless --web-beyond-loopback"},
			&cli.BoolFlag{Name: "web-beyond-loopback", Usage: "with --web, allow a --web-addr other machines reach: whoever has the URL sees your hand (plain HTTP)"},
			&cli.BoolFlag{Name: "open", Usage: "with --web, open the page in the system's browser"},
		}, append(options.Referee(), options.SandboxFlags()...)...),
		Action: runPlay,
	}
}

func runPlay(c *cli.Context) (err error) {
	ln, err := playListener(c)
	if err != nil {
		return err
	}
	if ln != nil {
		defer func() {
			if err != nil {
				ln.Close() // not served yet (Serve's shutdown closes it once it is)
			}
		}()
	}
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
	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	person, closeSeat := playSeat(ctx, c, ln)
	defer closeSeat()
	o := output.Play{Person: person, Name: human.Name, Kept: cfg.OutDir != ""}
	cfg.Secret, cfg.Warn = r.Secret, w
	cfg.OnGame = func(r ledger.Record) { o.Game(output.Game{Record: r, Total: cfg.Games}) }
	sum, err := match.Run(ctx, cfg, human.Seated(r.Bots, seat, person))
	if oerr := o.End(output.End{Summary: sum}); oerr != nil {
		return oerr
	}
	return r.Err(err)
}

// seatLauncher is the person's seat: a bot's launcher that is told the
// results.
type seatLauncher interface {
	bot.Launcher
	output.Person
}

// playListener checks the flags of the person's seat and, with --web,
// listens for its page (nil: the terminal's seat), before anything else
// is set up, so that a mistake in them is said first.
func playListener(c *cli.Context) (net.Listener, error) {
	if !c.Bool("web") {
		for _, f := range []string{"web-addr", "web-beyond-loopback", "open"} {
			if c.IsSet(f) {
				return nil, usage.Errorf("--%s is for --web", f)
			}
		}
		return nil, nil
	}
	ln, err := webseat.Listen(c.String("web-addr"), c.Bool("web-beyond-loopback"))
	if errors.Is(err, webseat.ErrNotLoopback) {
		return nil, usage.Errorf("--web-addr: %w", err)
	}
	return ln, err
}

// playSeat is the person's seat: the terminal, or with a listener (--web)
// a page served on it until ctx ends or closeSeat is called (which waits
// for the page to be told the end), its URL printed (and opened with
// --open).
func playSeat(ctx context.Context, c *cli.Context, ln net.Listener) (_ seatLauncher, closeSeat func()) {
	if ln == nil {
		return &human.Seat{
			In: os.Stdin, Out: c.App.Writer, Timed: c.Bool("timed"), DropTypeahead: isatty.IsTerminal(os.Stdin.Fd()), Results: true,
		}, func() {}
	}
	seat := webseat.NewSeat()
	seat.Timed, seat.Out = c.Bool("timed"), c.App.Writer
	srv := webseat.NewServer(seat)
	ctx, cancel := context.WithCancel(ctx)
	done := srv.Serve(ctx, ln)
	url := srv.URL(ln)
	fmt.Fprintf(c.App.Writer, "Your seat: %s\n", url)
	if c.Bool("open") {
		if err := webseat.Open(url); err != nil {
			fmt.Fprintf(c.App.ErrWriter, "arena: %v\n", err)
		}
	}
	return seat, func() { cancel(); <-done }
}
