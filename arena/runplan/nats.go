package runplan

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/internal/words"
)

// NATS is how a run reaches remote bots and workers: the server at URL,
// or else one embedded in this process, listening on Listen.
type NATS struct {
	URL    string
	Listen string // HOST:PORT; port 0: a free one
	// Creds, CA, Cert and Key are the arena's key and TLS files for URL
	// (remote.Client).
	Creds, CA, Cert, Key string
	// Grace is how long a remote bot may be unreachable mid-game before
	// it forfeits.
	Grace time.Duration
	// Client: the plan is arena worker's, a client of the server at URL
	// whatever its bots (its jobs come from there), whose key and TLS
	// are the client flags (--creds, --tls-*). It waits for a server
	// that restarts however long that takes (docs/distributed.md), where
	// NATS would give up after 60 tries: a worker outlives the
	// coordinators it works for.
	Client bool
}

// Distributed is a run whose games workers play, over NATS JetStream.
type Distributed struct {
	// Workers run in this process; WorkersGiven says the number was
	// given (else an embedded server has one).
	Workers      int
	WorkersGiven bool
	// Lease and MaxDeliver are cluster.Options' AckWait and MaxDeliver.
	Lease      time.Duration
	MaxDeliver int
	// Concurrency is the run's; Seats its games'.
	Concurrency, Seats int
	// Share: the run's bots join as it goes (a ladder's versions, on its
	// run.Roster). Their files are shared with the workers
	// (cluster.Options.ShareFiles), and the local workers start with
	// the roster's bots and fetch the later ones into a temporary
	// directory, confined in the run's sandbox.
	Share bool
}

// check refuses bad values before anything starts.
func (d *Distributed) check() error {
	if d.MaxDeliver < 1 {
		return usage.Errorf("--max-deliver %d: want at least 1", d.MaxDeliver)
	}
	if d.Lease <= 0 {
		return usage.Errorf("--lease %v: want a positive duration, such as 30s", d.Lease)
	}
	if d.Workers < 0 {
		return usage.Errorf("--workers %d: want 0 or more", d.Workers)
	}
	return nil
}

// reach opens what remote bots or a distributed run need: the NATS link
// (with an embedded server, a distributed run's JetStream store by
// p.Out) and the executor maker with its local workers, then binds the
// remote bots.
func (r *Run) reach(p Plan) error {
	if p.Distributed == nil && !p.NATS.Client && !bot.HasScheme(r.Bots, remote.SchemeName) {
		return nil
	}
	if p.Distributed != nil {
		if err := p.Distributed.check(); err != nil {
			return err // before a server starts
		}
	}
	store, err := r.jetStreamDir(p)
	if err != nil {
		return err
	}
	if r.Link, err = p.NATS.link(store, logOf(p.Log)); err != nil {
		return err
	}
	r.undo = append(r.undo, r.Link.Close)
	if p.Distributed != nil {
		r.Executor = r.distributed(*p.Distributed, p.Version, logOf(p.Log))
	}
	return bot.Bind(r.Bots, bot.Bindings{remote.SchemeName: &remote.Binding{NC: r.Link.NC, Wait: p.Wait, Grace: p.NATS.Grace}})
}

// jetStreamDir is where an embedded server keeps a distributed run's
// queue and results: in the output directory, so that a restarted run
// finds them ("" when there is nothing to keep or a server is given).
// Without an output directory it is a temporary one, removed on Close.
func (r *Run) jetStreamDir(p Plan) (string, error) {
	switch {
	case p.Distributed == nil || p.NATS.URL != "":
		return "", nil
	case p.Out != "":
		return filepath.Join(p.Out, "jetstream"), nil
	}
	dir, err := os.MkdirTemp("", "arena-jetstream-*")
	if err != nil {
		return "", fmt.Errorf("a store for the embedded JetStream server: %w", err)
	}
	r.undo = append(r.undo, func() { os.RemoveAll(dir) })
	return dir, nil
}

