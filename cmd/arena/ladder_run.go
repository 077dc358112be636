package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/stoprule"
	"github.com/arena-dev/arena/internal/stop"
	"github.com/arena-dev/arena/internal/usage"
)

// ladderRunFlags are ladder run's flags: progress, a final's stop rule
// and budget, and where remote bots and workers are (the NATS and
// distributed flags of the other runs).
func ladderRunFlags() []cli.Flag {
	return slices.Concat([]cli.Flag{
		options.QuietFlag("no progress lines"),
		&cli.BoolFlag{Name: "verbose", Usage: "say at start how bots are confined in full"},
		&cli.StringFlag{Name: "until", Usage: "play a final: no submissions taken, stop once the top K versions are separated: " + stoprule.Forms},
		&cli.IntFlag{Name: "max-games", Usage: "a final's budget: stop after this many games of this run, decided or not"},
		httpFlag(""),
	}, options.NATSFlags(), options.DistributedFlags())
}

// httpFlag is the leaderboard's address flag; def its default ("" none:
// run serves it only when asked).
func httpFlag(def string) cli.Flag {
	return &cli.StringFlag{Name: "http", Value: def, Usage: "serve the live leaderboard on `ADDR`: a port (8080) or HOST:PORT; a port alone is on loopback, 0.0.0.0:PORT serves other machines"}
}

// leaderboard serves the ladder in dir's leaderboard on addr until ctx
// ends, saying its URL; the returned function tells it a game counted
// (nil, and nothing served, for addr "").
func leaderboard(ctx context.Context, c *cli.Context, dir, addr string) (changed func(), wait func(), err error) {
	if addr == "" {
		return func() {}, func() {}, nil
	}
	if _, err := web.ListenAddr(addr); err != nil {
		return nil, nil, usage.Errorf("--http: %v", err)
	}
	s, err := web.New(dir, web.Options{})
	if err != nil {
		return nil, nil, err
	}
	url, done, err := web.Start(ctx, addr, s)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	fmt.Fprintf(c.App.ErrWriter, "arena: leaderboard on %s (read-only)\n", url)
	return s.Changed, func() { <-done }, nil
}

// serveLadder is ladder serve: the leaderboard of a ladder another
// process runs (or none), until SIGINT or SIGTERM.
func serveLadder(c *cli.Context) error {
	args, err := ladderArgs(c, "DIR")
	if err != nil {
		return err
	}
	if _, err := ladder.ReadConfig(args[0]); err != nil {
		return ladderErr(err)
	}
	ctx, release := stop.Context(c.App.ErrWriter)
	defer release()
	_, wait, err := leaderboard(ctx, c, args[0], c.String("http"))
	if err != nil {
		return err
	}
	wait()
	return nil
}

// ladderPlan reads the final's flags into opts, and reaches NATS when
// the ladder has remote bots or --distributed is given: the remote bots
// are bound to the link and followed (remote.Presence: seated only while
// served), and a distributed run's games go to workers, which fetch the
// versions by their build hash. The returned run is closed after Run.
func ladderPlan(c *cli.Context, dir string, opts *ladder.RunOptions) (*runplan.Run, error) {
	if err := ladderFinal(c, opts); err != nil {
		return nil, err
	}
	cfg, err := ladder.ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	// The versions that play now, not the ladder file's first bots: a
	// bot served from elsewhere may have been entered since.
	specs, err := ladder.Playing(dir)
	if err != nil {
		return nil, err
	}
	var remotes []bot.Spec
	for _, b := range specs {
		if b.Target.Scheme() == remote.SchemeName {
			remotes = append(remotes, b)
		}
	}
	nc, dist := options.ReadNATS(c, cfg.Concurrency, cfg.Seats.Max)
	if dist == nil && len(remotes) == 0 && !c.IsSet("nats") && !c.IsSet("nats-listen") {
		return &runplan.Run{}, nil
	}
	if len(remotes) > 0 && !c.IsSet("nats") && !c.IsSet("nats-listen") {
		// A server on a free port, another at each restart, is one no
		// contestant's machine can find.
		return nil, usage.Errorf("the ladder plays bots served from elsewhere (%s): give --nats URL (a server: arena serve) or --nats-listen HOST:PORT (one in this run, on an address their machines reach, the same at every restart)",
			remotes[0].Target)
	}
	plan := runplan.Plan{Bots: remotes, NATS: nc, Distributed: dist, Limits: cfg.BotLimits, Sandbox: cfg.BotOptions,
		Wait: cfg.Limits.Startup, Log: c.App.ErrWriter, Version: Version}
	plan.Sandbox.Hide = append(slices.Clip(plan.Sandbox.Hide), ladder.Hidden(dir)...)
	if dist != nil {
		dist.Share = true
		plan.Out = dir // an embedded server keeps its store in DIR/jetstream
	}
	r, err := plan.Open()
	if err != nil {
		return nil, err
	}
	if r.Link != nil {
		presence, err := remote.NewPresence(r.Link.NC, 0)
		if err != nil {
			r.Close()
			return nil, err
		}
		r.Defer(presence.Close)
		opts.Presence = presence
		opts.Bindings = bot.Bindings{remote.SchemeName: &remote.Binding{NC: r.Link.NC, Wait: cfg.Limits.Startup, Grace: nc.Grace, Presence: presence}}
	}
	opts.Executor = r.Executor
	return r, nil
}

// ladderFinal reads --until and --max-games: a final takes no
// submissions.
func ladderFinal(c *cli.Context, opts *ladder.RunOptions) error {
	rule, err := stoprule.Parse(c.String("until"))
	if err != nil {
		return usage.Errorf("--until: %v", err)
	}
	if c.Int("max-games") < 0 {
		return usage.Errorf("--max-games %d: want a positive number of games", c.Int("max-games"))
	}
	opts.Until, opts.MaxGames = rule, c.Int("max-games")
	if !rule.IsZero() || opts.MaxGames > 0 {
		opts.Intake = nil
	}
	return nil
}
