package sprt_test

// Does playing every deal twice, with the two bots in swapped seats, pay
// for itself in an SPRT? These tests play bots of known relative strength
// in process and count how many games an SPRT needs to reach a verdict
// with paired duplicate deals (pentanomial counting, LLRPenta) and with
// independent deals (trinomial counting, LLRTri). The full measurement
// takes minutes and runs only with ARENA_VARIANCE=1 (see
// docs/ci.md, "Variance reduction, measured"); TestVarianceSanity checks the machinery on a few
// short runs every time.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/banqi"
	_ "github.com/arena-dev/arena/engine/uno"
)

type strategy func(view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error)

// setup is one game and the two bots compared. A bot plays its game's
// greedy strategy with probability q at each decision and a uniformly
// random legal action otherwise, so a higher q is a stronger bot. Seats
// beyond the two compared are taken by fillers playing uniformly at random.
type setup struct {
	name         string
	game         string
	seats        int
	options      map[string]string
	greedy       strategy
	qTest, qBase float64
}

func (s setup) String() string {
	return fmt.Sprintf("%s %d seats, test q=%.2f vs base q=%.2f", s.game, s.seats, s.qTest, s.qBase)
}

// play plays one game of deal seed in process. q[seat] is each seat's
// greedy probability; the greedy seats are handed exactly what the referee
// sends a bot: engine.AppendJSON of View(seat) and of each legal action.
// Each seat's random choices come from its own stream, keyed by
// streams[seat].
func play(g engine.Game, opts engine.Options, seed uint64, q []float64, greedy strategy, streams []uint64) (engine.Outcome, error) {
	st, err := g.New(len(q), seed, opts)
	if err != nil {
		return engine.Outcome{}, err
	}
	rngs := make([]*rand.Rand, len(q))
	for i := range rngs {
		rngs[i] = rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, streams[i]))
	}
	var view []byte
	var raws []json.RawMessage
	for !st.Over() {
		seat := st.ToMove()
		legal := st.Legal()
		rng := rngs[seat]
		k := 0
		if len(legal) > 1 {
			if q[seat] > 0 && rng.Float64() < q[seat] {
				if view, err = engine.AppendJSON(view[:0], st.View(seat)); err != nil {
					return engine.Outcome{}, err
				}
				raws = raws[:0]
				for _, a := range legal {
					b, err := engine.AppendJSON(nil, a)
					if err != nil {
						return engine.Outcome{}, err
					}
					raws = append(raws, b)
				}
				if k, err = greedy(view, raws, rng); err != nil {
					return engine.Outcome{}, err
				}
			} else {
				k = rng.IntN(len(legal))
			}
		}
		if err := st.Apply(legal[k]); err != nil {
			return engine.Outcome{}, err
		}
	}
	return st.Outcome(), nil
}

// runner plays games of one setup.
type runner struct {
	setup
	g    engine.Game
	opts engine.Options
}

func newRunner(s setup) (*runner, error) {
	g, err := engine.Lookup(s.game)
	if err != nil {
		return nil, err
	}
	opts, err := engine.Setup(g, s.seats, s.options)
	if err != nil {
		return nil, err
	}
	return &runner{setup: s, g: g, opts: opts}, nil
}

// seatsFor picks the test and base seats of deal seed: for two seats 0
// and 1, else two distinct seats drawn from the seed.
func (r *runner) seatsFor(seed uint64) (a, b int) {
	if r.seats == 2 {
		return 0, 1
	}
	rng := rand.New(rand.NewPCG(seed, 0x5ea7))
	a = rng.IntN(r.seats)
	b = (a + 1 + rng.IntN(r.seats-1)) % r.seats
	return a, b
}

