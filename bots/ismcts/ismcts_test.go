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
				g, err := newUnoGame(&back, r, tr, false)
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

// Compare deals the same cards and draws the same random numbers for
// every action it compares: an action against itself differs by exactly
// nothing on every deal; and it is a function of its RNG's seed.
func TestCompareUsesCommonRandomNumbers(t *testing.T) {
	r := uno.DefaultRules()
	r.Target = 0
	s := uno.NewState(4, 9, r)
	for s.ToMove() != 0 || len(s.AppendLegal(nil)) < 2 {
		s.Play(s.AppendLegal(nil)[0])
	}
	v := s.ViewOf(0)
	raw, _ := json.Marshal(v)
	var back uno.View
	json.Unmarshal(raw, &back)
	tr := newUnoTracker(0, 4, r)
	tr.observe(&back)
	g, err := newUnoGame(&back, r, tr, true)
	if err != nil {
		t.Fatal(err)
	}
	root := s.AppendLegal(nil)
	same := Compare[uno.Action](g, root, []int{0}, 0, 50, Limits{}, rand.New(rand.NewPCG(1, 1)))
	if same[0] != (Paired{N: 50}) {
		t.Errorf("an action against itself: %+v, want no difference over 50 deals", same[0])
	}
	a := Compare[uno.Action](g, root, []int{1, 0}, 0, 200, Limits{}, rand.New(rand.NewPCG(2, 2)))
	b := Compare[uno.Action](g, root, []int{1, 0}, 0, 200, Limits{}, rand.New(rand.NewPCG(2, 2)))
	if !slices.Equal(a, b) || a[0].N != 200 {
		t.Errorf("%+v / %+v", a, b)
	}
}

// Beats asks for a lead of z standard errors of the difference of the
// two means; the variance of each counts a fair coin's once more, and an
// action never tried cannot be beaten or beat.
func TestResultBeats(t *testing.T) {
	// Rewards of 0/1: n visits with w wins give Reward w and Reward2 w.
	res := func(n1, w1, n2, w2 int) Result {
		return Result{Visits: []int{n1, n2}, Reward: []float64{float64(w1), float64(w2)}, Reward2: []float64{float64(w1), float64(w2)}}
	}
	cases := []struct {
		name string
		r    Result
		z    float64
		want bool
	}{
		{"clear lead", res(1000, 600, 1000, 400), 1, true},
		{"lead within the noise", res(100, 30, 100, 27), 1, false},
		{"the same lead over more deals", res(10000, 3000, 10000, 2700), 1, true},
		{"behind", res(1000, 400, 1000, 600), 1, false},
		{"ten wins of ten against nine: no certainty", res(10, 10, 10, 9), 1, false},
		{"default never tried", res(50, 50, 0, 0), 1, false},
		{"a higher bar", res(1000, 600, 1000, 400), 20, false},
	}
	for _, c := range cases {
		if got := c.r.Beats(0, 1, c.z); got != c.want {
			t.Errorf("%s: Beats = %v, want %v", c.name, got, c.want)
		}
	}
}

// With a Confidence, the bot plays its Fallback's move unless the search
// beats it by that margin: a bar no search can clear leaves every move to
// the Fallback, none leaves every move to the search.
func TestConfidenceGatesTheSearch(t *testing.T) {
	r := uno.DefaultRules()
	r.Target = 0
	h, turn := firstDecision(t, "uno", uno.NewState(4, 5, r), 4, map[string]string{"target": "0"})
	last := func(string, json.RawMessage, []json.RawMessage, *rand.Rand) (int, error) {
		return len(turn.Legal) - 1, nil
	}
	for _, c := range []struct {
		confidence float64
		fallback   bool // the move is the Fallback's, else the search's
	}{{1e9, true}, {0, false}} {
		b := New(Config{Iterations: 400, Confidence: c.confidence}, last)
		var res Result
		b.Stats = func(x Result) { res = x }
		if err := b.Start(h); err != nil {
			t.Fatal(err)
		}
		got, err := b.Act(turn)
		if err != nil {
			t.Fatal(err)
		}
		if res.Best == len(turn.Legal)-1 {
			t.Fatalf("the search's best is the Fallback's move too (%d of %d): the test cannot tell them apart", res.Best, len(turn.Legal))
		}
		want := res.Best
		if c.fallback {
			want = len(turn.Legal) - 1
		}
		if got != want {
			t.Errorf("confidence %g: played %d, want %d (search %d, fallback %d)", c.confidence, got, want, res.Best, len(turn.Legal)-1)
		}
	}
}
