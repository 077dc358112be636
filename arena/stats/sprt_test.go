package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestSPRTBounds(t *testing.T) {
	for _, tc := range []struct {
		alpha, beta  float64
		lower, upper float64
	}{
		{0.05, 0.05, -2.9444389791664403, 2.9444389791664403},
		{0.05, 0.10, math.Log(0.10 / 0.95), math.Log(0.90 / 0.05)},
		{0.01, 0.05, math.Log(0.05 / 0.99), math.Log(0.95 / 0.01)},
	} {
		lo, hi := SPRT{Elo0: 0, Elo1: 5, Alpha: tc.alpha, Beta: tc.beta}.Bounds()
		if math.Abs(lo-tc.lower) > 1e-12 || math.Abs(hi-tc.upper) > 1e-12 {
			t.Errorf("alpha %v beta %v: bounds (%v, %v), want (%v, %v)", tc.alpha, tc.beta, lo, hi, tc.lower, tc.upper)
		}
	}
	// The familiar rounded figure.
	if lo, hi := (SPRT{0, 5, 0.05, 0.05}).Bounds(); math.Abs(lo+2.944) > 5e-4 || math.Abs(hi-2.944) > 5e-4 {
		t.Errorf("alpha=beta=0.05: (%v, %v), want +/-2.944", lo, hi)
	}
}

func TestSPRTValidate(t *testing.T) {
	for _, tc := range []struct {
		s    SPRT
		want string // "" = valid; else a substring of the error
	}{
		{SPRT{0, 5, 0.05, 0.05}, ""},
		{SPRT{-1.75, 0.25, 0.05, 0.05}, ""},
		{SPRT{0, 2, 0.001, 0.998}, ""},
		{SPRT{5, 0, 0.05, 0.05}, "elo0 (5) must be less than elo1 (0)"},
		{SPRT{2, 2, 0.05, 0.05}, "less than elo1"},
		{SPRT{0, math.Inf(1), 0.05, 0.05}, "finite"},
		{SPRT{math.NaN(), 5, 0.05, 0.05}, "finite"},
		{SPRT{0, 5, 0, 0.05}, "alpha (0) must be between 0 and 1"},
		{SPRT{0, 5, 1, 0.05}, "alpha (1)"},
		{SPRT{0, 5, math.NaN(), 0.05}, "alpha"},
		{SPRT{0, 5, 0.05, -0.1}, "beta (-0.1) must be between 0 and 1"},
		{SPRT{0, 5, 0.05, 1.5}, "beta"},
		{SPRT{0, 5, 0.5, 0.5}, "alpha + beta (0.5 + 0.5) must be less than 1"},
		{SPRT{0, 5, 0.7, 0.4}, "alpha + beta"},
	} {
		err := tc.s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", tc.s, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want one containing %q", tc.s, err, tc.want)
		}
	}
}

// regularized are counts as the LLR sees them: an empty bucket counts
// 0.001 (fishtest's LLRcalc.regularize).
func regularized(counts []int) []float64 {
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = float64(c)
		if c == 0 {
			out[i] = 1e-3
		}
	}
	return out
}

func logLik(c, p []float64) float64 {
	f := 0.0
	for i := range c {
		if !(p[i] > 0) {
			return math.Inf(-1)
		}
		f += c[i] * math.Log(p[i])
	}
	return f
}

// bruteMaxTri maximizes the trinomial log-likelihood of counts (L, D, W)
// over distributions with t-value (mu - 1/2)/sigma = t, independently of
// the package's fixed-point method. With s = pW + pL and d = pW - pL the
// mean is 1/2 + d/2 and the variance (s - d^2)/4, so the constraint is
// d = t sqrt(s/(1+t^2)): a curve in s alone, on [t^2/(1+t^2), 1]. A grid
// of 20000 points, then golden-section search around the best one.
func bruteMaxTri(counts []int, t float64) float64 {
	c := regularized(counts)
	f := func(s float64) float64 {
		d := t * math.Sqrt(s/(1+t*t))
		return logLik(c, []float64{(s - d) / 2, 1 - s, (s + d) / 2})
	}
	lo := t * t / (1 + t*t)
	const n = 20000
	h := (1 - lo) / n
	best, bestF := lo, math.Inf(-1)
	for i := 0; i <= n; i++ {
		s := lo + float64(i)*h
		if v := f(s); v > bestF {
			best, bestF = s, v
		}
	}
	a, b := math.Max(lo, best-h), math.Min(1, best+h)
	g := (math.Sqrt(5) - 1) / 2
	for b-a > 1e-15 {
		x1, x2 := b-g*(b-a), a+g*(b-a)
		if f(x1) > f(x2) {
			b = x2
		} else {
			a = x1
		}
		if x1 == b-g*(b-a) && x2 == a+g*(b-a) {
			break
		}
	}
	return math.Max(bestF, f((a+b)/2))
}