// playGame plays deal seed with test in seat ts and base in seat bs and
// returns the test's score: 1 if it placed above the base, 1/2 tied, 0
// below. The fillers' random streams depend on the deal and their seat
// only, as the bundled bots seed theirs from hello (seed, seat), so they
// repeat in both games of a pair; the compared bots' streams depend on
// round too (0 and 1 for the two games of a pair): their own randomness
// is not repeated, as it would not be for bots with their own seeds.
func (r *runner) playGame(seed uint64, ts, bs, round int) (float64, error) {
	q := make([]float64, r.seats)
	q[ts], q[bs] = r.qTest, r.qBase
	streams := make([]uint64, r.seats)
	for i := range streams {
		streams[i] = uint64(i)
	}
	streams[ts], streams[bs] = uint64(1000+round), uint64(2000+round)
	o, err := play(r.g, r.opts, seed, q, r.greedy, streams)
	if err != nil {
		return 0, fmt.Errorf("%s deal %d: %w", r.game, seed, err)
	}
	switch rt, rb := o.Ranks[ts], o.Ranks[bs]; {
	case rt < rb:
		return 1, nil
	case rt == rb:
		return 0.5, nil
	}
	return 0, nil
}

// pair plays deal seed twice, test and base in swapped seats.
func (r *runner) pair(seed uint64) (s1, s2 float64, err error) {
	a, b := r.seatsFor(seed)
	if s1, err = r.playGame(seed, a, b, 0); err != nil {
		return
	}
	s2, err = r.playGame(seed, b, a, 1)
	return
}

// single plays deal seed once; odd and even deals swap the seats so both
// schemes are seat-balanced and differ only in the repeated deal.
func (r *runner) single(seed uint64) (float64, error) {
	a, b := r.seatsFor(seed)
	if seed%2 == 1 {
		a, b = b, a
	}
	return r.playGame(seed, a, b, 0)
}

// Schemes of an SPRT run.
const (
	paired      = iota // each deal twice, seats swapped; pentanomial LLR
	independent        // each game a fresh deal; trinomial LLR
	nSchemes
)

var schemeNames = [nSchemes]string{"paired", "independent"}

// run is one SPRT until a verdict or maxGames games.
type run struct {
	games   int
	verdict int
	penta   stats.Penta
	wdl     stats.WDL
}

// sprtRun runs one SPRT of the scheme on deals first, first+1, ...
func (r *runner) sprtRun(scheme int, test stats.SPRT, maxGames int, first uint64) (run, error) {
	var out run
	seed := first
	for out.games+1 <= maxGames {
		switch scheme {
		case paired:
			if out.games+2 > maxGames {
				return out, nil
			}
			s1, s2, err := r.pair(seed)
			if err != nil {
				return out, err
			}
			out.penta.Add(s1, s2)
			out.games += 2
			out.verdict = test.Verdict(test.LLRPenta(out.penta))
		case independent:
			s, err := r.single(seed)
			if err != nil {
				return out, err
			}
			switch s {
			case 1:
				out.wdl.W++
			case 0.5:
				out.wdl.D++
			default:
				out.wdl.L++
			}
			out.games++
			out.verdict = test.Verdict(test.LLRTri(out.wdl))
		}
		seed++
		if out.verdict != 0 {
			break
		}
	}
	return out, nil
}

// summary aggregates the runs of one scheme.
type summary struct {
	runs, h1, h0, capped int
	games, games2        float64
	penta                stats.Penta
	wdl                  stats.WDL
}

func (s *summary) add(r run) {
	s.runs++
	switch r.verdict {
	case 1:
		s.h1++
	case -1:
		s.h0++
	default:
		s.capped++
	}
	g := float64(r.games)
	s.games += g
	s.games2 += g * g
	for i := range s.penta {
		s.penta[i] += r.penta[i]
	}
	s.wdl.W += r.wdl.W
	s.wdl.D += r.wdl.D
	s.wdl.L += r.wdl.L
}

func (s summary) mean() float64 { return s.games / float64(s.runs) }

