package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

func workerCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "worker",
		Usage: "play the games of distributed runs (arena tournament run --distributed) on this machine",
		Description: `Pulls one job at a time per slot from the NATS JetStream queue of distributed
runs, plays it with this machine's bot commands, and publishes its result.
The bots come from a tournament file (--bots, its bots section and limits)
or from --bot flags, under the names the run gives them; a job whose bot is
missing here, or is another build, is refused and left to other workers.

   arena worker --nats nats://HOST:4222 --bots cup.yaml --concurrency 2`,
		Flags: append(append(options.ClientFlags("this worker's key: an nkey seed file or a .creds file"),
			&cli.StringFlag{Name: "bots", Usage: "a tournament file whose bots this worker plays (confined by its limits)"},
			&cli.StringFlag{Name: "ladder", Usage: "a ladder file whose bundled bots this worker plays (confined by its limits); the versions submitted to the ladder it fetches from the run, by build hash, and confines alike"},
			&cli.StringSliceFlag{Name: "bot", Usage: "a bot this worker plays, NAME=CMD (repeatable; confined by the --bot-* flags)"},
			&cli.IntFlag{Name: "concurrency", Value: 1, Usage: "games played at once"},
			&cli.StringFlag{Name: "name", Usage: "this worker's name in results", DefaultText: "the host name and the process id"},
		), options.SandboxFlags()...),
		Action: runWorker,
	})
}

func runWorker(c *cli.Context) error {
	url := c.String("nats")
	if url == "" {
		return usage.Errorf("--nats URL is required: arena worker --nats URL --bots FILE")
	}
	if c.Int("concurrency") < 1 {
		return usage.Errorf("--concurrency %d: want at least 1", c.Int("concurrency"))
	}
	var fetched fetchSandbox
	plan, err := workerPlan(c, &fetched)
	if err != nil {
		return err
	}
	n := options.ReadClient(c)
	plan.NATS = runplan.NATS{URL: url, Creds: n.Creds, CA: n.CA, Cert: n.Cert, Key: n.Key, Grace: remote.DefaultGrace, Client: true}
	r, err := plan.Open()
	var dup *bot.DuplicateNameError
	if errors.As(err, &dup) {
		return usage.Errorf("bot %s named twice", dup.Name)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	name := cmp.Or(c.String("name"), fmt.Sprintf("%s-%d", cluster.HostName(), os.Getpid()))
	ctx, release := stop.Context(c.App.ErrWriter) // before it says it works
	defer release()
	output.Worker(c.App.ErrWriter, name, url, c.Int("concurrency"), r.Bots)
	w := &cluster.Worker{NC: r.Link.NC, Name: name, Bots: r.Bots, Concurrency: c.Int("concurrency"), Version: Version, Log: c.App.ErrWriter}
	if fetched.sb != nil { // a run's bots that this worker lacks are fetched, and confined as the ladder's
		dir, err := os.MkdirTemp("", "arena-fetched-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		w.FetchDir, w.Bind = dir, fetched.bind
	}
	if err := w.Run(ctx); ctx.Err() == nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "arena: worker %s stopped (%v); the games it was playing go to other workers\n", name, context.Cause(ctx))
	return nil
}

// workerPlan reads the bots of --bots FILE and --bot NAME=CMD into a
// plan of two groups (runplan.Group): the file's bots confined by its
// limits, the flags' by the sandbox flags, each said; the flags' remote
// bots before their local ones, as of old.
func workerPlan(c *cli.Context, fetched *fetchSandbox) (runplan.Plan, error) {
	plan := runplan.Plan{Wait: run.Defaults.Limits.Startup, Log: c.App.ErrWriter}
	if path := c.String("ladder"); path != "" {
		g, err := ladder.LoadBots(path)
		if err != nil {
			return plan, usage.Wrap(err)
		}
		g.Confined = func(sb *sandbox.Sandbox) {
			fetched.sb = sb
			sayConfinement(c, c.App.ErrWriter, "arena: "+path+": ", sb)
		}
		plan.Groups = append(plan.Groups, g)
	}
	if path := c.String("bots"); path != "" {
		g, err := tournament.LoadBots(path)
		if err != nil {
			return plan, usage.Wrap(err)
		}
		g.Confined = func(sb *sandbox.Sandbox) { sayConfinement(c, c.App.ErrWriter, "arena: "+path+": ", sb) }
		plan.Groups = append(plan.Groups, g)
	}
	if flags := c.StringSlice("bot"); len(flags) > 0 {
		flagged, err := parseBots(flags)
		if err != nil {
			return plan, err
		}
		local := func(s bot.Spec) int {
			if s.Target.Scheme() == remote.SchemeName {
				return 0
			}
			return 1
		}
		slices.SortStableFunc(flagged, func(a, b bot.Spec) int { return cmp.Compare(local(a), local(b)) })
		g, err := flagGroup(c, flagged, "arena: --bot: ")
		if err != nil {
			return plan, err
		}
		g.IfLocal = true
		plan.Groups = append(plan.Groups, g)
	}
	if plan.Groups == nil {
		return plan, usage.Errorf("no bots: arena worker --bots FILE, --ladder FILE or --bot NAME=CMD")
	}
	return plan, nil
}

// fetchSandbox confines the bots a ladder's worker fetches in the
// sandbox of the ladder file's bots (its limits).
type fetchSandbox struct{ sb *sandbox.Sandbox }

func (f *fetchSandbox) bind(specs []bot.Spec) error {
	stdio.Confine(specs, f.sb)
	return bot.Bind(specs, nil)
}
