package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// roundRobin generates the ledger of a finished 2-seat round robin as the
// tournament runner plays it: every pairing of n bots meets once per cycle
// as a game pair (the same deal twice, seats swapped). The bots' true
// strengths span spread Elo evenly; the first bot is made `extreme` Elo
// stronger and the last as much weaker, so that with a large extreme one
// bot is unbeaten and one winless. A game is drawn with probability
// draw * 4p(1-p) (draws are commonest between equals), else won by A with
// probability p, the Elo expectation.
func roundRobin(n, cycles int, spread, extreme, draw float64, seed uint64) []PairResult {
	rng := rand.New(rand.NewPCG(seed, 0xb7))
	elo := make([]float64, n)
	for i := range elo {
		elo[i] = spread * (0.5 - float64(i)/float64(n-1))
	}
	elo[0] += extreme
	elo[n-1] -= extreme
	var out []PairResult
	for range cycles {
		for a := range n {
			for b := a + 1; b < n; b++ {
				for g := range 2 {
					p := eloP(elo[a] - elo[b])
					pd := draw * 4 * p * (1 - p)
					s := 0.0
					switch u := rng.Float64(); {
					case u < pd:
						s = 0.5
					case u < pd+(1-pd)*p:
						s = 1
					}
					if g == 0 {
						out = append(out, PairResult{A: a, B: b, ScoreA: s})
					} else {
						out = append(out, PairResult{A: b, B: a, ScoreA: 1 - s})
					}
				}
			}
		}
	}
	return out
}

// record is each player's total score and games in results.
func record(n int, results []PairResult) (score, games []float64) {
	score, games = make([]float64, n), make([]float64, n)
	for _, r := range results {
		w := r.Weight
		if w == 0 {
			w = 1
		}
		score[r.A] += w * r.ScoreA
		score[r.B] += w * (1 - r.ScoreA)
		games[r.A] += w
		games[r.B] += w
	}
	return score, games
}

// checkOptimum checks, independently of the fitting method, that ratings
// (Elo, mean 0) maximize the log posterior BradleyTerry documents: the
// likelihood of every game (draws half a win) times prior/2 virtual wins
// and prior/2 virtual losses of each player against a reference player
// rated 0. The ratings are reported relative to their mean, so the
// reference's place r* = ratings + c is found first: for fixed gaps only
// the prior depends on c, and its derivative sum_i (1/2 - P(r_i + c)) is
// decreasing in c, so bisection finds it. At the optimum the gradient of
// the log posterior in Elo units (here by central differences) vanishes;
// tol is on |d logPost / d r_i| per game of player i, per Elo.
func checkOptimum(t *testing.T, name string, got []Rating, results []PairResult, prior float64) {
	t.Helper()
	n := len(got)
	r := make([]float64, n)
	lo, hi := -4000.0, 4000.0
	for range 200 {
		c := (lo + hi) / 2
		d := 0.0
		for i := range got {
			d += 0.5 - eloP(got[i].Elo+c)
		}
		if d > 0 {
			lo = c
		} else {
			hi = c
		}
	}
	for i := range r {
		r[i] = got[i].Elo + (lo+hi)/2
	}
	_, games := record(n, results)
	worst, at := 0.0, -1
	for i := range r {
		const h = 1e-3
		x := append([]float64(nil), r...)
		x[i] = r[i] + h
		fp := logPosteriorElo(x, results, prior)
		x[i] = r[i] - h
		fm := logPosteriorElo(x, results, prior)
		g := math.Abs(fp-fm) / (2 * h) / (games[i] + prior)
		if g > worst {
			worst, at = g, i
		}
	}
	// A gradient of 1e-7 per game and Elo moves a rating by well under
	// 0.01 Elo; central differences of a sum of ~1000 logs are good to
	// about 1e-9 here.
	if worst > 1e-7 {
		t.Errorf("%s: not the maximum: gradient %.3g per game at player %d", name, worst, at)
	}
}

// Finished round robins of 30 bots (870 games) and 18 bots (306 games),
// and every shorter ledger of them, as standings show a tournament while it
// runs: the ratings must always be computable, finite and the maximum of
// the posterior, and the unbeaten and winless bots must be finite and
// at the two ends.
func TestBradleyTerryRoundRobinLedgers(t *testing.T) {
	cases := []struct {
		bots, cycles    int
		spread, extreme float64
		draw            float64
		seeds           int
		prefixes        bool // every prefix of the ledger, not only the whole
	}{
		{30, 1, 1200, 1500, 0.3, 3, true},
		{18, 1, 1200, 1500, 0.3, 3, true},
		{30, 1, 400, 0, 0.5, 3, false},     // close field, many draws
		{30, 2, 2400, 2000, 0.1, 3, false}, // double round robin, very spread
		{30, 1, 200, 1500, 0.9, 3, false},  // drawish, with outliers
		{12, 4, 800, 1200, 0.3, 3, true},
	}
	for _, tc := range cases {
		for seed := range uint64(tc.seeds) {
			results := roundRobin(tc.bots, tc.cycles, tc.spread, tc.extreme, tc.draw, seed)
			name := fmt.Sprintf("%d bots x %d cycles, spread %g, extreme %g, draws %g, seed %d", tc.bots, tc.cycles, tc.spread, tc.extreme, tc.draw, seed)
			score, games := record(tc.bots, results)
			if tc.extreme > 0 && (score[0] != games[0] || score[tc.bots-1] != 0) {
				t.Fatalf("%s: the generator should make bot 0 unbeaten and the last winless: %v of %v, %v of %v",
					name, score[0], games[0], score[tc.bots-1], games[tc.bots-1])
			}
			lengths := []int{len(results)}
			if tc.prefixes {
				lengths = lengths[:0]
				for l := 1; l <= len(results); l++ {
					lengths = append(lengths, l)
				}
			}
			failed := 0
			for _, l := range lengths {
				got, err := BradleyTerry(tc.bots, results[:l])
				if err != nil {
					if failed++; failed <= 3 {
						t.Errorf("%s, first %d games: %v", name, l, err)
					}
					continue
				}
				for i, r := range got {
					if math.IsNaN(r.Elo) || math.IsInf(r.Elo, 0) || !(r.Err95 > 0) || math.IsInf(r.Err95, 0) {
						t.Fatalf("%s, first %d games: player %d: %+v", name, l, i, r)
					}
				}
				if l == len(results) {
					checkOptimum(t, name, got, results, DefaultBTPrior)
					if tc.extreme > 0 {
						for i := 1; i < tc.bots-1; i++ {
							if !(got[0].Elo > got[i].Elo && got[i].Elo > got[tc.bots-1].Elo) {
								t.Errorf("%s: unbeaten %.1f and winless %.1f should bracket player %d's %.1f", name, got[0].Elo, got[tc.bots-1].Elo, i, got[i].Elo)
							}
						}
					}
				}
			}
			if failed > 0 {
				t.Errorf("%s: %d of %d ledgers without ratings", name, failed, len(lengths))
			}
		}
	}
}