// se is the standard error of mean().
func (s summary) se() float64 {
	n := float64(s.runs)
	if n < 2 {
		return 0
	}
	m := s.games / n
	return math.Sqrt((s.games2/n - m*m) / (n - 1))
}

// measure runs `runs` SPRTs of each scheme in parallel. Run i of a scheme
// plays deals from 1e7*(scheme+1) + 1e5*i + base on, so every run sees
// fresh deals and the measurement is reproducible.
func measure(t testing.TB, s setup, test stats.SPRT, runs, maxGames int, base uint64) [nSchemes]summary {
	r, err := newRunner(s)
	if err != nil {
		t.Fatal(err)
	}
	var out [nSchemes]summary
	type job struct{ scheme, i int }
	jobs := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				res, err := r.sprtRun(j.scheme, test, maxGames, base+1e7*uint64(j.scheme+1)+1e5*uint64(j.i))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				out[j.scheme].add(res)
				mu.Unlock()
			}
		}()
	}
	for i := range runs {
		for sc := range nSchemes {
			jobs <- job{sc, i}
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	return out
}

// resampled runs SPRTs on outcomes drawn from the pooled outcome
// distributions of the played runs (pair scores for paired, game scores
// for independent): many more runs for the price of none, so the mean
// games to verdict of those distributions is known tightly.
func resampled(sum [nSchemes]summary, test stats.SPRT, runs, maxGames int, seed uint64) [nSchemes]summary {
	var out [nSchemes]summary
	rng := rand.New(rand.NewPCG(seed, 7))
	draw := func(counts []int) int {
		n := 0
		for _, c := range counts {
			n += c
		}
		k := rng.IntN(n)
		for i, c := range counts {
			if k < c {
				return i
			}
			k -= c
		}
		return len(counts) - 1
	}
	pool := sum[paired].penta
	wdl := []int{sum[independent].wdl.L, sum[independent].wdl.D, sum[independent].wdl.W}
	for range runs {
		var p run
		for p.games+2 <= maxGames && p.verdict == 0 {
			p.penta[draw(pool[:])]++
			p.games += 2
			p.verdict = test.Verdict(test.LLRPenta(p.penta))
		}
		out[paired].add(p)
		var q run
		for q.games+1 <= maxGames && q.verdict == 0 {
			switch draw(wdl) {
			case 0:
				q.wdl.L++
			case 1:
				q.wdl.D++
			default:
				q.wdl.W++
			}
			q.games++
			q.verdict = test.Verdict(test.LLRTri(q.wdl))
		}
		out[independent].add(q)
	}
	return out
}

// The setups measured, with the SPRT's elo1 (nElo; elo0 is 0). The q
// gaps were picked (TestVarianceCalibrate) so that the test is about 40-50
// nElo stronger than the base: an SPRT[0, 40] then needs a few hundred
// games. Uno is measured both as a single hand (scoring single_hand: one
// deal decides the game) and with the default rules (hands until someone
// reaches 500 points).
var (
	banqiSetup = setup{name: "Banqi", game: "banqi", seats: 2, greedy: bots.GreedyBanqi, qTest: 0.12, qBase: 0.10}
	unoSetup   = setup{name: "Uno 4 seats, single hand", game: "uno", seats: 4, options: map[string]string{"scoring": "single_hand"},
		greedy: bots.GreedyUno, qTest: 1, qBase: 0.92}
	uno500Setup = setup{name: "Uno 4 seats, to 500 points", game: "uno", seats: 4, greedy: bots.GreedyUno, qTest: 1, qBase: 0.95}
	// Two seats, a single hand: greedy against random (lopsided: the test
	// wins nearly every game, and a pair adds at most about sqrt 2 times
	// one game's evidence for two games), and two close bots.
	uno2LopsidedSetup = setup{name: "Uno 2 seats, single hand, greedy vs random", game: "uno", seats: 2, options: map[string]string{"scoring": "single_hand"},
		greedy: bots.GreedyUno, qTest: 1, qBase: 0}
	uno2CloseSetup = setup{name: "Uno 2 seats, single hand, close", game: "uno", seats: 2, options: map[string]string{"scoring": "single_hand"},
		greedy: bots.GreedyUno, qTest: 1, qBase: 0.93}

	variancePlan = []struct {
		s    setup
		elo1 float64
	}{
		{banqiSetup, 40},
		{unoSetup, 40},
		{uno500Setup, 40},
		{uno2LopsidedSetup, 5},
		{uno2CloseSetup, 40},
	}
)

// TestVarianceSanity plays a few short SPRTs of each scheme and game and
// checks the bookkeeping: every run ends, games summed match the outcome
// counts, the schemes keep their counts apart, and a replayed pair scores
// the same.
func TestVarianceSanity(t *testing.T) {
	test := stats.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	for _, s := range []setup{banqiSetup, unoSetup} {
		sum := measure(t, s, test, 2, 40, 1)
		for sc := range nSchemes {
			x := sum[sc]
			if x.runs != 2 || x.h1+x.h0+x.capped != 2 {
				t.Errorf("%s %s: %d runs, %d+%d+%d verdicts", s, schemeNames[sc], x.runs, x.h1, x.h0, x.capped)
			}
			counted := 2*x.penta.Pairs() + x.wdl.Games()
			if float64(counted) != x.games || x.games > 80 || x.games < 2 {
				t.Errorf("%s %s: %v games summed, %d counted", s, schemeNames[sc], x.games, counted)
			}
		}
		if sum[paired].wdl.Games() != 0 || sum[independent].penta.Pairs() != 0 {
			t.Errorf("%s: schemes mixed their counts", s)
		}
	}
	// Games are reproducible: a deal replayed with the same seats and
	// round gives the same score.
	r, err := newRunner(unoSetup)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		a1, a2, err := r.pair(seed)
		if err != nil {
			t.Fatal(err)
		}
		b1, b2, err := r.pair(seed)
		if err != nil {
			t.Fatal(err)
		}
		if a1 != b1 || a2 != b2 {
			t.Errorf("deal %d: pair scored %v,%v then %v,%v", seed, a1, a2, b1, b2)
		}
	}
}

