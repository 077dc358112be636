package ladder_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/bots"
	_ "github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/internal/testkit"
)

// inproc runs a bundled bot (arena/bots) in memory: "inproc:NAME
// [--strength flags]" plays bots.Session over a transport.Pipe, as
// `arena bot NAME` would over stdio, without a process: a benchmark of
// real games between bots of known strength that a test binary can run
// (a bundled bot started as `arena bot` would start the test binary).
type inproc struct{}

type inprocTarget struct {
	name string
	opts bots.Options
	cmd  string
}

func (inprocTarget) Scheme() string   { return "inproc" }
func (t inprocTarget) String() string { return "inproc:" + t.cmd }

func (inproc) Parse(address, _ string) (bot.Target, error) {
	f := strings.Fields(address)
	if len(f) == 0 || bots.Check(f[0]) != nil {
		return nil, fmt.Errorf("inproc:%s: no such bundled bot", address)
	}
	o, err := bots.ParseOptions(f[1:])
	return inprocTarget{name: f[0], opts: o, cmd: address}, err
}

func (inproc) Bind(t bot.Target, _ string) (bot.Launcher, error) {
	return launcher(t.(inprocTarget)), nil
}

type launcher inprocTarget

func (l launcher) Launch(_ string, opt bot.LaunchOptions) (bot.Endpoint, error) {
	conn, end := transport.Pipe(opt.MaxLine)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer end.Exit()
		bots.Session(l.name, l.opts, "1")(&pipeReader{end: end}, end)
	}()
	return bot.ConnSession{Conn: conn, Ended: done}, nil
}

// pipeReader reads the lines the referee sends a pipe's bot, newlines
// put back, as a stdio bot reads them.
type pipeReader struct {
	end *transport.PipeBot
	buf []byte
}