// bruteMaxPenta maximizes the pentanomial log-likelihood of counts over
// distributions with per-pair t-value (mu - 1/2)/sigma = t by brute force.
// A distribution is parametrized by (sigma, p0, p4): with the mean 1/2 +
// t sigma and the second moment fixed, p1, p2, p3 follow linearly (b = a -
// 1/2 is -1/4, 0, 1/4 for them):
//
//	p1 + p2 + p3      = 1 - p0 - p4
//	(p3 - p1)/4       = t sigma + p0/2 - p4/2
//	(p1 + p3)/16      = sigma^2 (1 + t^2) - p0/4 - p4/4
//
// A 100^3 grid over (0, 1/2] x [0, 1] x [0, 1], then pattern search: a
// 21^3 grid around the best point, shrunk fivefold while the best point is
// inside it.
func bruteMaxPenta(counts []int, t float64) float64 {
	c := regularized(counts)
	f := func(sigma, p0, p4 float64) float64 {
		b1 := t*sigma + p0/2 - p4/2
		b2 := sigma*sigma*(1+t*t) - p0/4 - p4/4
		p3, p1 := 8*b2+2*b1, 8*b2-2*b1
		p2 := 1 - p0 - p4 - 16*b2
		return logLik(c, []float64{p0, p1, p2, p3, p4})
	}
	best, bestF := [3]float64{}, math.Inf(-1)
	const n = 100
	for i := 1; i <= n; i++ {
		for j := 0; j <= n; j++ {
			for k := 0; k <= n; k++ {
				x := [3]float64{0.5 * float64(i) / n, float64(j) / n, float64(k) / n}
				if v := f(x[0], x[1], x[2]); v > bestF {
					best, bestF = x, v
				}
			}
		}
	}
	if math.IsInf(bestF, -1) {
		panic("bruteMaxPenta: no feasible grid point")
	}
	h := 2.0 / n // half width of the local grid, in units of the coarse axes
	for round := 0; round < 200 && h > 1e-14; round++ {
		const m = 10
		center, edge := best, false
		for i := -m; i <= m; i++ {
			for j := -m; j <= m; j++ {
				for k := -m; k <= m; k++ {
					x := [3]float64{
						center[0] + 0.5*h*float64(i)/m,
						center[1] + h*float64(j)/m,
						center[2] + h*float64(k)/m,
					}
					if v := f(x[0], x[1], x[2]); v > bestF {
						best, bestF = x, v
						edge = i == -m || i == m || j == -m || j == m || k == -m || k == m
					}
				}
			}
		}
		if !edge {
			h /= 5
		}
	}
	return bestF
}

// llrRef are reference LLRs. fishtest is the value of fishtest's
// LLRcalc.LLR_normalized(elo0, elo1, counts) (counts in fishtest's order:
// L, D, W or the pair scores 0 .. 1), computed with its algorithm (the
// fixed-point iteration of MLE_t_value from the uniform distribution,
// brentq replaced by bisection to 1e-16) in a scratch script; the test
// also recomputes each value by the brute-force maximizations above.
var llrRef = []struct {
	elo0, elo1 float64
	counts     []int
	fishtest   float64
}{
	{0, 5, []int{10, 20, 40, 20, 10}, -0.020709467029953518},
	{0, 5, []int{5, 20, 40, 25, 10}, 0.2783096340267899},
	{0, 2, []int{120, 680, 2300, 700, 200}, 1.6697705518230015},
	{-1.75, 0.25, []int{120, 680, 2300, 700, 200}, 1.9012655297804995},
	{0, 5, []int{0, 3, 10, 7, 2}, 0.18711784160472827},
	{0, 10, []int{0, 0, 0, 0, 5}, 0.19934458797567992},
	{0, 5, []int{30, 40, 30}, -0.010354554943627949},
	{0, 5, []int{40, 0, 60}, 0.27746034161829636},
	{0, 20, []int{100, 50, 130}, 1.4416100077478227},
	{-5, 0, []int{130, 50, 100}, -0.4473717637214814},
}

