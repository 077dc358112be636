package stats

import (
	"errors"
	"math"
	"testing"
)

// wdlResults expands a W/D/L count of player a against player b into
// weighted PairResults.
func wdlResults(a, b int, r WDL) []PairResult {
	var out []PairResult
	for _, x := range []struct {
		n int
		s float64
	}{{r.W, 1}, {r.D, 0.5}, {r.L, 0}} {
		if x.n > 0 {
			out = append(out, PairResult{A: a, B: b, ScoreA: x.s, Weight: float64(x.n)})
		}
	}
	return out
}

// eloP is the Elo expected score of a rating gap, written independently of
// the code under test (base-10 form).
func eloP(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// logPosteriorElo is the objective BradleyTerry maximizes, written out in
// Elo units for the reference computations: the log-likelihood of the
// results, draws as half wins, plus prior/2 * log P(win) + prior/2 *
// log P(loss) of one virtual draw per player against a reference player
// rated 0.
func logPosteriorElo(r []float64, results []PairResult, prior float64) float64 {
	f := 0.0
	for _, x := range results {
		w := x.Weight
		if w == 0 {
			w = 1
		}
		p := eloP(r[x.A] - r[x.B])
		f += w * (x.ScoreA*math.Log(p) + (1-x.ScoreA)*math.Log(1-p))
	}
	for _, ri := range r {
		p := eloP(ri)
		f += prior / 2 * (math.Log(p) + math.Log(1-p))
	}
	return f
}

// placeReference returns the ratings gaps (any frame) shifted to where
// the log posterior is highest: only the prior depends on the shift c,
// and its derivative, proportional to sum_i (1/2 - P(r_i + c)), decreases
// in c, so bisection finds it. Without a prior any shift will do.
func placeReference(gaps []float64, prior float64) []float64 {
	out := append([]float64(nil), gaps...)
	if prior == 0 {
		return out
	}
	lo, hi := -8000.0, 8000.0
	for range 60 { // to 1e-14 Elo
		c := (lo + hi) / 2
		d := 0.0
		for _, g := range gaps {
			d += 0.5 - eloP(g+c)
		}
		if d > 0 {
			lo = c
		} else {
			hi = c
		}
	}
	for i := range out {
		out[i] += (lo + hi) / 2
	}
	return out
}

func centered(r []float64) []float64 {
	mean := 0.0
	for _, v := range r {
		mean += v / float64(len(r))
	}
	out := make([]float64, len(r))
	for i, v := range r {
		out[i] = v - mean
	}
	return out
}

// gridMax3 maximizes logPosteriorElo over three ratings by brute force: a
// grid over the gaps (r0 - r2, r1 - r2), each with its best shift
// (placeReference), refined around the best point (step 32 Elo over
// +/-1600, then 1 over +/-64, then 0.02 over +/-2). It returns the
// maximum, not centered.
func gridMax3(results []PairResult, prior float64) []float64 {
	best := []float64{0, 0, 0}
	bestF := math.Inf(-1)
	c0, c1 := 0.0, 0.0
	for _, g := range []struct{ half, step float64 }{{1600, 32}, {64, 1}, {2, 0.02}} {
		b0, b1 := c0, c1
		for x := b0 - g.half; x <= b0+g.half+1e-9; x += g.step {
			for y := b1 - g.half; y <= b1+g.half+1e-9; y += g.step {
				r := placeReference([]float64{x, y, 0}, prior)
				if f := logPosteriorElo(r, results, prior); f > bestF {
					bestF, best, c0, c1 = f, r, x, y
				}
			}
		}
	}
	return best
}

func TestBradleyTerryTwoPlayers(t *testing.T) {
	// Without a prior the maximum likelihood gap is exactly the Elo of the
	// score, 75% -> -400*log10(1/0.75-1) = 190.85, whatever the number of
	// games, and draws count as half wins. Each player's standard error
	// (mean-0 constraint: r0 = -r1 = d/2) is half the gap's:
	// 400/ln10 * 0.5/sqrt(N p (1-p)); for N=100, p=0.75 that is
	// 173.7178 * 0.5/4.33013 = 20.059, so Err95 = 1.96*20.059 = 39.32.
	gapSE := func(n, p float64) float64 { return 400 / math.Ln10 * 0.5 / math.Sqrt(n*p*(1-p)) }
	cases := []struct {
		name   string
		r      WDL
		prior  float64
		gap    float64 // r0 - r1
		tol    float64
		err95  float64 // 0: not checked
		errTol float64
	}{
		{"no prior 75-25", WDL{W: 75, L: 25}, -1, 190.849, 0.001, 1.959964 * gapSE(100, 0.75), 1e-3},
		{"no prior draws as half wins", WDL{W: 50, D: 50}, -1, 190.849, 0.001, 1.959964 * gapSE(100, 0.75), 1e-3},
		{"no prior 40-60", WDL{W: 40, L: 60}, -1, -70.437, 0.001, 1.959964 * gapSE(100, 0.4), 1e-3},
		{"default prior, many games", WDL{W: 75000, L: 25000}, 0, 190.849, 0.01, 1.959964 * gapSE(100000, 0.75), 1e-3},
		{"even", WDL{W: 10, D: 5, L: 10}, 0, 0, 1e-9, 0, 0},
	}
	for _, tc := range cases {
		got, err := BradleyTerryWith(2, wdlResults(0, 1, tc.r), BTOptions{Prior: tc.prior})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if gap := got[0].Elo - got[1].Elo; math.Abs(gap-tc.gap) > tc.tol {
			t.Errorf("%s: gap %.4f, want %.4f (EloFromScore %.4f)", tc.name, gap, tc.gap, EloFromScore(tc.r.Score()))
		}
		if math.Abs(got[0].Elo+got[1].Elo) > 1e-9 {
			t.Errorf("%s: ratings %v do not average 0", tc.name, got)
		}
		if math.Abs(got[0].Err95-got[1].Err95) > 1e-9 {
			t.Errorf("%s: two players' errors differ: %v", tc.name, got)
		}
		if tc.err95 != 0 && math.Abs(got[0].Err95-tc.err95) > tc.errTol {
			t.Errorf("%s: Err95 %.4f, want %.4f", tc.name, got[0].Err95, tc.err95)
		}
	}
}

// With the prior, two players' ratings are r and -r where r maximizes the
// one-dimensional log posterior; find it by bisection on its derivative
// (computed by central differences) and compare.
func TestBradleyTerryPriorMatchesOneDimensionalOptimum(t *testing.T) {
	cases := []struct {
		name  string
		r     WDL
		prior float64
	}{
		{"75-25, default prior", WDL{W: 15, L: 5}, 1},
		{"all won, default prior", WDL{W: 10}, 1},
		{"all won, prior 3", WDL{W: 4, D: 1}, 3},
		{"lost with draws, prior 0.5", WDL{D: 3, L: 8}, 0.5},
	}
	for _, tc := range cases {
		results := wdlResults(0, 1, tc.r)
		f := func(x float64) float64 { return logPosteriorElo([]float64{x, -x}, results, tc.prior) }
		lo, hi := -2000.0, 2000.0
		for range 200 {
			mid := (lo + hi) / 2
			if f(mid+1e-4) > f(mid-1e-4) {
				lo = mid
			} else {
				hi = mid
			}
		}
		want := (lo + hi) / 2
		prior := tc.prior
		got, err := BradleyTerryWith(2, results, BTOptions{Prior: prior})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got[0].Elo-want) > 0.01 || math.Abs(got[1].Elo+want) > 0.01 {
			t.Errorf("%s: got %.4f, %.4f; want %.4f, %.4f", tc.name, got[0].Elo, got[1].Elo, want, -want)
		}
	}
	// The default prior is what BradleyTerry uses.
	a, _ := BradleyTerry(2, wdlResults(0, 1, WDL{W: 10}))
	b, _ := BradleyTerryWith(2, wdlResults(0, 1, WDL{W: 10}), BTOptions{Prior: DefaultBTPrior})
	if a[0] != b[0] || a[1] != b[1] {
		t.Errorf("BradleyTerry %v != BradleyTerryWith(DefaultBTPrior) %v", a, b)
	}
}

