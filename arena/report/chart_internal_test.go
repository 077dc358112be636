package report

import (
	"fmt"
	"testing"
)

// TestTickLabels: an axis's ticks are round multiples of their step,
// zero written "0" whether the range starts just below it (the first
// multiple a negative zero) or sums of steps would miss it by a rounding
// error.
func TestTickLabels(t *testing.T) {
	tests := []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{-3.3, 16.7, 6, "[0 5 10 15]"},
		{-0.7, 0.5, 6, "[-0.6 -0.4 -0.2 0 0.2 0.4]"},
		{-2.94, 2.94, 6, "[-2 -1 0 1 2]"},
		{0, 12, 8, "[0 2 4 6 8 10 12]"},
	}
	for _, tc := range tests {
		var labels []string
		for _, tick := range ticks(tc.lo, tc.hi, tc.n) {
			labels = append(labels, tickLabel(tick))
		}
		if got := fmt.Sprint(labels); got != tc.want {
			t.Errorf("ticks(%v, %v, %d) = %s, want %s", tc.lo, tc.hi, tc.n, got, tc.want)
		}
	}
}
