package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bench"
	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

func benchCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "bench",
		Usage: "measure this machine: the pipe limit per move, the referee's cost, and the concurrency a move clock stays fair at",
		Description: `Plays games between two copies of a bot (the bundled random bot unless
--bot is given) and prints the round trip of a turn over the bot's stdio,
the referee's cost per move next to it, the rules engine server's
(arena engine, docs/engine.md) per line and per operation in batches, and, for concurrency 1, 2, 4, ... up
to --max-concurrency, the timeouts and the 99th percentile think time under
--move-time. The highest concurrency with no timeout and that percentile
within half the clock is the one to size a run by.

   arena bench --game banqi --move-time 100ms`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "game", Value: "banqi", Usage: "game to play"},
			options.OptionFlag(),
			&cli.StringFlag{Name: "bot", Value: "arena bot random", Usage: "the bot command measured (two copies play each game)"},
			options.Flags(options.Bench, "move-time")[0],
			&cli.IntFlag{Name: "games", Value: 40, Usage: "games per concurrency"},
			&cli.IntFlag{Name: "max-concurrency", Usage: "the highest concurrency tried", DefaultText: "four games per core"},
		}, options.SandboxFlags()...),
		Action: runBench,
	})
}

// benchFlags name the flag behind each field bench.Config.Setup refuses.
var benchFlags = map[string]string{"Game": "--game", "Move": "--move-time", "Games": "--games", "MaxConcurrency": "--max-concurrency"}

func runBench(c *cli.Context) error {
	game, given, err := options.ReadGame(c)
	if err != nil {
		return usage.Wrap(err)
	}
	cfg := bench.Config{Game: game, Move: options.DurationOf(c, "move-time"), Games: c.Int("games"), MaxConcurrency: c.Int("max-concurrency")}
	var fe *bench.FieldError
	if err := cfg.Setup(given); errors.As(err, &fe) {
		return usage.Errorf("%s %s: %w", benchFlags[fe.Field], fe.Value, fe.Err)
	} else if err != nil {
		return usage.Wrap(err)
	}
	// A program here: its processes are what is measured.
	argv, err := stdio.ParseCommand(c.String("bot"), "")
	if err != nil {
		return usage.Errorf("--bot: %w", err)
	}
	cmds := []bot.Spec{{Name: "bench", Target: stdio.Command{Line: c.String("bot"), Argv: argv}}}
	if _, err := confineBots(c, cmds, "arena: "); err != nil {
		return err
	}
	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	cfg.Bot = cmds[0]
	if self, err := os.Executable(); err == nil { // the rules engine beside the pipe
		cfg.Engine = []string{self, "engine"}
	}
	rep, err := bench.Measure(ctx, cfg, func(line string) {
		fmt.Fprintf(c.App.ErrWriter, "arena: bench: %s\n", line)
	})
	if ctx.Err() != nil {
		return fmt.Errorf("bench interrupted (%v) before it finished measuring", context.Cause(ctx))
	}
	if err != nil {
		return err
	}
	rep.Text(c.App.Writer, cfg.Move)
	return nil
}