// Three players: the ratings must be the brute-force grid maximum of the
// log posterior, relative to their mean, and the errors must match the
// inverse of a numerical Hessian of it: with a prior in (r0, r1, r2),
// giving the covariance C of the ratings and Var(r_i - mean) = (PCP)_ii
// with P = I - J/3; without a prior (the posterior is flat along a common
// shift) in (r0, r1) with r2 = -r0-r1.
func TestBradleyTerryThreePlayersAgainstGridSearch(t *testing.T) {
	var results []PairResult
	results = append(results, wdlResults(0, 1, WDL{W: 7, D: 2, L: 3})...)
	results = append(results, wdlResults(1, 2, WDL{W: 6, D: 1, L: 4})...)
	results = append(results, wdlResults(2, 0, WDL{W: 2, D: 4, L: 5})...)
	results = append(results, PairResult{A: 0, B: 2, ScoreA: 0.75, Weight: 2})
	allWon := append(wdlResults(0, 1, WDL{W: 5, L: 1}), wdlResults(0, 2, WDL{W: 6})...)
	allWon = append(allWon, wdlResults(1, 2, WDL{W: 2, D: 2, L: 1})...)

	cases := []struct {
		name    string
		results []PairResult
		prior   float64
	}{
		{"no prior", results, -1},
		{"default prior", results, 1},
		{"strong prior", results, 10},
		{"player 0 never lost, default prior", allWon, 1},
	}
	for _, tc := range cases {
		got, err := BradleyTerryWith(3, tc.results, BTOptions{Prior: tc.prior})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		prior := math.Max(tc.prior, 0)
		opt := gridMax3(tc.results, prior)
		want := centered(opt)
		for i := range want {
			if math.Abs(got[i].Elo-want[i]) > 0.02 {
				t.Errorf("%s: player %d: %.4f, grid maximum %.4f", tc.name, i, got[i].Elo, want[i])
			}
		}

		var wantErr []float64
		const h = 0.5
		if prior == 0 {
			g := func(x, y float64) float64 {
				return logPosteriorElo([]float64{x, y, -x - y}, tc.results, prior)
			}
			x, y := want[0], want[1]
			hxx := (g(x+h, y) - 2*g(x, y) + g(x-h, y)) / (h * h)
			hyy := (g(x, y+h) - 2*g(x, y) + g(x, y-h)) / (h * h)
			hxy := (g(x+h, y+h) - g(x+h, y-h) - g(x-h, y+h) + g(x-h, y-h)) / (4 * h * h)
			det := hxx*hyy - hxy*hxy
			vx, vy, cxy := -hyy/det, -hxx/det, hxy/det
			wantErr = []float64{1.959964 * math.Sqrt(vx), 1.959964 * math.Sqrt(vy), 1.959964 * math.Sqrt(vx+vy+2*cxy)}
		} else {
			f := func(d [3]float64) float64 {
				r := make([]float64, 3)
				for i := range r {
					r[i] = opt[i] + d[i]
				}
				return logPosteriorElo(r, tc.results, prior)
			}
			var hess [3][3]float64
			for i := range 3 {
				for j := range 3 {
					var pp, pm, mp, mm [3]float64
					pp[i] += h
					pp[j] += h
					pm[i] += h
					pm[j] -= h
					mp[i] -= h
					mp[j] += h
					mm[i] -= h
					mm[j] -= h
					hess[i][j] = -(f(pp) - f(pm) - f(mp) + f(mm)) / (4 * h * h)
				}
			}
			c := inverse3(hess)
			for i := range 3 {
				// (PCP)_ii = C_ii - 2/3 sum_j C_ij + 1/9 sum_jk C_jk
				v := c[i][i]
				for j := range 3 {
					v -= 2.0 / 3 * c[i][j]
					for k := range 3 {
						v += c[j][k] / 9
					}
				}
				wantErr = append(wantErr, 1.959964*math.Sqrt(v))
			}
		}
		for i := range wantErr {
			if math.Abs(got[i].Err95-wantErr[i]) > 0.05 {
				t.Errorf("%s: player %d: Err95 %.4f, numerical %.4f", tc.name, i, got[i].Err95, wantErr[i])
			}
		}
	}
}

