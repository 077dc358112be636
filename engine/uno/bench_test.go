package uno

import (
	"math/rand/v2"
	"testing"
)

// rlcardLike is the rule set closest to RLCard's simplified Uno, the
// baseline the issue compares with: one hand, forced play (draw only when
// nothing plays), no call, Wild Draw Four only when honest.
func rlcardLike() Rules {
	r := DefaultRules()
	r.Target = 0
	r.VoluntaryDraw = false
	r.UnoCall = CallOff
	r.Enforce = true
	return r
}

// playout plays uniformly random legal actions to the end, in process,
// reusing s (Reset), and returns the number of actions.
func playout(s *State, seed uint64, rng *rand.Rand, buf []Action) (int, []Action) {
	s.Reset(seed)
	for !s.over {
		buf = s.AppendLegal(buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			panic(err)
		}
	}
	return s.ply, buf
}

func benchPlayout(b *testing.B, seats int, r Rules) {
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 1))
	buf := make([]Action, 0, 512)
	moves := 0
	var n int
	s := NewState(seats, 0, r)
	for i := 0; b.Loop(); i++ {
		n, buf = playout(s, uint64(i), rng, buf)
		moves += n
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "games/s")
	b.ReportMetric(sec*1e9/float64(moves), "ns/move")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// Single hands (target=0) under the RLCard-like rules: the comparison
// with RLCard's ~3,800 games/s (2 players, ~47 moves a game).
func BenchmarkRandomPlayout2(b *testing.B) { benchPlayout(b, 2, rlcardLike()) }
func BenchmarkRandomPlayout4(b *testing.B) { benchPlayout(b, 4, rlcardLike()) }

// Single hands under the official defaults: uniformly random choices draw
// voluntarily and forget the call half the time, so hands run long.
func BenchmarkRandomPlayoutOfficial2(b *testing.B) {
	r := DefaultRules()
	r.Target = 0
	benchPlayout(b, 2, r)
}

func BenchmarkRandomPlayoutOfficial4(b *testing.B) {
	r := DefaultRules()
	r.Target = 0
	benchPlayout(b, 4, r)
}

// A full game to 500 points, 4 seats, RLCard-like choices of rules but
// official scoring.
func BenchmarkFullGame4(b *testing.B) {
	r := rlcardLike()
	r.Target = 500
	benchPlayout(b, 4, r)
}
