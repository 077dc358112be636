package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/internal/usage"
)

func botCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:      "bot",
		Usage:     "run a bundled bot over stdin/stdout (" + strings.Join(bots.Names(), ", ") + ")",
		ArgsUsage: "NAME",
		Description: `Speaks the protocol on stdin/stdout, so it can play in a match (a CMD
starting with "arena" runs this executable) or be typed to by hand:

   arena match --game banqi --bot me='python3 my_bot.py' --bot greedy='arena bot greedy'
   arena bot random

With --nats it serves the bot over NATS itself, as arena connect serves a
program (the arena seats it as nats:BOTID):

   arena bot greedy --nats nats://127.0.0.1:4222 --id greedy --sessions 4

A bot with a strength (ismcts, expectimax) takes --level weak|medium|strong
(default strong: half of each move's clock), or a budget of its own, which
replaces the level's: --iterations N (ismcts), --depth N or --nodes N
(expectimax), --time-fraction F (both). A fixed budget plays the same moves
every time given the game's seed. docs/bots.md explains the levels:

   arena bot ismcts --level medium
   arena bot ismcts --iterations 2000
   arena bot expectimax --depth 3
   arena bot expectimax --time-fraction 0.3`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "nats", Usage: "serve the bot over NATS at this URL instead of on stdin/stdout"},
			&cli.StringFlag{Name: "id", Usage: "with --nats: the bot id the arena seats as nats:BOTID", DefaultText: "the bot's name"},
			&cli.StringFlag{Name: "creds", Usage: "with --nats: the bot's key (an nkey seed, or a .creds file)"},
			&cli.StringFlag{Name: "tls-ca", Usage: "with --nats: CA certificate (PEM) that signed the server's TLS certificate"},
			&cli.StringFlag{Name: "tls-cert", Usage: "with --nats: client TLS certificate (PEM)"},
			&cli.StringFlag{Name: "tls-key", Usage: "with --nats: the client certificate's key (PEM)"},
			&cli.IntFlag{Name: "sessions", Value: 1, Usage: "with --nats: sessions served at once"},
			options.QuietFlag("with --nats: no line per session and game"),
			&cli.StringFlag{Name: bots.FlagLevel, Usage: bots.FlagUsage[bots.FlagLevel]},
			&cli.IntFlag{Name: bots.FlagIterations, Usage: bots.FlagUsage[bots.FlagIterations]},
			&cli.IntFlag{Name: bots.FlagDepth, Usage: bots.FlagUsage[bots.FlagDepth]},
			&cli.Int64Flag{Name: bots.FlagNodes, Usage: bots.FlagUsage[bots.FlagNodes]},
			&cli.Float64Flag{Name: bots.FlagTimeFraction, Usage: bots.FlagUsage[bots.FlagTimeFraction]},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				var lines []string
				for _, n := range bots.Names() {
					lines = append(lines, fmt.Sprintf("  %-8s %s", n, bots.Summary(n)))
				}
				return usage.Errorf("arena bot needs one bot name; bundled bots:\n%s", strings.Join(lines, "\n"))
			}
			name := c.Args().First()
			opts := bots.Options{Level: c.String(bots.FlagLevel), Iterations: c.Int(bots.FlagIterations), Depth: c.Int(bots.FlagDepth),
				Nodes: c.Int64(bots.FlagNodes), TimeFraction: c.Float64(bots.FlagTimeFraction)}
			if _, err := bots.NewWith(name, opts); err != nil {
				return usage.Wrap(err)
			}
			if url := c.String("nats"); url != "" {
				return serveBundled(c, url, name, opts)
			}
			// One session, one goroutine's work: with one P the Go runtime's
			// own threads (the collector's) cannot run beside the bot's
			// thinking, whose CPU time the fair clock would charge to the
			// move on top of it (docs/protocol.md, the clock a bot is
			// judged by).
			runtime.GOMAXPROCS(1)
			return bots.Session(name, opts, Version)(os.Stdin, os.Stdout)
		},
	})
}

// serveBundled serves bundled bot name with opts over NATS, each session
// a bot of its own in this process.
func serveBundled(c *cli.Context, url, name string, opts bots.Options) error {
	id := c.String("id")
	if id == "" {
		id = name
	}
	if err := remote.CheckID(id); err != nil {
		return usage.Errorf("--id: %w", err)
	}
	return serveBot(c, url, id, "bundled "+name, remote.InProcess(bots.Session(name, opts, Version)))
}
