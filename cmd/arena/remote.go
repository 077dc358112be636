package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/remote"

	"github.com/arena-dev/arena/internal/bytesize"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

// remoteInputs name the flag behind each input arena/remote refuses
// (remote.InputError's Input).
var remoteInputs = map[string]string{"Client": "--creds/--tls-ca/--tls-cert/--tls-key", "Sessions": "--sessions",
	"Listen": "--listen", "TLS": "--tls-cert/--tls-key", "MaxStore": "--max-store", "MaxMemory": "--max-memory", "Keys": "--keys"}

// remoteErr says an error of arena/remote by the flag at fault: a
// usage error for an input it refused, --nats for a server it could not
// reach.
func remoteErr(err error) error {
	var in *remote.InputError
	var conn *remote.ConnectError
	switch {
	case errors.As(err, &in):
		flag := remoteInputs[in.Input]
		if in.Value != "" {
			flag += " " + in.Value
		}
		return usage.Errorf("%s: %w", flag, in.Err)
	case errors.As(err, &conn):
		return fmt.Errorf("--nats %w", conn)
	}
	return err
}

func connectCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:      "connect",
		Usage:     "serve a bot on this machine to an arena over NATS",
		ArgsUsage: "-- CMD [ARGS...]",
		Description: `Runs the bot command CMD (any stdio bot) once per session the arena asks
for, started and confined as the arena starts a bot, and carries its lines
over NATS. The arena seats it as --bot NAME=nats:BOTID.

   arena connect --nats nats://arena.example:4222 --bot alice -- python3 bot.py`,
		Flags: append(append(options.ClientFlags("the bot's key: an nkey seed file from the organiser (BOTID.nk) or a .creds file"),
			&cli.StringFlag{Name: "bot", Usage: "the bot id the arena seats as nats:BOTID; required"},
			&cli.IntFlag{Name: "sessions", Value: 1, Usage: "sessions (bot processes) served at once"},
			options.QuietFlag("no line per session and game"),
		), options.SandboxFlags()...),
		Action: runConnect,
	})
}

func runConnect(c *cli.Context) error {
	url, id := c.String("nats"), c.String("bot")
	if url == "" || id == "" {
		return usage.Errorf("--nats URL and --bot BOTID are required: arena connect --nats URL --bot BOTID -- CMD")
	}
	if err := remote.CheckID(id); err != nil {
		return usage.Errorf("--bot: %w", err)
	}
	if c.NArg() == 0 {
		return usage.Errorf("no bot command: arena connect --nats URL --bot %s -- CMD", id)
	}
	// A program here: what it serves is a local bot, whatever its words.
	argv, err := stdio.ParseArgs(c.Args().Slice(), "")
	if err != nil {
		return usage.Wrap(err)
	}
	specs := []bot.Spec{{Name: id, Target: stdio.Command{Argv: argv}}}
	if _, err := confineBots(c, specs, "arena: "); err != nil {
		return err
	}
	return serveBot(c, url, id, strings.Join(argv, " "), func(opt bot.LaunchOptions) (bot.Endpoint, error) {
		return specs[0].Launcher.Launch(id, opt)
	})
}

// serveBot serves bot id, which start starts, to the arenas at url
// until interrupted, which is the way to stop: arena connect, arena bot
// --nats (remote.ServeBot).
func serveBot(c *cli.Context, url, id, what string, start func(bot.LaunchOptions) (bot.Endpoint, error)) error {
	ctx, release := stop.Context(c.App.ErrWriter) // before it connects, and says it serves
	defer release()
	srv := remote.Server{ID: id, Sessions: c.Int("sessions"), Start: start, Claimed: func() {
		fmt.Fprintf(c.App.ErrWriter, "arena: serving bot %s (%s) at %s, %d session(s) at once\n", id, what, url, c.Int("sessions"))
	}}
	if !c.Bool("quiet") {
		srv.OnEvent = func(e remote.Event) { fmt.Fprintln(c.App.ErrWriter, "arena: "+output.EventLine(e)) }
	}
	if err := remote.ServeBot(ctx, url, options.ReadClient(c), srv); err != nil {
		return remoteErr(err)
	}
	fmt.Fprintf(c.App.ErrWriter, "arena: stopped serving bot %s (%v)\n", id, context.Cause(ctx))
	return nil
}

func serveCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "serve",
		Usage: "run a NATS server for remote bots and arenas",
		Description: `Runs an embedded NATS server until interrupted, and prints how bots and
arenas connect to it.

   arena serve --listen 127.0.0.1:4222`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:4222", Usage: "HOST:PORT to listen on (0.0.0.0 to expose it)"},
			&cli.StringFlag{Name: "keys", Usage: "directory of keys (arena nats add-bot): only they connect, each bot to its own subjects", DefaultText: "none: anyone who reaches the port connects, with every permission"},
			&cli.StringFlag{Name: "tls-cert", Usage: "the server's TLS certificate (PEM); clients then connect with tls:// and the CA"},
			&cli.StringFlag{Name: "tls-key", Usage: "the server certificate's key (PEM)"},
			&cli.StringFlag{Name: "store", Value: "nats-store", Usage: "JetStream's store directory (distributed runs keep their jobs and results there)"},
			&cli.StringFlag{Name: "max-store", Value: bytesize.Format(remote.DefaultMaxStore), Usage: "JetStream's bound on disk"},
			&cli.StringFlag{Name: "max-memory", Value: bytesize.Format(remote.DefaultMaxMemory), Usage: "JetStream's bound in memory"},
		},
		Action: runServe,
	})
}

func runServe(c *cli.Context) error {
	cfg := remote.ServeConfig{Listen: c.String("listen"), TLSCert: c.String("tls-cert"), TLSKey: c.String("tls-key"), Keys: c.String("keys"),
		Store: c.String("store"), MaxStore: c.String("max-store"), MaxMemory: c.String("max-memory"), Violations: c.App.ErrWriter}
	o, err := cfg.Options()
	if err != nil {
		return remoteErr(err)
	}
	ctx, release := stop.Context(c.App.ErrWriter) // before the server is up, and said to be
	defer release()
	ns, err := remote.StartServer(o)
	if err != nil {
		return err
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	output.Served(c.App.ErrWriter, cfg.Access(ns.ClientURL(), o))
	<-ctx.Done()
	fmt.Fprintf(c.App.ErrWriter, "arena: NATS server stopped (%v)\n", context.Cause(ctx))
	return nil
}

func natsCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "nats",
		Usage: "keys for remote bots",
		Description: `Makes the keys arena serve --keys admits, one per bot:

   arena nats add-bot alice --keys keys`,
		Subcommands: []*cli.Command{{
			Name:      "add-bot",
			Usage:     "make a bot's key (and the arenas' key, the first time)",
			ArgsUsage: "BOTID",
			Description: `Writes KEYS/BOTID.nk, the bot's secret key (an nkey seed: hand it to the
bot's owner only), and KEYS/BOTID.pub, which arena serve --keys KEYS reads.
The first time it also makes KEYS/arena.nk, the arenas' key (arena match
--nats-creds KEYS/arena.nk).

   arena nats add-bot alice --keys keys`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "keys", Value: "keys", Usage: "directory of keys"},
			},
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return usage.Errorf("give one BOTID: arena nats add-bot BOTID --keys DIR")
				}
				id, dir := c.Args().First(), c.String("keys")
				if err := remote.CheckID(id); err != nil {
					return usage.Wrap(err)
				}
				arenaSeed, seed, err := remote.AddBot(dir, id)
				if arenaSeed != "" {
					fmt.Fprintf(c.App.ErrWriter, "arena: the arenas' key: %s (for arena match --nats-creds)\n", arenaSeed)
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(c.App.ErrWriter, "arena: bot %s's key: %s (give it to the bot's owner only: arena connect --creds %s --bot %s)\n", id, seed, filepath.Base(seed), id)
				return nil
			},
		}},
	})
}
