package matchmaking_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkNext is the cost of one choice in a placed field of n bots
// (ratings spread, a tenth of them busy).
func BenchmarkNext(b *testing.B) {
	for _, n := range []int{100, 1000} {
		for _, seats := range []matchmaking.Seats{{Min: 2, Max: 2}, {Min: 4, Max: 4}} {
			b.Run(fmt.Sprintf("bots=%d/seats=%d", n, seats.Max), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				bots := make([]matchmaking.Bot, n)
				for i := range bots {
					bots[i] = matchmaking.Bot{
						ID:        i,
						Skill:     stats.Skill{Mu: 25 + 10*rng.NormFloat64(), Sigma: 1 + 3*rng.Float64()},
						Last:      int64(10*n - rng.IntN(n)),
						Seats:     []int{10, 10, 10, 10},
						Available: true,
						InPlay:    min(1, rng.IntN(10)/9),
					}
				}
				mm, err := matchmaking.New(matchmaking.Params{Seats: seats, MaxGap: 4 * n}, 1)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				seq := int64(10 * n)
				for b.Loop() {
					t, ok := mm.Next(seq, bots)
					if !ok {
						b.Fatal("no table")
					}
					for _, id := range t.Bots {
						bots[id].Last = seq
					}
					seq++
				}
			})
		}
	}
}

// convergenceRuns measures, for tables of k seats, the median over runs
// of the games the matchmaking and a round robin need before the
// standings' Spearman correlation with the true order settles at 0.9 or
// more, each given the same budget of games.
func convergenceRuns(tb testing.TB, k, runs, budget int) (mm, rr int) {
	var a, b []int
	for r := range runs {
		seed := uint64(1000 + r)
		s := newSim(field(3), seed, matchmaking.DefaultPlacementSigma)
		m, err := matchmaking.New(matchmaking.Params{Seats: matchmaking.Seats{Min: k, Max: k}}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		a = append(a, s.convergence(budget, 0.9, func() bool {
			_, ok := s.step(nil, m)
			return ok
		}))
		s = newSim(field(3), seed, matchmaking.DefaultPlacementSigma)
		b = append(b, s.convergence(budget, 0.9, s.roundRobin(k)))
	}
	slices.Sort(a)
	slices.Sort(b)
	return a[len(a)/2], b[len(b)/2]
}

// BenchmarkConvergence reports, for 2- and 4-seat tables, the games to
// a Spearman correlation of 0.9 with the true order (median of runs) for
// the matchmaking and for a round robin of the same budget, and their
// ratio (the goal: at most 0.6).
func BenchmarkConvergence(b *testing.B) {
	runs := testkit.Pick(9, 31)
	for _, k := range []int{2, 4} {
		b.Run(fmt.Sprintf("seats=%d", k), func(b *testing.B) {
			var mm, rr int
			for b.Loop() {
				mm, rr = convergenceRuns(b, k, runs, 3000)
			}
			b.ReportMetric(float64(mm), "mm-games")
			b.ReportMetric(float64(rr), "rr-games")
			b.ReportMetric(float64(mm)/float64(rr), "mm/rr")
		})
	}
}
