package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/tournament"

	"github.com/arena-dev/arena/internal/words"
)

// distributedFlags are the flags of a run whose games workers play.
func distributedFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "distributed", Usage: "have workers play the games, over NATS JetStream (--nats, or an embedded server with local workers): docs/distributed.md"},
		&cli.IntFlag{Name: "workers", Usage: "workers to run in this process (--distributed)", DefaultText: "1 with the embedded server, 0 with --nats"},
		options.DurationFlag("lease", "how long a worker may give no sign of life before its game goes to another (--distributed)", cluster.DefaultAckWait, ""),
		&cli.IntFlag{Name: "max-deliver", Value: cluster.DefaultMaxDeliver, Usage: "how often one game may be handed out before the run gives up on it (--distributed)"},
	}
}

// jetStreamDir is where an embedded server keeps a distributed run's
// queue and results: in the output directory, so that a restarted run
// finds them ("" when there is nothing to keep or --nats is given).
// Without an output directory it is a temporary one, which remove (to
// call once the server is down) takes away.
func jetStreamDir(c *cli.Context, out string) (dir string, remove func(), err error) {
	if !c.Bool("distributed") || c.String("nats") != "" {
		return "", func() {}, nil
	}
	if out != "" {
		return filepath.Join(out, "jetstream"), func() {}, nil
	}
	dir, err = os.MkdirTemp("", "arena-jetstream-*")
	if err != nil {
		return "", nil, fmt.Errorf("a store for the embedded JetStream server: %w", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// natsRun opens what a run with remote bots or --distributed needs: the
// NATS link (with an embedded server, its JetStream store by out) and,
// with --distributed, the executor maker and its local workers (maker is
// nil without), which share the run's concurrency, of games of seats.
// done undoes it all, in order; it is set even on error.
func natsRun(c *cli.Context, out string, concurrency, seats int) (link *remote.Link, maker func(run.Config) (run.Executor, error), done func(), err error) {
	var undo []func()
	done = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	if c.Bool("distributed") {
		if err := checkDistributed(c); err != nil {
			return nil, nil, done, err // before a server starts
		}
	}
	store, remove, err := jetStreamDir(c, out)
	if err != nil {
		return nil, nil, done, err
	}
	undo = append(undo, remove)
	if link, err = natsLinkFor(c, store); err != nil {
		return nil, nil, done, err
	}
	undo = append(undo, func() { link.Close() })
	if c.Bool("distributed") {
		var stopWorkers func()
		if maker, stopWorkers, err = distributed(c, link, concurrency, seats); err != nil {
			return nil, nil, done, err
		}
		undo = append(undo, stopWorkers)
	}
	return link, maker, done, nil
}

// checkDistributed refuses bad --distributed flags, before anything starts.
func checkDistributed(c *cli.Context) error {
	if c.Int("max-deliver") < 1 {
		return usagef("--max-deliver %d: want at least 1", c.Int("max-deliver"))
	}
	if d := options.DurationOf(c, "lease"); d <= 0 {
		return usagef("--lease %v: want a positive duration, such as 30s", d)
	}
	if w := c.Int("workers"); w < 0 {
		return usagef("--workers %d: want 0 or more", w)
	}
	return nil
}

// distributed is the executor maker of a distributed run of games of
// seats on link, with its local workers (--workers), which play the
// run's own bots and share its concurrency (cluster.Shares); stop ends
// them.
func distributed(c *cli.Context, link *remote.Link, concurrency, seats int) (maker func(run.Config) (run.Executor, error), stop func(), err error) {
	workers := c.Int("workers") // checked by natsRun (checkDistributed)
	if !c.IsSet("workers") && link.Embedded {
		workers = 1
	}
	shares := cluster.Shares(concurrency, workers)
	warn := c.App.ErrWriter
	if workers > concurrency {
		fmt.Fprintf(warn, "arena: warning: --workers %d at concurrency %d: a distributed run has at most concurrency jobs (a deal's games each) in flight, "+
			"so %s will idle; give --concurrency %d\n", workers, concurrency, words.Count(workers-concurrency, "local worker", "local workers"), workers)
	}
	if w := run.LoadWarning(concurrency, seats); w != "" && workers > 0 { // the local workers play here
		fmt.Fprintf(warn, "arena: warning: %s\n", w)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	stop = func() { cancel(); wg.Wait() }
	o := cluster.Options{AckWait: options.DurationOf(c, "lease"), MaxDeliver: c.Int("max-deliver")}
	maker = func(rc run.Config) (run.Executor, error) {
		coord, err := cluster.NewCoordinator(ctx, link.NC, rc, o)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(c.App.ErrWriter, "arena: distributed: %s%s; more join with: arena worker --nats %s and the same bots (--bots FILE, the tournament file, or a --bot NAME=CMD for each bot given here)\n",
			words.Count(workers, "local worker", "local workers"), sharesText(shares), link.URL)
		for i := range workers {
			nc, err := link.Dial()
			if err != nil {
				coord.Close(false)
				return nil, err
			}
			w := &cluster.Worker{NC: nc, Name: fmt.Sprintf("%s-local%d", workerName(), i+1), Bots: rc.Bots,
				Concurrency: shares[i], Version: Version, Log: c.App.ErrWriter}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := w.Run(ctx); err != nil && ctx.Err() == nil {
					fmt.Fprintf(c.App.ErrWriter, "arena: local worker %s: %v\n", w.Name, err)
				}
			}()
		}
		return coord, nil
	}
	return maker, stop, nil
}

// sharesText says how many games at once each local worker plays: ", 1
// game at a time each", ", 2, 1 games at a time"; "" for none.
func sharesText(shares []int) string {
	switch {
	case len(shares) == 0:
		return ""
	case slices.Min(shares) == slices.Max(shares):
		return ", " + words.Count(shares[0], "game", "games") + " at a time each"
	}
	parts := make([]string, len(shares))
	for i, n := range shares {
		parts[i] = strconv.Itoa(n)
	}
	return fmt.Sprintf(", %s games at a time", strings.Join(parts, ", "))
}

// workerName names this machine's workers: its host name.
func workerName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "worker"
	}
	return cluster.Token(h)
}

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
		Flags: append(append(clientFlags("this worker's key: an nkey seed file or a .creds file"),
			&cli.StringFlag{Name: "bots", Usage: "a tournament file whose bots this worker plays (confined by its limits)"},
			&cli.StringSliceFlag{Name: "bot", Usage: "a bot this worker plays, NAME=CMD (repeatable; confined by the --bot-* flags)"},
			&cli.IntFlag{Name: "concurrency", Value: 1, Usage: "games played at once"},
			&cli.StringFlag{Name: "name", Usage: "this worker's name in results", DefaultText: "the host name and the process id"},
		), sandboxFlags()...),
		Action: runWorker,
	})
}