func llrOf(s SPRT, counts []int) float64 {
	if len(counts) == 3 {
		return s.LLRTri(WDL{L: counts[0], D: counts[1], W: counts[2]})
	}
	return s.LLRPenta(Penta(counts))
}

func bruteLLR(s SPRT, counts []int) float64 {
	if len(counts) == 3 {
		t0, t1 := s.Elo0*math.Ln10/800, s.Elo1*math.Ln10/800
		return bruteMaxTri(counts, t1) - bruteMaxTri(counts, t0)
	}
	t0, t1 := math.Sqrt2*s.Elo0*math.Ln10/800, math.Sqrt2*s.Elo1*math.Ln10/800
	return bruteMaxPenta(counts, t1) - bruteMaxPenta(counts, t0)
}

func TestLLRReference(t *testing.T) {
	for _, tc := range llrRef {
		s := SPRT{Elo0: tc.elo0, Elo1: tc.elo1, Alpha: 0.05, Beta: 0.05}
		got := llrOf(s, tc.counts)
		if math.Abs(got-tc.fishtest) > 1e-9 {
			t.Errorf("%v [%v, %v]: LLR %.12f, fishtest %.12f", tc.counts, tc.elo0, tc.elo1, got, tc.fishtest)
		}
		if testing.Short() && len(tc.counts) == 5 {
			continue
		}
		brute := bruteLLR(s, tc.counts)
		if math.Abs(got-brute) > 1e-6 {
			t.Errorf("%v [%v, %v]: LLR %.12f, brute force %.12f", tc.counts, tc.elo0, tc.elo1, got, brute)
		}
	}
}

// Bounds far outside what an SPRT uses (hundreds of nElo) still give the
// constrained maximum: the fixed-point iteration falls back to stepping
// t from 0.
func TestLLRExtremeBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("brute force")
	}
	for _, tc := range []struct {
		s      SPRT
		counts []int
	}{
		{SPRT{0, 400, 0.05, 0.05}, []int{1, 2, 3, 30, 40}},
		{SPRT{-600, -100, 0.05, 0.05}, []int{20, 8, 10, 3, 1}},
		{SPRT{0, 500, 0.05, 0.05}, []int{5, 10, 60}},
		{SPRT{-300, 300, 0.05, 0.05}, []int{60, 10, 5}},
	} {
		got, brute := llrOf(tc.s, tc.counts), bruteLLR(tc.s, tc.counts)
		if math.IsNaN(got) || math.Abs(got-brute) > 1e-6*math.Max(1, math.Abs(brute)) {
			t.Errorf("%v %+v: LLR %.10f, brute force %.10f", tc.counts, tc.s, got, brute)
		}
	}
}

func TestLLREmpty(t *testing.T) {
	s := SPRT{0, 5, 0.05, 0.05}
	if v := s.LLRPenta(Penta{}); v != 0 {
		t.Errorf("LLRPenta(empty) = %v, want 0", v)
	}
	if v := s.LLRTri(WDL{}); v != 0 {
		t.Errorf("LLRTri(empty) = %v, want 0", v)
	}
}

