package stats

import (
	"math"
	"testing"
)

func TestEloDiff(t *testing.T) {
	cases := []struct {
		name           string
		r              WDL
		diff, errorBar float64 // errorBar 0: not checked
	}{
		// 75%: -400*log10(1/0.75-1) = 190.85
		{"three quarters", WDL{W: 75, L: 25}, 190.85, 0},
		{"even", WDL{W: 10, D: 20, L: 10}, 0, 0},
		{"losing", WDL{W: 25, L: 75}, -190.85, 0},
	}
	for _, tc := range cases {
		e := EloDiff(tc.r)
		if !e.Valid || math.Abs(e.Diff-tc.diff) > 0.01 {
			t.Errorf("%s: %+v, want diff %.2f", tc.name, e, tc.diff)
		}
		if !(e.Low < e.Diff && e.Diff < e.High) {
			t.Errorf("%s: interval [%v, %v] does not hold %v", tc.name, e.Low, e.High, e.Diff)
		}
	}
}

// The interval width follows the trinomial variance: for 100 games at
// w=.75 l=.25 the score's standard error is sqrt(.75*.25/100) = 0.0433, so
// the score interval is 0.75 +/- 0.0849 and the Elo interval is the
// logistic transform of its ends.
func TestEloIntervalMatchesHandComputation(t *testing.T) {
	e := EloDiff(WDL{W: 75, L: 25})
	se := math.Sqrt(0.75 * 0.25 / 100)
	lo := -400 * math.Log10(1/(0.75-1.959963984540054*se)-1)
	hi := -400 * math.Log10(1/(0.75+1.959963984540054*se)-1)
	if math.Abs(e.Low-lo) > 1e-6 || math.Abs(e.High-hi) > 1e-6 {
		t.Fatalf("interval [%v, %v], want [%v, %v]", e.Low, e.High, lo, hi)
	}
	// Draws shrink the variance compared with the same score from wins and
	// losses only.
	withDraws := EloDiff(WDL{W: 50, D: 50})
	noDraws := EloDiff(WDL{W: 75, L: 25})
	if withDraws.High-withDraws.Low >= noDraws.High-noDraws.Low {
		t.Errorf("draws should narrow the interval: %+v vs %+v", withDraws, noDraws)
	}
}

func TestEloOneSided(t *testing.T) {
	all := EloDiff(WDL{W: 20})
	if all.Valid || !math.IsInf(all.Diff, 1) {
		t.Fatalf("all wins: %+v", all)
	}
	// 0.025^(1/20) = 0.83156 -> -400*log10(1/0.83156-1) = 277.39
	if math.Abs(all.Low-277.39) > 0.01 {
		t.Errorf("all 20 won: lower bound %v, want about 277.39", all.Low)
	}
	none := EloDiff(WDL{L: 20})
	if math.Abs(none.High+all.Low) > 1e-9 || !math.IsInf(none.Diff, -1) {
		t.Errorf("all lost should mirror all won: %+v vs %+v", none, all)
	}
	if e := EloDiff(WDL{}); e.Valid || e.Diff != 0 {
		t.Errorf("no games: %+v", e)
	}
}

// When the normal interval of the score passes 0 or 1 the data do not
// bound the Elo difference on that side: the end is infinite, and the
// other end is the transform of the score interval's end. A 10-game match
// won 9-1 (greedy vs random at Uno) has score 0.9 +/- 1.96*0.0949, i.e.
// [0.714, 1.086]: at least +159.0 Elo, no upper bound. (Clamping the score
// to 1 - 1e-9 made the upper end +3600 and the match print +381.7 +/-
// 1720.5.)
func TestEloIntervalOpenEnds(t *testing.T) {
	elo := func(p float64) float64 { return 400 * math.Log10(p/(1-p)) }
	cases := []struct {
		name   string
		r      WDL
		lo, hi float64 // +/-Inf: open
	}{
		{"9-1", WDL{W: 9, L: 1}, elo(0.9 - 1.959963984540054*math.Sqrt(0.9*0.1/10)), math.Inf(1)},
		{"1-9", WDL{W: 1, L: 9}, math.Inf(-1), elo(0.1 + 1.959963984540054*math.Sqrt(0.9*0.1/10))},
		{"1-1", WDL{W: 1, L: 1}, math.Inf(-1), math.Inf(1)},
		{"8-1-1", WDL{W: 8, D: 1, L: 1}, elo(0.85 - 1.959963984540054*math.Sqrt((0.8*0.15*0.15+0.1*0.35*0.35+0.1*0.85*0.85)/10)), math.Inf(1)},
	}
	for _, tc := range cases {
		e := EloDiff(tc.r)
		if !e.Valid || math.Abs(e.Diff-elo(tc.r.Score())) > 1e-9 {
			t.Errorf("%s: %+v, want Diff %v", tc.name, e, elo(tc.r.Score()))
		}
		if !near(e.Low, tc.lo, 1e-9) || !near(e.High, tc.hi, 1e-9) {
			t.Errorf("%s: interval [%v, %v], want [%v, %v]", tc.name, e.Low, e.High, tc.lo, tc.hi)
		}
	}
	if lo := EloDiff(WDL{W: 9, L: 1}).Low; math.Abs(lo-159.0) > 0.1 {
		t.Errorf("9-1: lower end %.2f, want about +159.0", lo)
	}
	// The same for the SPRT's estimates: pairs 3/4 and 1 only, mean 0.95.
	p := Penta{0, 0, 0, 1, 4}
	v := (0.2*0.2*0.2 + 0.8*0.05*0.05) // pair-score variance about 0.95
	e := EstimatePenta(p, WDL{W: 9, D: 1})
	if want := elo(0.95 - 1.959963984540054*math.Sqrt(v/5)); !near(e.EloLow, want, 1e-9) || !math.IsInf(e.EloHigh, 1) {
		t.Errorf("penta %v: Elo interval [%v, %v], want [%v, +Inf]", p, e.EloLow, e.EloHigh, want)
	}
	// And scores outside (0, 1) map to the infinite ends, never NaN.
	for _, tc := range []struct{ p, want float64 }{{0, math.Inf(-1)}, {-0.1, math.Inf(-1)}, {1, math.Inf(1)}, {1.2, math.Inf(1)}} {
		if got := EloFromScore(tc.p); got != tc.want {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
}