func runWorker(c *cli.Context) error {
	url := c.String("nats")
	if url == "" {
		return usagef("--nats URL is required: arena worker --nats URL --bots FILE")
	}
	if c.Int("concurrency") < 1 {
		return usagef("--concurrency %d: want at least 1", c.Int("concurrency"))
	}
	specs, err := workerBots(c)
	if err != nil {
		return err
	}
	// A worker outlives the servers it works for: it waits for a
	// coordinator that restarts, however long that takes
	// (docs/distributed.md), where NATS would give up after 60 tries.
	nc, err := clientConnect(c, url, "", nats.MaxReconnects(-1))
	if err != nil {
		return err
	}
	defer nc.Close()
	if err := bot.Bind(specs, bot.Bindings{remote.SchemeName: &remote.Binding{NC: nc, Wait: run.Defaults.Limits.Startup, Grace: remote.DefaultGrace}}); err != nil {
		return err
	}
	name := c.String("name")
	if name == "" {
		name = fmt.Sprintf("%s-%d", workerName(), os.Getpid())
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	ctx, release := stopContext(c.App.ErrWriter) // before it says it works
	defer release()
	fmt.Fprintf(c.App.ErrWriter, "arena: worker %s at %s, %d game(s) at once, bots: %s\n", name, url, c.Int("concurrency"), strings.Join(names, ", "))
	w := &cluster.Worker{NC: nc, Name: name, Bots: specs, Concurrency: c.Int("concurrency"), Version: Version, Log: c.App.ErrWriter}
	if err := w.Run(ctx); ctx.Err() == nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "arena: worker %s stopped (%v); the games it was playing go to other workers\n", name, context.Cause(ctx))
	return nil
}

// workerBots are the bots of --bots FILE and --bot NAME=CMD, the local
// ones confined; the remote ones (nats:ID) are left unbound.
func workerBots(c *cli.Context) ([]bot.Spec, error) {
	var specs []bot.Spec
	if path := c.String("bots"); path != "" {
		f, err := tournament.LoadFile(path)
		if err != nil {
			return nil, usageError{err}
		}
		cfg, err := f.Resolve(path, filepath.Dir(path))
		if err != nil {
			return nil, usageError{err}
		}
		sb, err := cfg.Confine(path, "")
		if err != nil {
			return nil, usageError{err}
		}
		sayConfinement(c, c.App.ErrWriter, "arena: "+path+": ", sb)
		specs = cfg.Bots
	}
	if flags := c.StringSlice("bot"); len(flags) > 0 {
		flagged, err := parseBots(flags)
		if err != nil {
			return nil, err
		}
		if len(stdio.Programs(flagged)) > 0 {
			sb, err := confineBots(c, flagged, "", "")
			if err != nil {
				return nil, err
			}
			sayConfinement(c, c.App.ErrWriter, "arena: --bot: ", sb)
		}
		// The order of old: the remote bots of the flags before the
		// local ones.
		local := func(s bot.Spec) int {
			if s.Target.Scheme() == remote.SchemeName {
				return 0
			}
			return 1
		}
		slices.SortStableFunc(flagged, func(a, b bot.Spec) int { return cmp.Compare(local(a), local(b)) })
		specs = append(specs, flagged...)
	}
	if len(specs) == 0 {
		return nil, usagef("no bots: arena worker --bots FILE or --bot NAME=CMD")
	}
	var dup *bot.DuplicateNameError
	if errors.As(bot.CheckNames(specs), &dup) {
		return nil, usagef("bot %s named twice", dup.Name)
	}
	return specs, nil
}
