package boon

import (
	"math/rand/v2"
	"testing"
)

// playout plays uniformly random legal actions to the end of the game, in
// process, and returns the number of actions.
func playout(seats int, seed uint64, r Rules, rng *rand.Rand, buf []Action) (int, []Action) {
	s := NewState(seats, seed, r)
	for !s.Over() {
		buf = s.AppendLegal(buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			panic(err)
		}
	}
	return s.Ply(), buf
}

func benchPlayout(b *testing.B, seats int) {
	r := DefaultRules()
	rng := rand.New(rand.NewPCG(1, 1))
	buf := make([]Action, 0, 16)
	actions := 0
	var n int
	for i := 0; b.Loop(); i++ {
		n, buf = playout(seats, uint64(i), r, rng, buf)
		actions += n
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "games/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(sec*1e9/float64(actions), "ns/action")
}

// Whole games with uniformly random legal actions, 3 seats.
func BenchmarkRandomPlayout3(b *testing.B) { benchPlayout(b, 3) }

// Whole games with uniformly random legal actions, 4 seats.
func BenchmarkRandomPlayout4(b *testing.B) { benchPlayout(b, 4) }

// One round (deal, pick, bury, all tricks) with random actions, 4 seats,
// from a cloned start position.
func BenchmarkRandomRound4(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	buf := make([]Action, 0, 16)
	start := NewState(4, 7, DefaultRules())
	actions := 0
	logBuf := make([]event, 0, 256)
	for b.Loop() {
		s := *start // plain copy with its own event log; the PCG is shared (fine for a benchmark)
		s.log = append(logBuf[:0], start.log...)
		for s.round == 1 && !s.over {
			buf = s.AppendLegal(buf[:0])
			if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
				panic(err)
			}
			actions++
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "rounds/s")
	b.ReportMetric(sec*1e9/float64(actions), "ns/action")
}

// Game length of uniformly random games with default rules (logged; the
// docs quote it), and no game reaches the rounds cap.
func TestRandomGameLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for seats := 3; seats <= 5; seats++ {
		rounds, maxR := 0, 0
		for i := range 2000 {
			s := NewState(seats, uint64(i), DefaultRules())
			for !s.Over() {
				l := s.AppendLegal(nil)
				if err := s.Play(l[rng.IntN(len(l))]); err != nil {
					t.Fatal(err)
				}
			}
			rounds += s.round
			maxR = max(maxR, s.round)
			if s.round >= s.rules.Rounds {
				t.Errorf("%d seats, seed %d: reached the rounds cap", seats, i)
			}
		}
		t.Logf("%d seats: mean rounds %.2f max %d", seats, float64(rounds)/2000, maxR)
	}
}