func TestLLRSign(t *testing.T) {
	s := SPRT{0, 5, 0.05, 0.05}
	for _, tc := range []struct {
		p    Penta
		sign float64
	}{
		{Penta{10, 50, 100, 80, 20}, 1},
		{Penta{0, 0, 10, 30, 10}, 1},
		{Penta{0, 0, 0, 0, 1}, 1},
		{Penta{20, 80, 100, 50, 10}, -1},
		{Penta{1, 0, 0, 0, 0}, -1},
		{Penta{0, 0, 50, 0, 0}, -1}, // exactly even: H0 (nElo 0) fits better
	} {
		if v := s.LLRPenta(tc.p); !(v*tc.sign > 0) {
			t.Errorf("LLRPenta(%v) = %v, want sign %v", tc.p, v, tc.sign)
		}
	}
	for _, tc := range []struct {
		r    WDL
		sign float64
	}{
		{WDL{W: 60, D: 20, L: 40}, 1},
		{WDL{W: 1}, 1},
		{WDL{W: 40, D: 20, L: 60}, -1},
		{WDL{D: 30}, -1},
	} {
		if v := s.LLRTri(tc.r); !(v*tc.sign > 0) {
			t.Errorf("LLRTri(%+v) = %v, want sign %v", tc.r, v, tc.sign)
		}
	}
}

// Mirroring the counts (the base's view of the same games) and the bounds
// (H0: -elo1, H1: -elo0) swaps the hypotheses: the LLR changes sign.
func TestLLRSymmetry(t *testing.T) {
	for _, s := range []SPRT{{0, 5, 0.05, 0.05}, {-1.75, 0.25, 0.05, 0.1}, {1, 3, 0.01, 0.01}} {
		m := SPRT{Elo0: -s.Elo1, Elo1: -s.Elo0, Alpha: s.Beta, Beta: s.Alpha}
		for _, p := range []Penta{{10, 50, 100, 80, 20}, {3, 0, 17, 2, 9}, {0, 0, 0, 0, 4}} {
			q := Penta{p[4], p[3], p[2], p[1], p[0]}
			a, b := s.LLRPenta(p), m.LLRPenta(q)
			if math.Abs(a+b) > 1e-9*math.Max(1, math.Abs(a)) {
				t.Errorf("%+v %v: LLR %v, mirrored %v", s, p, a, b)
			}
		}
		for _, r := range []WDL{{60, 20, 40}, {3, 0, 9}, {0, 7, 0}} {
			q := WDL{W: r.L, D: r.D, L: r.W}
			a, b := s.LLRTri(r), m.LLRTri(q)
			if math.Abs(a+b) > 1e-9*math.Max(1, math.Abs(a)) {
				t.Errorf("%+v %+v: LLR %v, mirrored %v", s, r, a, b)
			}
		}
		// Mirrored bounds swap the Wald bounds with alpha and beta.
		lo, hi := s.Bounds()
		mlo, mhi := m.Bounds()
		if math.Abs(lo+mhi) > 1e-12 || math.Abs(hi+mlo) > 1e-12 {
			t.Errorf("%+v: bounds (%v, %v), mirrored (%v, %v)", s, lo, hi, mlo, mhi)
		}
	}
}

// The GLR depends on the counts only through their proportions and total:
// k times the same counts (none empty) is k times the LLR.
func TestLLRLinear(t *testing.T) {
	s := SPRT{0, 5, 0.05, 0.05}
	p, r := Penta{7, 31, 60, 38, 9}, WDL{W: 33, D: 40, L: 27}
	lp, lr := s.LLRPenta(p), s.LLRTri(r)
	for _, k := range []int{2, 3, 10, 100} {
		var pk Penta
		for i := range p {
			pk[i] = k * p[i]
		}
		rk := WDL{W: k * r.W, D: k * r.D, L: k * r.L}
		if v := s.LLRPenta(pk); math.Abs(v-float64(k)*lp) > 1e-9*math.Abs(v) {
			t.Errorf("LLRPenta(%d x %v) = %v, want %v", k, p, v, float64(k)*lp)
		}
		if v := s.LLRTri(rk); math.Abs(v-float64(k)*lr) > 1e-9*math.Abs(v) {
			t.Errorf("LLRTri(%d x %+v) = %v, want %v", k, r, v, float64(k)*lr)
		}
	}
}

func TestVerdict(t *testing.T) {
	s := SPRT{0, 5, 0.05, 0.05}
	lo, hi := s.Bounds()
	for _, tc := range []struct {
		llr  float64
		want int
	}{
		{0, 0},
		{hi, 1},
		{math.Nextafter(hi, 0), 0},
		{hi + 1, 1},
		{math.Inf(1), 1},
		{lo, -1},
		{math.Nextafter(lo, 0), 0},
		{lo - 1, -1},
		{math.Inf(-1), -1},
		{math.NaN(), 0},
	} {
		if got := s.Verdict(tc.llr); got != tc.want {
			t.Errorf("Verdict(%v) = %d, want %d", tc.llr, got, tc.want)
		}
	}
}

