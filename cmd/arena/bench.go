package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bench"
	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/stop"
)

func benchCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "bench",
		Usage: "measure this machine: the pipe limit per move, the referee's cost, and the concurrency a move clock stays fair at",
		Description: `Plays games between two copies of a bot (the bundled random bot unless
--bot is given) and prints the round trip of a turn over the bot's stdio,
the referee's cost per move next to it, and, for concurrency 1, 2, 4, ... up
to --max-concurrency, the timeouts and the 99th percentile think time under
--move-time. The highest concurrency with no timeout and that percentile
within half the clock is the one to size a run by.

   arena bench --game banqi --move-time 100ms`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "game", Value: "banqi", Usage: "game to play"},
			optionFlag(),
			&cli.StringFlag{Name: "bot", Value: "arena bot random", Usage: "the bot command measured (two copies play each game)"},
			options.Flags(options.Bench, "move-time")[0],
			&cli.IntFlag{Name: "games", Value: 40, Usage: "games per concurrency"},
			&cli.IntFlag{Name: "max-concurrency", Usage: "the highest concurrency tried", DefaultText: "four games per core"},
		}, sandboxFlags()...),
		Action: runBench,
	})
}

func runBench(c *cli.Context) error {
	game, given, err := gameAndOptions(c)
	if err != nil {
		return err
	}
	if game.Info().MinSeats > 2 {
		return usagef("--game %s: arena bench plays two copies of a bot, and %s needs %d seats at least", game.Info().Name, game.Info().Name, game.Info().MinSeats)
	}
	opts, err := engine.Setup(game, 2, given)
	if err != nil {
		return usageError{err}
	}
	if d := options.DurationOf(c, "move-time"); d <= 0 {
		return usagef("--move-time %v: want a positive duration, such as 100ms", d)
	}
	if n := c.Int("games"); n < 1 {
		return usagef("--games %d: want at least 1", n)
	}
	if n := c.Int("max-concurrency"); n < 0 {
		return usagef("--max-concurrency %d: want 0 (the default) or more", n)
	}
	// A program here: its processes are what is measured.
	argv, err := stdio.ParseCommand(c.String("bot"), "")
	if err != nil {
		return usageError{fmt.Errorf("--bot: %w", err)}
	}
	cmds := []bot.Spec{{Name: "bench", Target: stdio.Command{Line: c.String("bot"), Argv: argv}}}
	sb, err := confineBots(c, cmds)
	if err != nil {
		return err
	}
	sayConfinement(c, c.App.ErrWriter, "arena: ", sb)
	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	rep, err := bench.Measure(ctx, bench.Config{Bot: cmds[0], Game: game, Options: opts, Move: options.DurationOf(c, "move-time"),
		Games: c.Int("games"), MaxConcurrency: c.Int("max-concurrency")}, func(line string) {
		fmt.Fprintf(c.App.ErrWriter, "arena: bench: %s\n", line)
	})
	if ctx.Err() != nil {
		return fmt.Errorf("bench interrupted (%v) before it finished measuring", context.Cause(ctx))
	}
	if err != nil {
		return err
	}
	rep.Text(c.App.Writer, options.DurationOf(c, "move-time"))
	return nil
}