// inverse3 inverts a 3x3 matrix by cofactors.
func inverse3(a [3][3]float64) [3][3]float64 {
	var c [3][3]float64
	for i := range 3 {
		for j := range 3 {
			r0, r1 := (i+1)%3, (i+2)%3
			c0, c1 := (j+1)%3, (j+2)%3
			c[j][i] = a[r0][c0]*a[r1][c1] - a[r0][c1]*a[r1][c0] // transposed: the adjugate
		}
	}
	det := a[0][0]*c[0][0] + a[0][1]*c[1][0] + a[0][2]*c[2][0]
	for i := range 3 {
		for j := range 3 {
			c[i][j] /= det
		}
	}
	return c
}

// A beats B 75%, B beats C 75%, A and C never meet: the model chains the
// gaps, A-C = 2 * 190.85 = 381.70 (up to the prior, negligible here).
func TestBradleyTerryTransitivity(t *testing.T) {
	results := append(wdlResults(0, 1, WDL{W: 7500, L: 2500}), wdlResults(1, 2, WDL{W: 5000, D: 5000})...)
	got, err := BradleyTerry(3, results)
	if err != nil {
		t.Fatal(err)
	}
	want := 2 * EloFromScore(0.75) // 381.70
	if d := got[0].Elo - got[2].Elo; math.Abs(d-want) > 0.1 {
		t.Errorf("A-C %.3f, want %.3f", d, want)
	}
	if math.Abs(got[1].Elo) > 0.1 || math.Abs(got[0].Elo-190.85) > 0.1 {
		t.Errorf("ratings %v, want about 190.85, 0, -190.85", got)
	}
	// C's error is larger than B's: it is only linked through B.
	if !(got[0].Err95 > got[1].Err95 && got[2].Err95 > got[1].Err95) {
		t.Errorf("errors %v: the middle player should be best determined", got)
	}
}

