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

// converged are the medians over runs of the games the matchmaking (mm)
// and a round robin (rr) need before the standings' Spearman correlation
// with the true order settles at 0.9 or more, and of the games after
// which it first reaches 0.9 (mmFirst, rrFirst).
type converged struct{ mm, rr, mmFirst, rrFirst int }

// convergenceRuns measures converged for tables of k seats in the field
// of the given copies, each side given the same budget of games.
func convergenceRuns(tb testing.TB, k, copies, runs, budget int) converged {
	p := matchmaking.Params{Seats: matchmaking.Seats{Min: k, Max: k}}
	var a, b, af, bf []int
	for r := range runs {
		seed := uint64(1000 + r)
		s := newSim(field(copies), seed, matchmaking.DefaultPlacementSigma)
		m, err := matchmaking.New(p, seed)
		if err != nil {
			tb.Fatal(err)
		}
		a = append(a, s.convergence(budget, 0.9, func() bool {
			_, ok := s.step(nil, m)
			return ok
		}))
		af = append(af, s.reached)
		s = newSim(field(copies), seed, matchmaking.DefaultPlacementSigma)
		b = append(b, s.convergence(budget, 0.9, s.roundRobin(k)))
		bf = append(bf, s.reached)
	}
	return converged{median(a), median(b), median(af), median(bf)}
}

func median(x []int) int {
	slices.Sort(x)
	return x[len(x)/2]
}

// BenchmarkConvergence reports, for 2- and 4-seat tables, the games to
// a Spearman correlation of 0.9 with the true order (median of runs) for
// the matchmaking and for a round robin of the same budget, and their
// ratio (the goal: at most 0.6); and the games after which each
// first reached 0.9.
func BenchmarkConvergence(b *testing.B) {
	runs := testkit.Pick(15, 201)
	for _, copies := range []int{3, 6} {
		for _, k := range []int{2, 4} {
			b.Run(fmt.Sprintf("bots=%d/seats=%d", 5*copies, k), func(b *testing.B) {
				var c converged
				for b.Loop() {
					c = convergenceRuns(b, k, copies, runs, 100*copies*copies)
				}
				b.ReportMetric(float64(c.mm), "mm-games")
				b.ReportMetric(float64(c.rr), "rr-games")
				b.ReportMetric(float64(c.mm)/float64(c.rr), "mm/rr")
				b.ReportMetric(float64(c.mmFirst), "mm-first")
				b.ReportMetric(float64(c.rrFirst), "rr-first")
			})
		}
	}
}

// fairness plays tables of k seats in a field of 24 placed bots that a
// newcomer joins every 100 tables, and returns the largest gap a bot
// available throughout waited (and its bound G, the default), the
// largest seat-count spread of a bot, and the mean games a newcomer
// played before it was placed. With cut, every unit stops after its
// first game (no rotation: the first seat order alone balances seats).
func fairness(tb testing.TB, k, tables int, cut bool) (gap, bound int64, seatSpread int, placement float64) {
	const n = 24
	truth := spread(n + tables/100)
	s := newSim(truth[:n], 42, matchmaking.DefaultPlacementSigma)
	s.truth, s.cut = truth, cut
	m, err := matchmaking.New(matchmaking.Params{Seats: matchmaking.Seats{Min: k, Max: k}}, 42)
	if err != nil {
		tb.Fatal(err)
	}
	joined := 0
	for t := range tables {
		if t > 0 && t%100 == 0 {
			s.join(n + joined)
			joined++
		}
		s.step(nil, m)
	}
	var placed, games int
	for i := n; i < len(s.bots); i++ {
		if s.placedAt[i] >= 0 {
			placed++
			games += s.placedAt[i]
		}
	}
	bound = int64(3 * ((len(s.bots) + k - 1) / k))
	return s.maxGap, bound, s.seatSpread(k), float64(games) / float64(max(placed, 1))
}

// BenchmarkFairness reports, over a long run with newcomers arriving,
// the largest gap between two tables of a bot (and the bound), the
// largest seat spread of a bot (units played whole, and cut to their
// first game), and the placement games per newcomer.
func BenchmarkFairness(b *testing.B) {
	for _, k := range []int{2, 4} {
		b.Run(fmt.Sprintf("seats=%d", k), func(b *testing.B) {
			var gap, bound int64
			var sp, spCut int
			var pl float64
			tables := testkit.Pick(5000, 50000)
			for b.Loop() {
				gap, bound, sp, pl = fairness(b, k, tables, false)
				_, _, spCut, _ = fairness(b, k, tables, true)
			}
			b.ReportMetric(float64(gap), "max-gap")
			b.ReportMetric(float64(bound), "gap-bound")
			b.ReportMetric(float64(sp), "seat-spread")
			b.ReportMetric(float64(spCut), "seat-spread-first-games")
			b.ReportMetric(pl, "placement-games")
		})
	}
}
