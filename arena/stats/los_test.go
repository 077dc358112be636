package stats

import (
	"math"
	"testing"
)

// Reference values are Phi(z) for z = (W-L)/sqrt(W+L), taken from a standard
// normal table (Phi(1) = 0.841345, Phi(2) = 0.977250, Phi(3) = 0.998650,
// Phi(0.5) = 0.691462).
func TestLOS(t *testing.T) {
	cases := []struct {
		name string
		r    WDL
		want float64
	}{
		{"60-40 is z=2", WDL{W: 60, L: 40}, 0.977250},
		{"draws ignored", WDL{W: 60, D: 500, L: 40}, 0.977250},
		{"40-60 mirrors", WDL{W: 40, L: 60}, 1 - 0.977250},
		{"55-45 is z=1", WDL{W: 55, D: 7, L: 45}, 0.841345},
		{"z=3", WDL{W: 27, L: 9}, 0.998650},
		{"z=0.5", WDL{W: 9, L: 7}, 0.691462},
		{"even", WDL{W: 30, D: 10, L: 30}, 0.5},
		{"only draws", WDL{D: 10}, 0.5},
		{"no games", WDL{}, 0.5},
	}
	for _, tc := range cases {
		if got := LOS(tc.r); math.Abs(got-tc.want) > 5e-6 {
			t.Errorf("%s: LOS(%+v) = %.6f, want %.6f", tc.name, tc.r, got, tc.want)
		}
	}
}
