package sprt_test

import (
	"math"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/bots"
)

// TestIdenticalBotsRarelyAcceptH1: two identical bots (both uniformly
// random) play many in-process SPRTs with 4-seat Uno pairs and fillers, and
// with independent games; H1 (the test bot is better) must be accepted at
// most about as often as alpha allows. With 200 runs per scheme and
// alpha 5%, the expected count is at most 10; the test allows 3 binomial
// standard deviations above that, so a correct SPRT fails it with a
// probability below 0.2%, while an SPRT whose error rate were doubled
// would fail it most of the time.
func TestIdenticalBotsRarelyAcceptH1(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of simulated SPRTs")
	}
	start := time.Now()
	same := setup{name: "identical", game: "uno", seats: 4,
		options: map[string]string{"scoring": "single_hand", "voluntary_draw": "false"},
		greedy:  bots.GreedyUno, qTest: 0, qBase: 0}
	test := stats.SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}
	const runs = 200
	sum := measure(t, same, test, runs, 3000, 1_000_000_000) // deals apart from the other tests'
	limit := int(runs*test.Alpha + 3*math.Sqrt(runs*test.Alpha*(1-test.Alpha)))
	for sc := range nSchemes {
		x := sum[sc]
		t.Logf("%s: H1 %d, H0 %d, capped %d of %d runs, mean %.0f games (limit for H1: %d)",
			schemeNames[sc], x.h1, x.h0, x.capped, x.runs, x.mean(), limit)
		if x.h1 > limit {
			t.Errorf("%s: identical bots accepted H1 in %d of %d runs; alpha %.2f allows about %d",
				schemeNames[sc], x.h1, x.runs, test.Alpha, int(runs*test.Alpha))
		}
		if x.h0 < runs/2 {
			t.Errorf("%s: H0 accepted in only %d of %d runs", schemeNames[sc], x.h0, x.runs)
		}
	}
	t.Logf("took %v", time.Since(start).Round(time.Millisecond))
}