func TestBradleyTerrySymmetryAndOrder(t *testing.T) {
	var base []PairResult
	base = append(base, wdlResults(0, 1, WDL{W: 4, D: 3, L: 2})...)
	base = append(base, wdlResults(1, 2, WDL{W: 1, D: 2, L: 5})...)
	base = append(base, wdlResults(2, 3, WDL{W: 3, L: 3})...)
	base = append(base, wdlResults(3, 0, WDL{W: 2, D: 1, L: 6})...)
	base = append(base, PairResult{A: 0, B: 2, ScoreA: 1}, PairResult{A: 1, B: 3, ScoreA: 0.5})
	ref, err := BradleyTerry(4, base)
	if err != nil {
		t.Fatal(err)
	}
	perm := []int{2, 0, 3, 1} // player i becomes perm[i]

	reversed := make([]PairResult, len(base))
	swapped := make([]PairResult, len(base))
	mirrored := make([]PairResult, len(base))
	relabeled := make([]PairResult, len(base))
	var unit []PairResult // weights spelled out as single games
	for i, r := range base {
		reversed[len(base)-1-i] = r
		swapped[i] = PairResult{A: r.B, B: r.A, ScoreA: 1 - r.ScoreA, Weight: r.Weight}
		mirrored[i] = PairResult{A: r.A, B: r.B, ScoreA: 1 - r.ScoreA, Weight: r.Weight}
		relabeled[i] = PairResult{A: perm[r.A], B: perm[r.B], ScoreA: r.ScoreA, Weight: r.Weight}
		for range int(math.Max(r.Weight, 1)) {
			unit = append(unit, PairResult{A: r.A, B: r.B, ScoreA: r.ScoreA})
		}
	}
	cases := []struct {
		name    string
		results []PairResult
		want    func(i int) Rating // what player i's rating should be
	}{
		{"reversed order", reversed, func(i int) Rating { return ref[i] }},
		{"sides swapped", swapped, func(i int) Rating { return ref[i] }},
		{"weights as single games", unit, func(i int) Rating { return ref[i] }},
		{"scores mirrored", mirrored, func(i int) Rating { return Rating{-ref[i].Elo, ref[i].Err95} }},
		{"players relabeled", relabeled, func(i int) Rating {
			for old, nw := range perm {
				if nw == i {
					return ref[old]
				}
			}
			panic("bad perm")
		}},
	}
	for _, tc := range cases {
		got, err := BradleyTerry(4, tc.results)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := range got {
			w := tc.want(i)
			if math.Abs(got[i].Elo-w.Elo) > 1e-7 || math.Abs(got[i].Err95-w.Err95) > 1e-7 {
				t.Errorf("%s: player %d: %+v, want %+v", tc.name, i, got[i], w)
			}
		}
	}
}