// link dials n.URL, or else starts an embedded server (with JetStream
// and its store in storeDir, if set) and links to it in process; the
// server's URL is said on log, since the bots' owners need it.
func (n NATS) link(storeDir string, log io.Writer) (*remote.Link, error) {
	if n.Grace <= 0 {
		return nil, usage.Errorf("--nats-grace %v: want a positive duration, such as 2s", n.Grace)
	}
	if n.URL != "" {
		flags, more := "--nats-creds/--nats-ca/--nats-cert/--nats-key", []nats.Option(nil)
		if n.Client {
			flags, more = "--creds/--tls-ca/--tls-cert/--tls-key", []nats.Option{nats.MaxReconnects(-1)}
		}
		opts, err := remote.ConnectOptions(remote.Client{Creds: n.Creds, CA: n.CA, Cert: n.Cert, Key: n.Key})
		if err != nil {
			return nil, usage.Errorf("%s: %w", flags, err)
		}
		link, err := remote.DialLink(n.URL, append(opts, more...)...)
		if err != nil {
			return nil, fmt.Errorf("--nats %s: %w", n.URL, err)
		}
		return link, nil
	}
	host, port, err := remote.SplitHostPort(n.Listen)
	if err != nil {
		return nil, usage.Errorf("--nats-listen: %w", err)
	}
	link, err := remote.Embed(remote.ServerOptions{Host: host, Port: port, StoreDir: storeDir}, log)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "arena: NATS server for remote bots at %s: serve a bot with arena connect --nats %s --bot BOTID -- CMD\n", link.URL, link.URL)
	return link, nil
}

// distributed is the executor maker of a distributed run on r.Link, with
// its local workers, which play the run's own bots and share its
// concurrency (cluster.Shares); Close stops them.
func (r *Run) distributed(d Distributed, version string, log io.Writer) func(run.Config) (run.Executor, error) {
	workers := d.Workers
	if !d.WorkersGiven && r.Link.Embedded {
		workers = 1
	}
	shares := cluster.Shares(d.Concurrency, workers)
	if workers > d.Concurrency {
		fmt.Fprintf(log, "arena: warning: --workers %d at concurrency %d: a distributed run has at most concurrency jobs (a deal's games each) in flight, "+
			"so %s will idle; give --concurrency %d\n", workers, d.Concurrency, words.Count(workers-d.Concurrency, "local worker", "local workers"), workers)
	}
	if w := run.LoadWarning(d.Concurrency, d.Seats); w != "" && workers > 0 { // the local workers play here
		fmt.Fprintf(log, "arena: warning: %s\n", w)
	}
	fetch, err := r.fetchDir(d) // removed after the workers stop (Close undoes last first)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	r.undo = append(r.undo, func() { cancel(); wg.Wait() })
	o := cluster.Options{AckWait: d.Lease, MaxDeliver: d.MaxDeliver, ShareFiles: d.Share}
	link := r.Link
	return func(rc run.Config) (run.Executor, error) {
		if err != nil {
			return nil, err
		}
		coord, err := cluster.NewCoordinator(ctx, link.NC, rc, o)
		if err != nil {
			return nil, err
		}
		join := "the same bots (--bots FILE, the tournament file, or a --bot NAME=CMD for each bot given here)"
		if d.Share {
			join = "--ladder FILE (the ladder file: its bundled bots; the versions submitted are fetched from this run)"
		}
		fmt.Fprintf(log, "arena: distributed: %s%s; more join with: arena worker --nats %s and %s\n",
			words.Count(workers, "local worker", "local workers"), sharesText(shares), link.URL, join)
		for i := range workers {
			nc, err := link.Dial()
			if err != nil {
				coord.Close(false)
				return nil, err
			}
			w := &cluster.Worker{NC: nc, Name: fmt.Sprintf("%s-local%d", cluster.HostName(), i+1), Bots: rosterBots(rc),
				Concurrency: shares[i], Version: version, Log: log, FetchDir: fetch, Bind: r.bindFetched}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := w.Run(ctx); err != nil && ctx.Err() == nil {
					fmt.Fprintf(log, "arena: local worker %s: %v\n", w.Name, err)
				}
			}()
		}
		return coord, nil
	}
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

// rosterBots are the bots of rc's roster now (Config.Bots when it has
// none).
func rosterBots(rc run.Config) []bot.Spec {
	roster := rc.BotRoster()
	bots := make([]bot.Spec, roster.Len())
	for i := range bots {
		bots[i] = roster.Spec(i)
	}
	return bots
}

// fetchDir is where a sharing run's local workers keep the bots they
// fetch: a temporary directory, removed on Close ("" for a run that
// does not share).
func (r *Run) fetchDir(d Distributed) (string, error) {
	if !d.Share {
		return "", nil
	}
	dir, err := os.MkdirTemp("", "arena-fetched-*")
	if err != nil {
		return "", fmt.Errorf("a directory for the bots local workers fetch: %w", err)
	}
	r.undo = append(r.undo, func() { os.RemoveAll(dir) })
	return dir, nil
}

// bindFetched confines the bots a local worker fetched in the run's
// sandbox, as the run's own.
func (r *Run) bindFetched(specs []bot.Spec) error {
	if r.Sandbox != nil {
		stdio.Confine(specs, r.Sandbox)
	}
	return bot.Bind(specs, nil)
}
