package uno

import (
	"math/bits"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
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
// reusing s (Reset), and returns the number of actions. It is the loop a
// user writes for fast playouts: a concrete *rand.PCG, whose Uint64
// inlines (a rand.Rand calls its Source through an interface), an index
// drawn by RandIndex, PlayListed (the listed action played in place, not
// copied out), and no random number for a decision with a single
// legal action (more than half of them in a 2-seat hand under forced
// play, mostly the draw with nothing to play). playoutIntN is the loop
// before it, for comparison against the same engine.
func playout(s *State, seed uint64, pcg *rand.PCG, buf []Action) (int, []Action) {
	s.Reset(seed)
	for !s.over {
		buf = s.AppendLegal(buf[:0])
		k := 0
		if len(buf) > 1 {
			k = RandIndex(pcg, len(buf))
		}
		if err := s.PlayListed(&buf[k]); err != nil {
			panic(err)
		}
	}
	return s.ply, buf
}

// playoutIntN is playout with the index from rand.Rand's IntN: the loop
// of the benchmarks before RandIndex.
func playoutIntN(s *State, seed uint64, rng *rand.Rand, buf []Action) (int, []Action) {
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
	pcg := rand.NewPCG(1, 1)
	benchLoop(b, seats, r, func(s *State, seed uint64, buf []Action) (int, []Action) {
		return playout(s, seed, pcg, buf)
	})
}

func benchLoop(b *testing.B, seats int, r Rules, play func(*State, uint64, []Action) (int, []Action)) {
	b.ReportAllocs()
	buf := make([]Action, 0, 512)
	moves := 0
	var n int
	s := NewState(seats, 0, r)
	for i := 0; b.Loop(); i++ {
		n, buf = play(s, uint64(i), buf)
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

// BenchmarkRandomPlayout2 with the loop before RandIndex (rand.Rand's
// IntN and Play(l[k])), to tell the loop's share of a change from the
// engine's.
func BenchmarkRandomPlayout2IntN(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	benchLoop(b, 2, rlcardLike(), func(s *State, seed uint64, buf []Action) (int, []Action) {
		return playoutIntN(s, seed, rng, buf)
	})
}

// loopChunk is the games BenchmarkPlayoutLoops plays with one loop before
// it switches to the other.
const loopChunk = 64

// BenchmarkPlayoutLoops plays the games of BenchmarkRandomPlayout2 with
// the old loop (playoutIntN) and the new one (playout) in alternating
// chunks on the same engine, and reports each loop's games per second of
// the thread's CPU time and the ratio new/old. CPU time, not wall time:
// on a loaded machine a chunk's wall time is mostly the time other
// processes ran.
func BenchmarkPlayoutLoops(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 1))
	pcg := rand.NewPCG(1, 1)
	buf := make([]Action, 0, 512)
	s := NewState(2, 0, rlcardLike())
	var spent [2]time.Duration
	var games [2]int
	seed := uint64(0)
	for b.Loop() {
		for loop := range 2 {
			start := threadCPU(b)
			for range loopChunk {
				if loop == 0 {
					_, buf = playoutIntN(s, seed, rng, buf)
				} else {
					_, buf = playout(s, seed, pcg, buf)
				}
				seed++
			}
			spent[loop] += threadCPU(b) - start
			games[loop] += loopChunk
		}
	}
	old, cur := float64(games[0])/spent[0].Seconds(), float64(games[1])/spent[1].Seconds()
	b.ReportMetric(old, "old-games/s")
	b.ReportMetric(cur, "new-games/s")
	b.ReportMetric(cur/old, "new/old")
}

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

// RandIndex is exactly uniform: for n not a power of two it draws what
// rand.Rand's IntN draws from the same PCG state (the same method), and
// for a power of two 2^k it is the top k bits of one output.
func TestRandIndex(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 7, 8, 12, 64, 100, 511, 512} {
		a, b := rand.NewPCG(3, uint64(n)), rand.NewPCG(3, uint64(n))
		rng := rand.New(b)
		for range 1000 {
			got := RandIndex(a, n)
			var want int
			if n&(n-1) == 0 {
				want = int(b.Uint64() >> (64 - bits.TrailingZeros(uint(n))) & uint64(n-1))
			} else {
				want = rng.IntN(n)
			}
			if got != want {
				t.Fatalf("RandIndex(%d) = %d, want %d", n, got, want)
			}
		}
	}
}

// playoutRandom plays the game of playout (the same actions, from the
// same numbers of pcg) through PlayRandom, reusing s.
func playoutRandom(s *State, seed uint64, pcg *rand.PCG) int {
	s.Reset(seed)
	for !s.over {
		if err := s.PlayRandom(pcg); err != nil {
			panic(err)
		}
	}
	return s.ply
}

// BenchmarkRandomPlayout2R is BenchmarkRandomPlayout2 through PlayRandom.
func BenchmarkRandomPlayout2R(b *testing.B) {
	pcg := rand.NewPCG(1, 1)
	benchLoop(b, 2, rlcardLike(), func(s *State, seed uint64, buf []Action) (int, []Action) {
		return playoutRandom(s, seed, pcg), buf
	})
}
