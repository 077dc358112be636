package boon

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/deal"
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

// A sample is the prepared state with the deal's hands and face-down
// cards put in (SampleState does not rebuild it): it must be exactly
// the state FromPosition builds from the view's position with the same
// deal and seed, in every seat's view and as it plays on.
func TestSampleIsFromPosition(t *testing.T) {
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		rng := rand.New(rand.NewPCG(uint64(seats), 8))
		r := randomRules(rng)
		s := NewState(seats, rng.Uint64(), r)
		o := &Observer{me: 1, n: seats, rules: r}
		for ply := 0; !s.Over() && ply < 300; ply++ {
			if s.ToMove() == 1 {
				if err := o.Observe(enginetest.ViewBytes(t, s, 1)); err != nil {
					t.Fatal(err)
				}
				seed := rng.Uint64()
				got, err := o.SampleState(rand.New(rand.NewPCG(seed, 1)))
				if err != nil {
					t.Fatal(err)
				}
				want := fromPosition(t, o, rand.New(rand.NewPCG(seed, 1)))
				enginetest.SamePlay(t, got, want, seats, 40, rand.New(rand.NewPCG(seed, 2)))
			}
			l := s.AppendLegal(nil)
			if err := s.Play(l[rng.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// fromPosition is a sample built the long way: the last view's
// position with a deal, through FromPosition.
func fromPosition(t *testing.T, o *Observer, rng *rand.Rand) *State {
	t.Helper()
	v := o.last
	p, _, _, err := o.position(v)
	if err != nil {
		t.Fatal(err)
	}
	cards, ok := deal.Deal(rng, o.prep.pool, o.prep.slots, nil)
	if !ok {
		t.Fatal("no deal")
	}
	o.place(cards, v, o.prep.hidden, func(q int, h Set) { p.Hands[q] = h }, func(h Set) {
		p.Boon = h
		if v.Picker >= 0 {
			p.Buried = h
		}
	})
	p.Seed = rng.Uint64()
	s, err := FromPosition(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.restoreHistory(v); err != nil {
		t.Fatal(err)
	}
	return s
}