// Sparse comparison graphs, as Swiss rounds, elimination brackets and
// partial ledgers give them: a chain of bots that only meet their
// neighbours, with lopsided results (the MM iteration's slow case: the
// gaps add up along the chain), and a knock-out bracket whose winner
// never lost and whose first-round losers each played once.
func TestBradleyTerrySparseGraphs(t *testing.T) {
	chain := func(n, games int, p float64) []PairResult {
		var out []PairResult
		for i := 0; i+1 < n; i++ {
			w := int(p * float64(games))
			out = append(out, PairResult{A: i, B: i + 1, ScoreA: 1, Weight: float64(w)})
			if games > w {
				out = append(out, PairResult{A: i, B: i + 1, ScoreA: 0, Weight: float64(games - w)})
			}
		}
		return out
	}
	bracket := func(n int) []PairResult {
		alive := make([]int, n)
		for i := range alive {
			alive[i] = i
		}
		var out []PairResult
		for len(alive) > 1 {
			var next []int
			for k := 0; k+1 < len(alive); k += 2 {
				a, b := alive[k], alive[k+1]
				if b < a {
					a, b = b, a
				}
				// The lower index wins 2 of 2 games plus a draw.
				out = append(out, PairResult{A: a, B: b, ScoreA: 1, Weight: 2}, PairResult{A: a, B: b, ScoreA: 0.5})
				next = append(next, a)
			}
			alive = next
		}
		return out
	}
	cases := []struct {
		name    string
		n       int
		results []PairResult
	}{
		{"chain of 30, 20 games a link at 90%", 30, chain(30, 20, 0.9)},
		{"chain of 40, 2 games a link, all won", 40, chain(40, 2, 1)},
		{"chain of 30, 1000 games a link at 75%", 30, chain(30, 1000, 0.75)},
		{"knock-out of 32", 32, bracket(32)},
		{"knock-out of 64", 64, bracket(64)},
	}
	for _, tc := range cases {
		got, err := BradleyTerry(tc.n, tc.results)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkOptimum(t, tc.name, got, tc.results, DefaultBTPrior)
		for i := 1; i < tc.n && tc.name[:5] == "chain"; i++ {
			if !(got[i].Elo < got[i-1].Elo) {
				t.Errorf("%s: player %d (%.1f) not below player %d (%.1f)", tc.name, i, got[i].Elo, i-1, got[i-1].Elo)
			}
		}
	}
}

// The MM iteration alone, without the Newton steps that speed up its end,
// reaches the same optimum: it is what guarantees convergence, so it must
// get there by itself on the hard cases too.
func TestBradleyTerryMMAlone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		results []PairResult
		prior   float64
	}{
		{"30 bots, unbeaten and winless", 30, roundRobin(30, 1, 1200, 1500, 0.3, 0), DefaultBTPrior},
		{"18 bots, first 17 games", 18, roundRobin(18, 1, 1200, 1500, 0.3, 1)[:17], DefaultBTPrior},
		{"12 bots, strong prior", 12, roundRobin(12, 2, 800, 0, 0.3, 2), 10},
		{"12 bots, no prior", 12, roundRobin(12, 4, 400, 0, 0.3, 3), 0},
	} {
		games, score := square(tc.n), square(tc.n)
		for _, r := range tc.results {
			games[r.A][r.B]++
			games[r.B][r.A]++
			score[r.A][r.B] += r.ScoreA
			score[r.B][r.A] += 1 - r.ScoreA
		}
		if tc.prior == 0 && !stronglyConnected(score) {
			t.Fatalf("%s: the generator should give a strongly connected graph", tc.name)
		}
		m := &btModel{n: tc.n, games: games, prior: tc.prior, wins: make([]float64, tc.n), total: make([]float64, tc.n)}
		for i := range tc.n {
			for j := range tc.n {
				m.wins[i] += score[i][j]
				m.total[i] += games[i][j]
			}
			m.wins[i] += tc.prior / 2
			m.total[i] += tc.prior
		}
		mm, err := m.fit(false)
		if err != nil {
			t.Fatalf("%s: MM alone: %v", tc.name, err)
		}
		both, err := m.fit(true)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := range mm {
			if d := (mm[i] - both[i]) * eloPerNat; math.Abs(d) > 1e-4 {
				t.Errorf("%s: player %d: MM alone %.6f Elo, with Newton %.6f", tc.name, i, mm[i]*eloPerNat, both[i]*eloPerNat)
			}
		}
	}
}