func near(a, b, tol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}

func TestEstimate(t *testing.T) {
	c := 800 / math.Ln10
	// Penta {10, 20, 40, 20, 10}: mean 1/2, pair variance
	// (2*10*(1/4) + 2*20*(1/16))/100 = 0.075.
	// Penta {0, 20, 50, 25, 5}: mean (20/4 + 50/2 + 25*3/4 + 5)/100 =
	// 0.5375, pair variance sum f (a - mu)^2 = 0.04234375.
	mu2, v2 := 0.5375, 0.2*0.2875*0.2875+0.5*0.0375*0.0375+0.25*0.2125*0.2125+0.05*0.4625*0.4625
	se2 := math.Sqrt(v2 / 100)
	// Its games: the 1/4 pairs a draw and a loss each, the 1/2 pairs half
	// a win and a loss, half two draws, the 3/4 pairs a win and a draw.
	skewedGames := WDL{W: 25 + 25 + 10, D: 20 + 50 + 25, L: 20 + 25}
	for _, tc := range []struct {
		name string
		got  Estimate
		want Estimate
	}{
		{"penta even draws", EstimatePenta(Penta{0, 0, 100, 0, 0}, WDL{W: 60, D: 80, L: 60}), Estimate{NElo: math.NaN(), NEloLow: math.NaN(), NEloHigh: math.NaN(), LOS: 0.5, Score: 0.5}},
		{"penta symmetric", EstimatePenta(Penta{10, 20, 40, 20, 10}, WDL{W: 80, D: 40, L: 80}), Estimate{
			EloLow: EloFromScore(0.5 - z95*math.Sqrt(0.075/100)), EloHigh: EloFromScore(0.5 + z95*math.Sqrt(0.075/100)),
			NEloLow: -z95 * c / math.Sqrt(200), NEloHigh: z95 * c / math.Sqrt(200),
			LOS: 0.5, Score: 0.5}},
		{"penta skewed", EstimatePenta(Penta{0, 20, 50, 25, 5}, skewedGames), Estimate{
			Elo: EloFromScore(mu2), EloLow: EloFromScore(mu2 - z95*se2), EloHigh: EloFromScore(mu2 + z95*se2),
			NElo: 0.0375 / math.Sqrt(2*v2) * c, NEloLow: (0.0375 - z95*se2) / math.Sqrt(2*v2) * c,
			NEloHigh: (0.0375 + z95*se2) / math.Sqrt(2*v2) * c,
			LOS:      LOS(skewedGames), Score: mu2}},
		{"penta all won", EstimatePenta(Penta{0, 0, 0, 0, 10}, WDL{W: 20}), Estimate{
			Elo: math.Inf(1), EloLow: EloFromScore(math.Pow(0.025, 1.0/20)), EloHigh: math.Inf(1),
			NElo: math.Inf(1), NEloLow: math.Inf(1), NEloHigh: math.Inf(1), LOS: 1 - 1.0/(1<<21), Score: 1}},
		{"penta empty", EstimatePenta(Penta{}, WDL{}), Estimate{LOS: 0.5, Score: 0.5}},
		// 60 wins, 40 losses: score 0.6, Elo 400 log10(1.5) = 70.437,
		// variance 0.24, nElo 0.1/sqrt(0.24) * 800/ln 10 = 70.920.
		{"tri 60/0/40", EstimateTri(WDL{W: 60, L: 40}), Estimate{
			Elo: 70.43650362448, EloLow: EloDiff(WDL{W: 60, L: 40}).Low, EloHigh: EloDiff(WDL{W: 60, L: 40}).High,
			NElo: 0.1 / math.Sqrt(0.24) * c, NEloLow: (0.1 - z95*math.Sqrt(0.0024)) / math.Sqrt(0.24) * c,
			NEloHigh: (0.1 + z95*math.Sqrt(0.0024)) / math.Sqrt(0.24) * c,
			LOS:      LOS(WDL{W: 60, L: 40}), Score: 0.6}},
		{"tri all lost", EstimateTri(WDL{L: 20}), Estimate{
			Elo: math.Inf(-1), EloLow: math.Inf(-1), EloHigh: EloDiff(WDL{L: 20}).High,
			NElo: math.Inf(-1), NEloLow: math.Inf(-1), NEloHigh: math.Inf(-1), LOS: LOS(WDL{L: 20}), Score: 0}},
		{"tri empty", EstimateTri(WDL{}), Estimate{LOS: 0.5, Score: 0.5}},
	} {
		g, w := tc.got, tc.want
		for _, f := range []struct {
			name      string
			got, want float64
		}{
			{"Elo", g.Elo, w.Elo}, {"EloLow", g.EloLow, w.EloLow}, {"EloHigh", g.EloHigh, w.EloHigh},
			{"NElo", g.NElo, w.NElo}, {"NEloLow", g.NEloLow, w.NEloLow}, {"NEloHigh", g.NEloHigh, w.NEloHigh},
			{"LOS", g.LOS, w.LOS}, {"Score", g.Score, w.Score},
		} {
			if !near(f.got, f.want, 1e-6) {
				t.Errorf("%s: %s = %v, want %v", tc.name, f.name, f.got, f.want)
			}
		}
	}
	// LOS of the estimates is the package's LOS of the games: P(X > 40)
	// for X ~ Binomial(101, 1/2) = 0.97698 for 60-40 (the normal
	// approximation Phi(2.0412) said 0.97939).
	if got := EstimateTri(WDL{W: 60, L: 40}).LOS; math.Abs(got-0.976978) > 1e-6 {
		t.Errorf("LOS 60/0/40 = %v", got)
	}
}