// Error bars shrink as 1/sqrt(games): the same scores over 4x and 100x the
// games give half and a tenth of the error (the prior's weight shrinks too,
// hence the tolerance).
func TestBradleyTerryErrorShrinks(t *testing.T) {
	results := func(k int) []PairResult {
		var r []PairResult
		r = append(r, wdlResults(0, 1, WDL{W: 6 * k, D: 2 * k, L: 2 * k})...)
		r = append(r, wdlResults(1, 2, WDL{W: 5 * k, D: 3 * k, L: 2 * k})...)
		r = append(r, wdlResults(0, 2, WDL{W: 4 * k, D: 4 * k, L: 2 * k})...)
		return r
	}
	base, err := BradleyTerry(3, results(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		k     int
		ratio float64
	}{{4, 0.5}, {25, 0.2}, {100, 0.1}} {
		got, err := BradleyTerry(3, results(tc.k))
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if r := got[i].Err95 / base[i].Err95; math.Abs(r-tc.ratio) > 0.03*tc.ratio {
				t.Errorf("%dx games: player %d error ratio %.4f, want about %.2f", tc.k, i, r, tc.ratio)
			}
		}
	}
}

func TestBradleyTerryPerfectScoresAndPrior(t *testing.T) {
	// All won: the maximum likelihood gap is infinite; the prior keeps it
	// finite, and it grows with the number of games.
	prev := 0.0
	for _, n := range []int{1, 5, 20, 100} {
		got, err := BradleyTerry(2, wdlResults(0, 1, WDL{W: n}))
		if err != nil {
			t.Fatal(err)
		}
		gap := got[0].Elo - got[1].Elo
		if math.IsNaN(gap) || math.IsInf(gap, 0) || gap <= prev || math.IsNaN(got[0].Err95) {
			t.Errorf("%d of %d won: %+v", n, n, got)
		}
		prev = gap
	}
	if _, err := BradleyTerryWith(2, wdlResults(0, 1, WDL{W: 3}), BTOptions{Prior: -1}); !errors.Is(err, ErrNoMLE) {
		t.Errorf("all won without prior: err %v, want ErrNoMLE", err)
	}
	// A player without games: no MLE; with the prior it sits at the mean.
	r := wdlResults(0, 1, WDL{W: 3, L: 2})
	if _, err := BradleyTerryWith(3, r, BTOptions{Prior: -1}); !errors.Is(err, ErrNoMLE) {
		t.Errorf("player without games, no prior: err %v, want ErrNoMLE", err)
	}
	got, err := BradleyTerry(3, r)
	if err != nil || math.Abs(got[2].Elo) > 1e-9 || got[2].Err95 <= got[0].Err95 {
		t.Errorf("player without games: %+v, %v", got, err)
	}
	// One player: rated 0.
	if got, err := BradleyTerry(1, nil); err != nil || got[0].Elo != 0 {
		t.Errorf("one player: %+v, %v", got, err)
	}
}

