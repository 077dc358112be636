package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// exactLOS is P(X > L) for X ~ Binomial(W+L+1, 1/2) in exact rational
// arithmetic: the count of the subsets of W+L+1 that have more than L
// members, over 2^(W+L+1), written out independently of LOS.
func exactLOS(w, l int) float64 {
	m := int64(w + l + 1)
	num := new(big.Int)
	c := new(big.Int).Binomial(m, int64(l+1))
	for j := int64(l + 1); j <= m; j++ {
		num.Add(num, c)
		c.Mul(c, big.NewInt(m-j)).Quo(c, big.NewInt(j+1)) // C(m, j+1)
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(m))
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

// LOS is P(p > 1/2) for p ~ Beta(W+1, L+1), draws left out. The normal
// approximation LOS used before (fastchess's Phi((mu - 1/2)/SE)) gave
// 1.2e-05 for 1-9 and 1 for 10-0.
func TestLOS(t *testing.T) {
	cases := []struct {
		name string
		r    WDL
		want float64
	}{
		{"1-9", WDL{W: 1, L: 9}, 12.0 / 2048}, // 0.0059
		{"10-0", WDL{W: 10}, 2047.0 / 2048},   // 0.9995
		{"0-10", WDL{L: 10}, 1.0 / 2048},      // 0.00049
		{"draws do not count", WDL{W: 1, D: 50, L: 9}, 12.0 / 2048},
		{"10-0 with draws", WDL{W: 10, D: 3}, 2047.0 / 2048},
		{"1-0", WDL{W: 1}, 3.0 / 4},
		{"2-0", WDL{W: 2}, 7.0 / 8},
		{"2-1", WDL{W: 2, L: 1}, 11.0 / 16},
		{"even", WDL{W: 30, D: 10, L: 30}, 0.5},
		{"1-1", WDL{W: 1, L: 1}, 0.5},
		{"only draws", WDL{D: 10}, 0.5},
		{"no games", WDL{}, 0.5},
		{"negative counts are none", WDL{W: -3, D: -1, L: -2}, 0.5},
	}
	for _, tc := range cases {
		if got := LOS(tc.r); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: LOS(%+v) = %.6g, want %.6g", tc.name, tc.r, got, tc.want)
		}
	}
	// The figures the documentation quotes.
	for _, tc := range []struct {
		r    WDL
		want string
	}{{WDL{W: 1, L: 9}, "0.0059"}, {WDL{W: 10}, "0.9995"}} {
		if got := big.NewFloat(LOS(tc.r)).Text('f', 4); got != tc.want {
			t.Errorf("LOS(%+v) = %s, want %s", tc.r, got, tc.want)
		}
	}
}

// LOS is the exact sum for any counts, to a relative error of about
// 1e-15 per game (Lgamma's rounding), relative to the smaller of LOS and
// 1 - LOS (the tail it sums): against the sum in rational arithmetic.
func TestLOSExactSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(w, l int) {
		got, want := LOS(WDL{W: w, L: l}), exactLOS(w, l)
		tail, gotTail := want, got
		if want > 0.5 {
			tail, gotTail = 1-want, 1-got
		}
		if tol := 4e-15 * float64(w+l+1) * tail; math.Abs(gotTail-tail) > tol+4e-16 {
			t.Errorf("LOS(%d-%d) = %.17g, want %.17g", w, l, got, want)
		}
	}
	for w := range 30 {
		for l := range 30 {
			check(w, l)
		}
	}
	for range 200 {
		w := rng.IntN(600)
		check(w, max(0, w+rng.IntN(81)-40)) // near even, where the sum is longest
	}
}

// Where the games are many, LOS is what the normal approximation of the
// same posterior says, Phi((W-L)/sqrt(W+L)) (cutechess's LOS): the two
// agree to well within a display's 0.1%, and LOS stays exact and cheap
// at any count.
func TestLOSLargeCounts(t *testing.T) {
	for _, r := range []WDL{
		{W: 5100, D: 300, L: 4900}, {W: 50200, L: 49800}, {W: 500_000, L: 499_000},
		{W: 5_000_000, L: 5_001_000}, {W: 3000, L: 3000},
	} {
		w, l := float64(r.W), float64(r.L)
		got, approx := LOS(r), phi((w-l)/math.Sqrt(w+l))
		if math.Abs(got-approx) > 5e-4 {
			t.Errorf("LOS(%+v) = %.6f, the normal approximation %.6f", r, got, approx)
		}
	}
	// One-sided beyond what a float can tell from 0 or 1: no NaN.
	if got := LOS(WDL{W: 10_000}); got != 1 {
		t.Errorf("LOS(10000-0) = %v, want 1 (to rounding)", got)
	}
	if got := LOS(WDL{L: 10_000}); got != 0 {
		t.Errorf("LOS(0-10000) = %v, want 0 (to rounding)", got)
	}
}

// One LOS for every estimate: unpaired (EstimateTri) and paired
// (EstimatePenta, from the pairs' games) report LOS of the games' record,
// and a match with no decisive result (or only even pairs) has LOS 1/2
// and an undefined (NaN) normalized Elo, paired or not.
func TestLOSEstimatesAgree(t *testing.T) {
	for _, r := range []WDL{{60, 0, 40}, {3, 10, 1}, {0, 5, 2}, {7, 0, 0}, {0, 9, 0}} {
		if a, b := EstimateTri(r).LOS, LOS(r); a != b {
			t.Errorf("%+v: EstimateTri LOS %v, LOS %v", r, a, b)
		}
	}
	// 5 pairs all won: the games are 10-0, whatever the pairs' variance.
	if got := EstimatePenta(Penta{0, 0, 0, 0, 5}, WDL{W: 10}).LOS; got != 2047.0/2048 {
		t.Errorf("5 pairs won: LOS %v, want 2047/2048", got)
	}
	for _, e := range []Estimate{EstimateTri(WDL{D: 12}), EstimatePenta(Penta{0, 0, 6, 0, 0}, WDL{W: 3, D: 6, L: 3})} {
		if e.LOS != 0.5 || !math.IsNaN(e.NElo) || !math.IsNaN(e.NEloLow) || !math.IsNaN(e.NEloHigh) || e.Elo != 0 {
			t.Errorf("no decisive result: %+v, want LOS 1/2, Elo 0, nElo NaN", e)
		}
	}
}

func TestFormatLOS(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{
		{0.978, "97.8%"},
		{0.5, "50.0%"},
		{LOS(WDL{W: 10}), "99.95%"},
		{LOS(WDL{W: 1, L: 9}), "0.6%"},
		{LOS(WDL{L: 10}), "0.05%"},
		{LOS(WDL{W: 14}), "99.997%"},
		{LOS(WDL{W: 20}), ">99.9999%"},
		{LOS(WDL{L: 20}), "<0.0001%"},
		{1, ">99.9999%"},
		{0, "<0.0001%"},
		{math.NaN(), "-"},
	} {
		if got := FormatLOS(tc.p); got != tc.want {
			t.Errorf("FormatLOS(%v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