func TestPentaAdd(t *testing.T) {
	var p Penta
	for _, g := range [][2]float64{{0, 0}, {0, 0.5}, {0.5, 0}, {1, 0}, {0.5, 0.5}, {1, 0.5}, {1, 1}} {
		p.Add(g[0], g[1])
	}
	if want := (Penta{1, 2, 2, 1, 1}); p != want {
		t.Errorf("Penta = %v, want %v", p, want)
	}
	if p.Pairs() != 7 || p.Games() != 14 || math.Abs(p.Score()-(0+0.25+0.25+0.5+0.5+0.75+1)/7) > 1e-12 {
		t.Errorf("Pairs %d Games %d Score %v", p.Pairs(), p.Games(), p.Score())
	}
}

// An SPRT on game pairs: is the new bot at least 5 normalized Elo
// stronger (H1) or not stronger at all (H0)? The counts are pairs by the
// new bot's pair score 0, 1/4, 1/2, 3/4, 1.
func ExampleSPRT() {
	test := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if err := test.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	lower, upper := test.Bounds()
	fmt.Printf("bounds %.3f %.3f\n", lower, upper)
	for _, run := range []struct {
		p     Penta
		games WDL // the same games as wins, draws and losses, for LOS
	}{
		{Penta{12, 70, 230, 72, 16}, WDL{W: 334, D: 142, L: 324}},         // too early to tell
		{Penta{120, 680, 2300, 700, 200}, WDL{W: 3400, D: 1380, L: 3220}}, // clearly stronger
		{Penta{210, 700, 2300, 690, 100}, WDL{W: 3190, D: 1390, L: 3420}}, // weaker
	} {
		p := run.p
		llr := test.LLRPenta(p)
		e := EstimatePenta(p, run.games)
		fmt.Printf("%d pairs: LLR %.2f verdict %d, Elo %+.1f [%+.1f, %+.1f], nElo %+.1f, LOS %.3f\n",
			p.Pairs(), llr, test.Verdict(llr), e.Elo, e.EloLow, e.EloHigh, e.NElo, e.LOS)
	}
	// Output:
	// bounds -2.944 2.944
	// 400 pairs: LLR 0.17 verdict 0, Elo +4.3 [-9.2, +17.9], nElo +7.7, LOS 0.652
	// 4000 pairs: LLR 3.68 verdict 1, Elo +7.8 [+3.4, +12.2], nElo +13.6, LOS 0.987
	// 4000 pairs: LLR -6.63 verdict -1, Elo -10.0 [-14.4, -5.6], nElo -17.5, LOS 0.002
}