func (r *pipeReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		line, err := r.end.Receive(time.Now().Add(time.Minute))
		if err != nil {
			return 0, io.EOF
		}
		r.buf = append(line, '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func init() { bot.Register("inproc", inproc{}) }

// realField is a field of bots of known order, weakest first, each kind
// in copies (named kK-cC): random < greedy < three strengths of the
// game's search bot (expectimax for banqi, ismcts for uno), at fixed
// budgets so that the order holds whatever the machine's speed.
func realField(game string, copies int) (names, commands []string, truth []float64) {
	kinds := map[string][]string{
		"banqi": {"random", "greedy", "expectimax --depth=1", "expectimax --nodes=1000", "expectimax --nodes=8000"},
		"uno":   {"random", "greedy", "ismcts --iterations=20", "ismcts --iterations=100", "ismcts --iterations=500"},
	}[game]
	for c := range copies {
		for k, cmd := range kinds {
			names = append(names, fmt.Sprintf("k%dc%d", k, c))
			commands = append(commands, "inproc:"+cmd)
			truth = append(truth, float64(k))
		}
	}
	return names, commands, truth
}

// settle follows the standings game by game: the games after which
// their Spearman correlation with the true order is 0.9 or more and
// stays there (budget+1 while it is not).
type settle struct {
	names []string // ledger names, by bot
	truth []float64
	games int
	at    int
}

func (s *settle) add(r *ladder.Ratings) {
	s.games++
	est := make([]float64, len(s.names))
	for i, n := range s.names {
		est[i] = r.Get(n).Ordinal()
	}
	if matchmaking.Spearman(est, s.truth) < 0.9 {
		s.at = s.games + 1
	}
}

// ladderConvergence plays budget games of the field on a ladder and
// returns when its standings settled.
func ladderConvergence(tb testing.TB, game string, seats, copies, budget int, seed uint64) int {
	names, commands, truth := realField(game, copies)
	dir := initField(tb, game, seats, names, commands, seed)
	s := &settle{truth: truth}
	for _, n := range names {
		s.names = append(s.names, ladder.VersionName(n, 1))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := ladder.Run(ctx, dir, ladder.RunOptions{Warn: io.Discard, Bind: func(specs []bot.Spec) error { return bot.Bind(specs, nil) },
		OnGame: func(p ladder.Progress) {
			s.add(p.Ratings)
			if s.games >= budget {
				cancel()
			}
		}}); err != nil {
		tb.Fatal(err)
	}
	return s.at
}

// rounds is a round robin as a run.Source: rounds of tables, each a
// seeded shuffle of the bots (every pair once at 2 seats; the shuffled
// bots cut into tables of k at more, the rest sitting the round out),
// each table a unit of k games of one deal with seats rotated, as the
// ladder plays them; budget games in all. It rates the games as the
// ladder does (Ratings.Add in the order they are counted).
type rounds struct {
	n, k, budget int
	rng          *rand.Rand
	queue        [][]int
	next         []run.Table
	handed       int
	ratings      *ladder.Ratings
	settle       *settle
}

func (r *rounds) Next() (run.Table, schedule.Status) {
	if r.handed >= r.budget {
		return run.Table{}, schedule.Done
	}
	if len(r.next) == 0 {
		if len(r.queue) == 0 {
			r.round()
		}
		unit := r.queue[0]
		r.queue = r.queue[1:]
		seed := r.rng.Uint64()
		for g := range r.k {
			seats := make([]int, r.k)
			for s := range r.k {
				seats[s] = unit[(s+g)%r.k]
			}
			id := fmt.Sprintf("r-t%06d-g%d", r.handed/r.k+1, g+1)
			r.next = append(r.next, run.Table{Game: schedule.Game{ID: id, Round: r.handed/r.k + 1, Deal: seed, Seats: seats},
				GameID: id, Seed: seed})
		}
	}
	t := r.next[0]
	r.next = r.next[1:]
	t.Index = r.handed
	r.handed++
	return t, schedule.Ready
}

func (r *rounds) round() {
	perm := r.rng.Perm(r.n)
	if r.k == 2 {
		for a := range r.n {
			for b := a + 1; b < r.n; b++ {
				r.queue = append(r.queue, []int{perm[a], perm[b]})
			}
		}
		r.rng.Shuffle(len(r.queue), func(i, j int) { r.queue[i], r.queue[j] = r.queue[j], r.queue[i] })
		return
	}
	for t := 0; t+r.k <= r.n; t += r.k {
		r.queue = append(r.queue, perm[t:t+r.k])
	}
}

func (r *rounds) Result(_ run.Table, rec ledger.Record) error {
	r.ratings.Add(rec)
	r.settle.add(r.ratings)
	return nil
}

// roundRobinConvergence plays budget games of the field in rounds, with
// the ladder's game settings and rating model, and returns when its
// standings settled.
func roundRobinConvergence(tb testing.TB, game string, seats, copies, budget int, seed uint64) int {
	names, commands, truth := realField(game, copies)
	specs := make([]bot.Spec, len(names))
	for i := range names {
		var err error
		if specs[i], err = bot.Parse(ladder.VersionName(names[i], 1), commands[i], ""); err != nil {
			tb.Fatal(err)
		}
	}
	if err := bot.Bind(specs, nil); err != nil {
		tb.Fatal(err)
	}
	// The ladder's configuration of the same field: game, options,
	// clocks, rating model.
	l, err := ladder.Open(initField(tb, game, seats, names, commands, seed))
	if err != nil {
		tb.Fatal(err)
	}
	c := l.Config
	l.Close()
	r := &rounds{n: len(names), k: seats, budget: budget, rng: rand.New(rand.NewPCG(seed, 7)),
		ratings: ladder.NewRatings(c.Rating, c.Initial), settle: &settle{truth: truth}}
	for _, s := range specs {
		r.settle.names = append(r.settle.names, s.Name)
	}
	rc := run.Config{Settings: c.Settings, Game: c.Game, Options: c.Options, MatchID: "rr", Bots: specs, Concurrency: 2, Rotation: seats}
	if _, err := run.Run(context.Background(), rc, r, nil, nil); err != nil {
		tb.Fatal(err)
	}
	return r.settle.at
}

// initField makes a ladder of the field and returns its directory.
func initField(tb testing.TB, game string, seats int, names, commands []string, seed uint64) string {
	var y strings.Builder
	fmt.Fprintf(&y, "name: cup\ngame: %s\nseats: %d\nseed: %d\nconcurrency: 2\nclock:\n  move: 10s\nbots:\n", game, seats, seed)
	for i, n := range names {
		fmt.Fprintf(&y, "  - name: %s\n    command: %s\n", n, commands[i])
	}
	return initFile(tb, y.String())
}

// BenchmarkRealConvergence is BenchmarkConvergence's measure (package
// matchmaking) with real games: a field of 15 bundled bots of known
// order (5 kinds, 3 copies: random < greedy < the game's search bot at
// three budgets) plays banqi (2 seats) and uno (4 seats) on a ladder,
// and in rounds of random tables with the same budget, the same game
// settings and the same ratings; it reports the games each needed
// before the standings' Spearman correlation with the true order
// settled at 0.9 (medians over runs of different seeds: 1, or 5 with
// ARENA_THOROUGH=1), and their ratio. Slow: minutes a run. A single
// run's figure is noisy (BenchmarkConvergence's runs vary threefold),
// and the order is assumed, not measured: in Uno the search bots at
// these budgets play about as well as greedy (docs/performance.md,
// "Ladder"), so that neither side may settle within the budget.
func BenchmarkRealConvergence(b *testing.B) {
	for _, c := range []struct {
		game         string
		seats        int
		budget       int
		budgetLonger int
	}{{"banqi", 2, 600, 1500}, {"uno", 4, 300, 800}} {
		b.Run(fmt.Sprintf("%s/seats=%d", c.game, c.seats), func(b *testing.B) {
			budget := testkit.Pick(c.budget, c.budgetLonger)
			runs := testkit.Pick(1, 5)
			var mm, rr int
			for b.Loop() {
				var ms, rs []int
				for r := range runs {
					ms = append(ms, ladderConvergence(b, c.game, c.seats, 3, budget, uint64(7+r)))
					rs = append(rs, roundRobinConvergence(b, c.game, c.seats, 3, budget, uint64(7+r)))
				}
				slices.Sort(ms)
				slices.Sort(rs)
				mm, rr = ms[runs/2], rs[runs/2]
			}
			b.ReportMetric(float64(mm), "mm-games")
			b.ReportMetric(float64(rr), "rr-games")
			b.ReportMetric(float64(mm)/float64(rr), "mm/rr")
		})
	}
}
