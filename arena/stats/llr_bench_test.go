package stats

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkLLRUpdate times one LLR evaluation (what an SPRT does after
// every pair) in ordinary and lopsided states, and reports how many times
// faster it is than the earlier fixed-point solver (llr_legacy_test.go),
// timed in the same run: x_faster. It asserts no time.
func BenchmarkLLRUpdate(b *testing.B) {
	for _, tc := range []struct {
		s      SPRT
		counts []int
	}{
		{SPRT{0, 5, 0.05, 0.05}, []int{12, 70, 230, 72, 16}},
		{SPRT{-1.75, 0.25, 0.05, 0.05}, []int{120, 680, 2300, 700, 200}},
		{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 0, 0, 16}},
		{SPRT{-1.75, 0.25, 0.05, 0.05}, []int{0, 0, 0, 0, 16}},
		{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 0, 0, 5550}},
		{SPRT{0, 2, 0.05, 0.05}, []int{0, 0, 0, 1, 3000}},
		{SPRT{0, 5, 0.05, 0.05}, []int{300, 400, 300}},
		{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 16}},
	} {
		scores := pentaScores
		t0, t1 := refT(tc.s, len(tc.counts))
		if len(tc.counts) == 3 {
			scores = triScores
		}
		b.Run(fmt.Sprintf("%v_%g_%g", tc.counts, tc.s.Elo0, tc.s.Elo1), func(b *testing.B) {
			// The baseline: enough legacy calls for a stable mean, at
			// least 20 ms of them.
			start, calls := time.Now(), 0
			for calls < 5 || time.Since(start) < 20*time.Millisecond {
				legacyLLRTValue(scores, tc.counts, t0, t1)
				calls++
			}
			legacy := float64(time.Since(start).Nanoseconds()) / float64(calls)
			b.ResetTimer()
			for b.Loop() {
				llrTValue(scores, tc.counts, t0, t1)
			}
			perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(legacy/1e3, "legacy_us/op")
			b.ReportMetric(legacy/perOp, "x_faster")
		})
	}
}
