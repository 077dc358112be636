package banqi

import (
	"math/rand/v2"
	"testing"
)

// playout plays uniformly random legal actions to the end, in process,
// and returns the number of plies.
func playout(seed uint64, r Rules, rng *rand.Rand, buf []Action) (int, []Action) {
	s := NewState(seed, r)
	for !s.Over() {
		buf = s.AppendLegal(buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			panic(err)
		}
	}
	return s.Ply(), buf
}

func BenchmarkRandomPlayout(b *testing.B) {
	r := DefaultRules()
	rng := rand.New(rand.NewPCG(1, 1))
	buf := make([]Action, 0, 128)
	plies := 0
	var n int
	for i := 0; b.Loop(); i++ {
		n, buf = playout(uint64(i), r, rng, buf)
		plies += n
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "games/s")
	b.ReportMetric(float64(plies)/sec, "plies/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}
