package boon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
)

var _ engine.Sampler = Game{}

func viewJSON(t testing.TB, s *State, seat int) []byte {
	t.Helper()
	b, err := json.Marshal(s.ViewOf(seat))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSampleConsistent plays random games under random rules and, at
// random decisions of one seat, samples states from its views: each
// must show the seat exactly its last view, deal no seat a card of a
// suit it showed it lacks while the true deal fits too, and play on to
// the end.
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
				s := NewState(seats, rng.Uint64(), r)
				me := rng.IntN(seats)
				ob, err := Game{}.Observer(me, seats, r.Options())
				if err != nil {
					t.Fatal(err)
				}
				o := ob.(*Observer)
				for !s.Over() {
					if s.ToMove() == me {
						view := viewJSON(t, s, me)
						if err := o.Observe(view); err != nil {
							t.Fatal(err)
						}
						if rng.IntN(3) == 0 {
							sampled++
							voids += checkSamples(t, o, s, view, rng, samples)
						}
					}
					l := s.AppendLegal(nil)
					if err := s.Play(l[rng.IntN(len(l))]); err != nil {
						t.Fatal(err)
					}
				}
				if err := o.Observe(viewJSON(t, s, me)); err != nil {
					t.Fatal(err)
				}
				if _, err := o.Sample(rng); !errors.Is(err, engine.ErrNoDecision) {
					t.Fatalf("sample after the end: %v", err)
				}
			}
			if sampled == 0 || voids == 0 {
				t.Fatalf("%d decisions sampled, %d with a seat void in a suit", sampled, voids)
			}
		})
	}
}

// checkSamples checks samples from o's last view (of the true state
// s) and reports whether some seat was known void in a suit.
func checkSamples(t *testing.T, o *Observer, s *State, view []byte, rng *rand.Rand, samples int) int {
	t.Helper()
	_, _, void, err := o.position(o.last)
	if err != nil {
		t.Fatal(err)
	}
	voids := 0
	for q := range o.n {
		if s.hands[q]&void[q] != 0 {
			t.Fatalf("seat %d holds %s, of a suit it showed it lacks", q, s.hands[q]&void[q])
		}
		if void[q] != 0 {
			voids = 1
		}
	}
	for range samples {
		st, err := o.SampleState(rng)
		if err != nil {
			t.Fatalf("sample: %v\n%s", err, view)
		}
		if got := viewJSON(t, st, o.me); !bytes.Equal(got, view) {
			t.Fatalf("sampled view differs:\n got %s\nwant %s", got, view)
		}
		for q := range o.n {
			if st.hands[q]&void[q] != 0 {
				t.Fatalf("seat %d dealt %s, of a suit it lacks", q, st.hands[q]&void[q])
			}
		}
		for !st.Over() {
			l := st.AppendLegal(nil)
			if err := st.Play(l[rng.IntN(len(l))]); err != nil {
				t.Fatalf("playing on a sample: %v", err)
			}
		}
	}
	return voids
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
	if err := o.Observe(viewJSON(t, s, me)); err != nil {
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