// TestVarianceMeasurement is the full measurement of docs/ci.md, "Variance reduction, measured".
// It takes minutes: run it with
//
//	ARENA_VARIANCE=1 go test ./arena/sprt/ -run TestVarianceMeasurement -v -timeout 2h
//
// ARENA_VARIANCE_RUNS sets the played runs per scheme (default 100),
// ARENA_VARIANCE_ONLY=Banqi (a part of a setup's name) runs only matching
// setups.
func TestVarianceMeasurement(t *testing.T) {
	if os.Getenv("ARENA_VARIANCE") != "1" {
		t.Skip("set ARENA_VARIANCE=1 to run the variance measurement (minutes)")
	}
	runs := 100
	if v := os.Getenv("ARENA_VARIANCE_RUNS"); v != "" {
		fmt.Sscan(v, &runs)
	}
	const maxGames = 4000
	var table strings.Builder
	fmt.Fprintf(&table, "| game | SPRT nElo [elo0, elo1] | scheme | runs | mean games to verdict (± s.e.) | H1 | H0 | capped | pooled Elo | pooled nElo | resampled: mean games (± s.e.), H1 rate (%d runs) |\n", 10000)
	fmt.Fprintf(&table, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	only := os.Getenv("ARENA_VARIANCE_ONLY") // a substring of the setup names to run
	for _, c := range variancePlan {
		if !strings.Contains(c.s.name, only) {
			continue
		}
		rows := table.Len()
		test := stats.SPRT{Elo0: 0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05}
		start := time.Now()
		sum := measure(t, c.s, test, runs, maxGames, 0)
		rs := resampled(sum, test, 10000, maxGames, 1)
		t.Logf("%s: %d runs per scheme in %v", c.s, runs, time.Since(start).Round(time.Second))
		ratio := sum[paired].mean() / sum[independent].mean()
		rratio := rs[paired].mean() / rs[independent].mean()
		for sc := range nSchemes {
			x := sum[sc]
			var e stats.Estimate
			if sc == paired {
				e = stats.EstimatePenta(x.penta, stats.WDL{}) // no LOS in the table: it needs the games
			} else {
				e = stats.EstimateTri(x.wdl)
			}
			fmt.Fprintf(&table, "| %s (q %.2f vs %.2f) | [0, %g] | %s | %d | %.0f ± %.0f | %d | %d | %d | %+.1f ± %.1f | %+.1f ± %.1f | %.0f ± %.1f, %.1f%% |\n",
				c.s.name, c.s.qTest, c.s.qBase, c.elo1, schemeNames[sc], x.runs, x.mean(), x.se(), x.h1, x.h0, x.capped,
				e.Elo, (e.EloHigh-e.EloLow)/2, e.NElo, (e.NEloHigh-e.NEloLow)/2, rs[sc].mean(), rs[sc].se(), 100*float64(rs[sc].h1)/float64(rs[sc].runs))
		}
		fmt.Fprintf(&table, "| %s | | paired / independent | | **%.2f** | | | | | | **%.2f** |\n", c.s.name, ratio, rratio)
		t.Logf("pentanomial pair counts %v, trinomial W/D/L %+v\n%s", sum[paired].penta, sum[independent].wdl, table.String()[rows:])
	}
	t.Logf("\n%s", table.String())
}

// TestVarianceCalibrate prints the test's score, Elo and normalized Elo,
// paired and independent, for a few q gaps: how the setups were chosen.
//
//	ARENA_VARIANCE=calibrate go test ./arena/sprt/ -run TestVarianceCalibrate -v
func TestVarianceCalibrate(t *testing.T) {
	if os.Getenv("ARENA_VARIANCE") != "calibrate" {
		t.Skip("set ARENA_VARIANCE=calibrate")
	}
	pairs := 600
	uno1 := map[string]string{"scoring": "single_hand"}
	for _, s := range []setup{
		{name: "Banqi", game: "banqi", seats: 2, greedy: bots.GreedyBanqi, qTest: 0.12, qBase: 0.10},
		{name: "Uno", game: "uno", seats: 4, greedy: bots.GreedyUno, qTest: 1, qBase: 0.95},
		{name: "Uno", game: "uno", seats: 4, options: uno1, greedy: bots.GreedyUno, qTest: 1, qBase: 0.9},
		{name: "Uno", game: "uno", seats: 4, options: uno1, greedy: bots.GreedyUno, qTest: 0.3, qBase: 0.2},
		{name: "Uno", game: "uno", seats: 2, options: uno1, greedy: bots.GreedyUno, qTest: 1, qBase: 0.93},
		{name: "Uno", game: "uno", seats: 2, options: uno1, greedy: bots.GreedyUno, qTest: 1, qBase: 0},
	} {
		r, err := newRunner(s)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var p stats.Penta
		var w stats.WDL
		for i := range pairs {
			s1, s2, err := r.pair(uint64(1e6 + i))
			if err != nil {
				t.Fatal(err)
			}
			p.Add(s1, s2)
			for _, x := range []float64{s1, s2} {
				switch x {
				case 1:
					w.W++
				case 0.5:
					w.D++
				default:
					w.L++
				}
			}
		}
		ep, et := stats.EstimatePenta(p, w), stats.EstimateTri(w)
		t.Logf("%s %v: %v/game; penta %v Elo %+.1f nElo(penta) %+.1f  W/D/L %+v nElo(tri) %+.1f",
			s, s.options, time.Since(start)/time.Duration(2*pairs), p, ep.Elo, ep.NElo, w, et.NElo)
	}
}
