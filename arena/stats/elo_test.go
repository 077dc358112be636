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
	if withDraws.ErrorBar() >= noDraws.ErrorBar() {
		t.Errorf("draws should narrow the interval: %v vs %v", withDraws.ErrorBar(), noDraws.ErrorBar())
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
