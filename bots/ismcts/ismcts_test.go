package ismcts

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/uno"
)

// Every determinization agrees with the seat's view: its own hand, every
// seat's count, the discard pile (Uno), the tricks and, in Boon, every
// void a seat showed; and the seat's legal actions are the view's.
func TestDeterminizationsAreConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, seats := range []int{2, 4} {
		r := uno.DefaultRules()
		r.Target = 0
		s := uno.NewState(seats, uint64(seats), r)
		tr := newUnoTracker(0, seats, r)
		checked := 0
		for !s.Over() {
			if s.ToMove() == 0 {
				v := s.ViewOf(0)
				raw, _ := json.Marshal(v)
				var back uno.View
				json.Unmarshal(raw, &back)
				tr.observe(&back)
				g, err := newUnoGame(&back, r, tr)
				if err != nil {
					t.Fatal(err)
				}
				for range 5 {
					d := g.Determinize(rng).(*unoState).s
					dv := d.ViewOf(0)
					if !slices.Equal(dv.Hand, v.Hand) || !slices.Equal(dv.Counts, v.Counts) || !slices.Equal(dv.Discard, v.Discard) || dv.DrawPile != v.DrawPile {
						t.Fatalf("determinization differs from the view:\n%+v\n%+v", dv, v)
					}
					if !slices.Equal(d.AppendLegal(nil), s.AppendLegal(nil)) {
						t.Fatalf("legal %v, want %v", d.AppendLegal(nil), s.AppendLegal(nil))
					}
				}
				checked++
			}
			l := s.AppendLegal(nil)
			s.Play(l[rng.IntN(len(l))])
		}
		if checked == 0 {
			t.Fatal("no decision checked")
		}
	}
	for _, seats := range []int{3, 4, 5} {
		s := boon.NewState(seats, uint64(seats), boon.DefaultRules())
		for round := s.Round(); !s.Over() && s.Round() == round; {
			me := s.ToMove()
			v := s.ViewOf(me)
			g, err := newBoonGame(&v, boon.DefaultRules())
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				d := g.Determinize(rng).(*boonState).s
				dv := d.ViewOf(me)
				if !slices.Equal(dv.Hand, v.Hand) || !slices.Equal(dv.HandSizes, v.HandSizes) || len(dv.Tricks) != len(v.Tricks) {
					t.Fatalf("determinization differs from the view")
				}
				for q := range seats {
					if d.Hand(q)&g.void[q] != 0 {
						t.Fatalf("seat %d dealt %s, void in it", q, d.Hand(q)&g.void[q])
					}
				}
			}
			l := s.Legal()
			s.Apply(l[rng.IntN(len(l))])
		}
	}
}

// At a fixed budget a search is a function of its RNG's seed.
func TestSearchIsDeterministic(t *testing.T) {
	s := boon.NewState(4, 3, boon.DefaultRules())
	v := s.ViewOf(s.ToMove())
	g, err := newBoonGame(&v, boon.DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	root := s.AppendLegal(nil)
	a := Search[boon.Action](g, root, Limits{Iterations: 300}, rand.New(rand.NewPCG(7, 7)))
	b := Search[boon.Action](g, root, Limits{Iterations: 300}, rand.New(rand.NewPCG(7, 7)))
	if !slices.Equal(a.Visits, b.Visits) || a.Best != b.Best || a.Iterations != 300 {
		t.Fatalf("%+v / %+v", a, b)
	}
	var _ engine.State = s
}