func TestBradleyTerryAnchor(t *testing.T) {
	results := append(wdlResults(0, 1, WDL{W: 60, D: 20, L: 20}), wdlResults(1, 2, WDL{W: 30, D: 40, L: 30})...)
	free, err := BradleyTerry(3, results)
	if err != nil {
		t.Fatal(err)
	}
	anch, err := BradleyTerryWith(3, results, BTOptions{Anchored: true, Anchor: 1, AnchorElo: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if anch[1].Elo != 2000 || anch[1].Err95 != 0 {
		t.Errorf("anchor: %+v", anch[1])
	}
	for i := range free {
		if d := (anch[i].Elo - 2000) - (free[i].Elo - free[1].Elo); math.Abs(d) > 1e-9 {
			t.Errorf("player %d: anchoring changed a gap by %v", i, d)
		}
	}
	// Relative to the anchor, a neighbour's error is the gap's error,
	// larger than its error relative to the mean.
	if !(anch[0].Err95 > free[0].Err95 && anch[2].Err95 > free[2].Err95) {
		t.Errorf("anchored errors %v vs free %v", anch, free)
	}
	// Two players without prior: the gap's error is twice each player's
	// error relative to the mean.
	two := wdlResults(0, 1, WDL{W: 30, L: 10})
	f2, _ := BradleyTerryWith(2, two, BTOptions{Prior: -1})
	a2, _ := BradleyTerryWith(2, two, BTOptions{Prior: -1, Anchored: true})
	if math.Abs(a2[1].Err95-2*f2[1].Err95) > 1e-9 || a2[0].Elo != 0 {
		t.Errorf("two players anchored %v, free %v", a2, f2)
	}
}

func TestBradleyTerryBadInput(t *testing.T) {
	cases := []struct {
		name    string
		n       int
		results []PairResult
		opt     BTOptions
	}{
		{"no players", 0, nil, BTOptions{}},
		{"player out of range", 2, []PairResult{{A: 0, B: 2, ScoreA: 1}}, BTOptions{}},
		{"negative player", 2, []PairResult{{A: -1, B: 1, ScoreA: 1}}, BTOptions{}},
		{"self play", 2, []PairResult{{A: 1, B: 1, ScoreA: 1}}, BTOptions{}},
		{"score above 1", 2, []PairResult{{A: 0, B: 1, ScoreA: 1.5}}, BTOptions{}},
		{"score NaN", 2, []PairResult{{A: 0, B: 1, ScoreA: math.NaN()}}, BTOptions{}},
		{"negative weight", 2, []PairResult{{A: 0, B: 1, ScoreA: 1, Weight: -1}}, BTOptions{}},
		{"infinite weight", 2, []PairResult{{A: 0, B: 1, ScoreA: 1, Weight: math.Inf(1)}}, BTOptions{}},
		{"anchor out of range", 2, nil, BTOptions{Anchored: true, Anchor: 2}},
	}
	for _, tc := range cases {
		_, err := BradleyTerryWith(tc.n, tc.results, tc.opt)
		if !errors.Is(err, ErrBadResults) || !errors.Is(err, ErrNoRatings) {
			t.Errorf("%s: error %v, want ErrBadResults wrapping ErrNoRatings", tc.name, err)
		}
	}
	// Every reason for no ratings is an ErrNoRatings, for a standings
	// table that falls back to showing none.
	for _, e := range []error{ErrNoMLE, ErrBadResults, ErrNotConverged} {
		if !errors.Is(e, ErrNoRatings) {
			t.Errorf("%v does not wrap ErrNoRatings", e)
		}
	}
	_, err := BradleyTerryWith(2, wdlResults(0, 1, WDL{W: 3}), BTOptions{Prior: -1})
	if !errors.Is(err, ErrNoMLE) || !errors.Is(err, ErrNoRatings) || errors.Is(err, ErrBadResults) {
		t.Errorf("all won without prior: %v, want ErrNoMLE (an ErrNoRatings, not ErrBadResults)", err)
	}
}

// DiffSD agrees with the intervals BradleyTerryWith reports: with two
// players each centred error is half the difference's, and a player's
// error relative to an anchor is the sd of their difference.
func TestBTFitDiffSD(t *testing.T) {
	results := []PairResult{
		{A: 0, B: 1, ScoreA: 1, Weight: 30}, {A: 0, B: 1, ScoreA: 0, Weight: 12},
		{A: 1, B: 2, ScoreA: 1, Weight: 25}, {A: 1, B: 2, ScoreA: 0.5, Weight: 10}, {A: 1, B: 2, ScoreA: 0, Weight: 15},
		{A: 0, B: 2, ScoreA: 1, Weight: 35}, {A: 0, B: 2, ScoreA: 0, Weight: 5},
	}
	two, err := BradleyTerryFit(2, results[:2], BTOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := two.DiffSD(0, 1), 2*two.Ratings[0].Err95/z95; math.Abs(got-want) > 1e-9 {
		t.Errorf("two players: DiffSD %v, want twice the centred error, %v", got, want)
	}
	for _, prior := range []float64{0, -1} {
		fit, err := BradleyTerryFit(3, results, BTOptions{Prior: prior})
		if err != nil {
			t.Fatal(err)
		}
		for anchor := range 3 {
			anchored, err := BradleyTerryWith(3, results, BTOptions{Prior: prior, Anchored: true, Anchor: anchor})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if got, want := fit.DiffSD(i, anchor), anchored[i].Err95/z95; math.Abs(got-want) > 1e-6 {
					t.Errorf("prior %v: DiffSD(%d, %d) = %v, want the anchored error %v", prior, i, anchor, got, want)
				}
			}
		}
	}
}
