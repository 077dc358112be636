package ismcts

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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
	for _, c := range []struct {
		seats int
		opt   BoonOptions
	}{{3, BoonOptions{}}, {4, BoonOptions{}}, {5, BoonOptions{}}, {4, BoonOptions{Infer: true, InferDeals: 8}}} {
		seats := c.seats
		s := boon.NewState(seats, uint64(seats), boon.DefaultRules())
		for round := s.Round(); !s.Over() && s.Round() == round; {
			me := s.ToMove()
			v := s.ViewOf(me)
			g, err := newBoonGame(&v, boon.DefaultRules())
			if err != nil {
				t.Fatal(err)
			}
			g.opt = c.opt
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

// Under BoonOptions.Infer the deals follow the pick: the seats that
// passed are dealt weaker hands than uninformed deals give them, the
// picker a stronger one and a burial greedy would make more often; the
// same position without it deals every seat alike.
func TestInferFollowsThePick(t *testing.T) {
	for _, c := range []struct {
		name string
		// at reports the decision to read: a view of a seat to move.
		at func(s *boon.State) bool
	}{
		{"the dealer after three passes", func(s *boon.State) bool { return s.Phase() == boon.PhasePick && s.ToMove() == s.Dealer() }},
		{"a defender after the last seat took", func(s *boon.State) bool {
			return s.Phase() == boon.PhasePlay && s.Picker() == s.Dealer() && s.ToMove() != s.Picker()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := boon.NewState(4, 21, boon.DefaultRules())
			for !c.at(s) {
				l := s.AppendLegal(nil)
				a := l[0]
				if a.Kind == boon.KindTake && s.ToMove() != s.Dealer() {
					a = l[1] // pass, up to the dealer
				}
				if err := s.Play(a); err != nil {
					t.Fatal(err)
				}
			}
			v := s.ViewOf(s.ToMove())
			// Mean pick strength of each other seat's hand before the
			// pick (dealt cards and those played), the picker's with its
			// burial less the Boon's cards it was not dealt (all of them
			// here: it is measured with the Boon).
			strength := func(opt BoonOptions) (passers, picker, greedyBurials float64) {
				g, err := newBoonGame(&v, boon.DefaultRules())
				if err != nil {
					t.Fatal(err)
				}
				g.opt = opt
				rng := rand.New(rand.NewPCG(3, 3))
				const deals = 3000
				var pool boon.Set
				for _, c := range g.pool {
					pool |= boon.SetOf(c)
				}
				for range deals {
					d := g.Determinize(rng).(*boonState).s
					buried := pool // what the other hands were not dealt
					for q := range v.Seats {
						buried &^= d.Hand(q)
					}
					for _, q := range v.Passed {
						if q != v.Seat {
							passers += PickStrength(d.Hand(q)|g.played[q]) / float64(len(v.Passed)-1) / deals
						}
					}
					if p := v.Picker; p >= 0 {
						all := d.Hand(p) | g.played[p] | buried
						picker += PickStrength(all) / deals
						if greedyBurial(all, g.hidden) == buried {
							greedyBurials += 1.0 / deals
						}
					}
				}
				return passers, picker, greedyBurials
			}
			p0, k0, b0 := strength(BoonOptions{})
			p1, k1, b1 := strength(BoonOptions{Infer: true, InferDeals: 8})
			t.Logf("passers %.2f -> %.2f, picker %.2f -> %.2f, greedy's burial %.3f -> %.3f", p0, p1, k0, k1, b0, b1)
			if len(v.Passed) > 1 && p1 > p0-0.3 {
				t.Errorf("passers' mean strength %.2f with inference, %.2f without: want it lower by 0.3 or more", p1, p0)
			}
			if v.Picker >= 0 && (k1 < k0+0.3 || b1 < 2*b0) {
				t.Errorf("picker's strength %.2f / %.2f, greedy's burial %.3f / %.3f (with / without inference): want higher", k1, k0, b1, b0)
			}
		})
	}
}

// greedyBurial is the burial greedy makes from hand: k cards, one at a
// time, the one of highest BuryScore.
func greedyBurial(hand boon.Set, k int) boon.Set {
	var out boon.Set
	for range k {
		best, bestScore := boon.Card(0), math.Inf(-1)
		for _, c := range hand.Cards() {
			if sc := BuryScore(hand, c); sc > bestScore {
				best, bestScore = c, sc
			}
		}
		hand &^= boon.SetOf(best)
		out |= boon.SetOf(best)
	}
	return out
}

// buryLikelihood ranks greedy's own burial first among every burial of
// the hand, and a burial of Golds below one of plain points.
func TestBuryLikelihood(t *testing.T) {
	hands := []string{
		"B4 B5 B6 G2 G6 R5 Au3 Au7 Au9 Au11 Au14",
		"B1 G5 G6 R6 Au1 Au2 Au5 Au6 Au10 Au12 Au13",
		"B6 G4 R2 R3 R5 R6 Au4 Au8 Au9 Au12 Au14",
	}
	for _, h := range hands {
		var hand boon.Set
		for _, f := range strings.Fields(h) {
			c, err := boon.ParseCard(f)
			if err != nil {
				t.Fatal(err)
			}
			hand |= boon.SetOf(c)
		}
		want := greedyBurial(hand, 4)
		best := buryLikelihood(hand, want)
		cards := hand.Cards()
		for a := range cards {
			for b := a + 1; b < len(cards); b++ {
				for c := b + 1; c < len(cards); c++ {
					for d := c + 1; d < len(cards); d++ {
						x := boon.SetOf(cards[a]) | boon.SetOf(cards[b]) | boon.SetOf(cards[c]) | boon.SetOf(cards[d])
						if x != want && buryLikelihood(hand, x) > best {
							t.Errorf("%s: burial %s more likely (%.3g) than greedy's %s (%.3g)", h, x, buryLikelihood(hand, x), want, best)
						}
					}
				}
			}
		}
		golds := boon.Set(0)
		for _, c := range cards {
			if c.Suit() == boon.Gold && golds.Len() < 4 {
				golds |= boon.SetOf(c)
			}
		}
		if buryLikelihood(hand, golds) >= best/100 {
			t.Errorf("%s: four Golds %s buried with likelihood %.3g, greedy's burial %.3g", h, golds, buryLikelihood(hand, golds), best)
		}
	}
}
