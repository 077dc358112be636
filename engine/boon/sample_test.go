package boon

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/internal/testkit"
)

var _ engine.Sampler = Game{}

// TestSampleConsistent plays random games under random rules and, at
// random decisions of one seat, samples states from its views: each must
// show the seat exactly its last view and play on
// (enginetest.CheckSampler), and deal no seat a card of a suit it showed
// it lacks, which the true deal never holds either.
func TestSampleConsistent(t *testing.T) {
	games, samples := testkit.Pick(6, 40), testkit.Pick(8, 30)
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		t.Run(fmt.Sprint(seats), func(t *testing.T) {
			t.Parallel()
			sampled, voids := 0, 0
			for g := range games {
				rng := rand.New(rand.NewPCG(uint64(seats), uint64(g)))
				r := randomRules(rng)
				r.Rounds = 3
				c := enginetest.SamplerCheck{Seats: seats, Seed: rng.Uint64(), Opts: r.Options(), Seat: g % seats,
					Every: 3, Samples: samples}
				c.At = func(truth engine.State, o engine.Observer) {
					void := voidsOf(t, o.(*Observer))
					for q, h := range truth.(*State).hands[:seats] {
						if h&void[q] != 0 {
							t.Fatalf("seat %d holds %s, of a suit it showed it lacks", q, h&void[q])
						}
						if void[q] != 0 {
							voids++
						}
					}
				}
				c.Sampled = func(sample engine.State, o engine.Observer) {
					void := voidsOf(t, o.(*Observer))
					for q, h := range sample.(*State).hands[:seats] {
						if h&void[q] != 0 {
							t.Fatalf("seat %d dealt %s, of a suit it lacks", q, h&void[q])
						}
					}
				}
				sampled += enginetest.CheckSampler(t, Game{}, c)
			}
			if sampled == 0 || voids == 0 {
				t.Fatalf("%d decisions sampled, %d seats seen void in a suit", sampled, voids)
			}
		})
	}
}

func voidsOf(t *testing.T, o *Observer) [MaxSeats]Set {
	t.Helper()
	_, _, void, err := o.position(o.last)
	if err != nil {
		t.Fatal(err)
	}
	return void
}

// TestSampleUniformBoon samples at the first decision of a 4-seat game:
// nothing is known of the other hands and the Boon, so each unseen card
// must be in the Boon as often as the Boon's share of the unseen cards.
func TestSampleUniformBoon(t *testing.T) {
	s := NewState(4, 3, DefaultRules())
	me := s.ToMove()
	ob, err := Game{}.Observer(me, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := ob.(*Observer)
	if err := o.Observe(enginetest.ViewBytes(t, s, me)); err != nil {
		t.Fatal(err)
	}
	unseen := Deck(4) &^ s.hands[me]
	rng := rand.New(rand.NewPCG(5, 6))
	n := testkit.Pick(4000, 40000)
	counts := map[Card]int{}
	for range n {
		st, err := o.SampleState(rng)
		if err != nil {
			t.Fatal(err)
		}
		for x := uint32(st.boon); x != 0; x &= x - 1 {
			counts[Card(bits.TrailingZeros32(x))]++
		}
	}
	p := float64(s.boonSize) / float64(unseen.Len())
	chi := 0.0
	for x := uint32(unseen); x != 0; x &= x - 1 {
		c := Card(bits.TrailingZeros32(x))
		e := float64(n) * p
		chi += (float64(counts[c]) - e) * (float64(counts[c]) - e) / e
	}
	// Each card's count is binomial: chi-square over the cards with
	// their variance n p (1-p) is their sum scaled by 1-p.
	chi /= 1 - p
	df := float64(unseen.Len())
	limit := df + 3.09*math.Sqrt(2*df) + 5
	if chi > limit {
		t.Fatalf("chi-square %.1f over %d cards (limit %.1f): %v", chi, unseen.Len(), limit, counts)
	}
}
