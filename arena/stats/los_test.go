package stats

import (
	"math"
	"testing"
)

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// LOS is Phi((mu - 1/2)/SE) with the trinomial SE. In counts, mu - 1/2 =
// (W-L)/(2n) and n var = (W+L)/4 - (W-L)^2/(4n), so the z-value is
// (W-L)/sqrt(W+L - (W-L)^2/n): written that way here, independently of the
// mean-and-variance form the code uses. (cutechess's z, (W-L)/sqrt(W+L),
// drops the last term.)
func TestLOS(t *testing.T) {
	z := func(r WDL) float64 {
		w, l, n := float64(r.W), float64(r.L), float64(r.Games())
		return (w - l) / math.Sqrt(w+l-(w-l)*(w-l)/n)
	}
	cases := []struct {
		name string
		r    WDL
		want float64
	}{
		{"60-40", WDL{W: 60, L: 40}, phi(z(WDL{W: 60, L: 40}))},
		{"draws count", WDL{W: 60, D: 500, L: 40}, phi(z(WDL{W: 60, D: 500, L: 40}))},
		{"40-60 mirrors", WDL{W: 40, L: 60}, 1 - phi(z(WDL{W: 60, L: 40}))},
		{"55-7-45", WDL{W: 55, D: 7, L: 45}, phi(z(WDL{W: 55, D: 7, L: 45}))},
		{"27-9", WDL{W: 27, L: 9}, phi(z(WDL{W: 27, L: 9}))},
		{"even", WDL{W: 30, D: 10, L: 30}, 0.5},
		// Where SE is 0: the conventions.
		{"only wins", WDL{W: 3}, 1},
		{"only losses", WDL{L: 3}, 0},
		{"only draws", WDL{D: 10}, 0.5},
		{"no games", WDL{}, 0.5},
	}
	for _, tc := range cases {
		if got := LOS(tc.r); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: LOS(%+v) = %.6f, want %.6f", tc.name, tc.r, got, tc.want)
		}
	}
	// 60-40 by hand: z = 20/sqrt(100 - 4) = 2.0412, Phi = 0.97939 (the
	// draw-blind Phi(2) would be 0.97725).
	if got := LOS(WDL{W: 60, L: 40}); math.Abs(got-0.97939) > 5e-6 {
		t.Errorf("60-40: %.6f, want 0.97939", got)
	}
}

// One convention for every estimate: unpaired (EstimateTri), paired
// (EstimatePenta) and a bare W/D/L (LOS) report LOS as Phi((mu - 1/2)/SE)
// with the variance of their own units, and a match with no decisive game
// (or only even pairs) has LOS 1/2 and an undefined (NaN) normalized Elo,
// paired or not.
func TestLOSConventionsAgree(t *testing.T) {
	for _, r := range []WDL{{60, 0, 40}, {3, 10, 1}, {0, 5, 2}, {7, 0, 0}, {0, 9, 0}} {
		if a, b := EstimateTri(r).LOS, LOS(r); a != b {
			t.Errorf("%+v: EstimateTri LOS %v, LOS %v", r, a, b)
		}
	}
	// Pairs 1/4, 1/2, 3/4 with counts 2, 5, 3: mu = (0.5 + 2.5 + 2.25)/10
	// = 0.525, pair variance = (2*0.275^2 + 5*0.025^2 + 3*0.225^2)/10.
	p := Penta{0, 2, 5, 3, 0}
	mu, v := 0.525, (2*0.275*0.275+5*0.025*0.025+3*0.225*0.225)/10
	if got, want := EstimatePenta(p).LOS, phi((mu-0.5)/math.Sqrt(v/10)); math.Abs(got-want) > 1e-12 {
		t.Errorf("penta %v: LOS %v, want %v", p, got, want)
	}
	for _, e := range []Estimate{EstimateTri(WDL{D: 12}), EstimatePenta(Penta{0, 0, 6, 0, 0})} {
		if e.LOS != 0.5 || !math.IsNaN(e.NElo) || !math.IsNaN(e.NEloLow) || !math.IsNaN(e.NEloHigh) || e.Elo != 0 {
			t.Errorf("no decisive result: %+v, want LOS 1/2, Elo 0, nElo NaN", e)
		}
	}
}
