package ismcts

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/engine/uno"
)

// observerOf is the engine's observer of seat's views, as the bot
// starts it.
func observerOf(tb testing.TB, game string, seat, seats int, opts map[string]string) engine.Observer {
	tb.Helper()
	o, err := observer(game, seat, seats, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// observe gives o seat's view of s, as the referee sends it.
func observe(tb testing.TB, o engine.Observer, s engine.State, seat int) []byte {
	tb.Helper()
	view := enginetest.ViewBytes(tb, s, seat)
	if err := o.Observe(view); err != nil {
		tb.Fatal(err)
	}
	return view
}

// Every determinization agrees with the seat's view, byte for byte but
// for the horizon option lifted, and gives it the legal actions the
// game does, in Uno and in Boon, with the pick inferred too.
func TestDeterminizationsAreConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	type game struct {
		name  string
		seats int
		opts  map[string]string
		mk    func(seed uint64) engine.State
		infer bool
	}
	unoRules := uno.DefaultRules()
	unoRules.Target = 0
	cases := []game{
		{"uno", 2, map[string]string{"target": "0"}, func(seed uint64) engine.State { return uno.NewState(2, seed, unoRules) }, false},
		{"uno", 4, map[string]string{"target": "0"}, func(seed uint64) engine.State { return uno.NewState(4, seed, unoRules) }, false},
		{"boon", 3, nil, func(seed uint64) engine.State { return boon.NewState(3, seed, boon.DefaultRules()) }, false},
		{"boon", 4, nil, func(seed uint64) engine.State { return boon.NewState(4, seed, boon.DefaultRules()) }, true},
	}
	for _, c := range cases {
		s := c.mk(uint64(c.seats))
		o := observerOf(t, c.name, 0, c.seats, c.opts)
		checked := 0
		for ply := 0; !s.Over() && ply < 300; ply++ {
			if s.ToMove() == 0 {
				view := observe(t, o, s, 0)
				for range 5 {
					var d engine.State
					if c.name == "uno" {
						d = (&unoGame{obs: o, seats: c.seats}).Determinize(rng).(*unoState).s
					} else {
						var v boon.View
						if err := json.Unmarshal(view, &v); err != nil {
							t.Fatal(err)
						}
						d = newBoonGame(o, &v, BoonOptions{Infer: c.infer, InferDeals: 8}).Determinize(rng).(*boonState).s
					}
					if got := enginetest.ViewBytes(t, d, 0); !bytes.Equal(unlift(got), unlift(view)) {
						t.Fatalf("%s: determinization's view differs:\n%s\n%s", c.name, got, view)
					}
					if !reflect.DeepEqual(d.Legal(), s.Legal()) {
						t.Fatalf("%s: legal %v, want %v", c.name, d.Legal(), s.Legal())
					}
				}
				checked++
			}
			l := s.Legal()
			if err := s.Apply(l[rng.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
		if checked == 0 {
			t.Fatalf("%s: no decision checked", c.name)
		}
	}
}

// unlift is a view with the options the bot lifts blanked.
func unlift(view []byte) []byte {
	return regexp.MustCompile(`"(max_actions|rounds)":\d+`).ReplaceAll(view, []byte(`"$1":0`))
}

// At a fixed budget a search is a function of its RNG's seed.
func TestSearchIsDeterministic(t *testing.T) {
	s := boon.NewState(4, 3, boon.DefaultRules())
	me := s.ToMove()
	o := observerOf(t, "boon", me, 4, nil)
	view := observe(t, o, s, me)
	var v boon.View
	if err := json.Unmarshal(view, &v); err != nil {
		t.Fatal(err)
	}
	g := newBoonGame(o, &v, BoonOptions{})
	root := s.AppendLegal(nil)
	a := Search[boon.Action](g, root, Limits{Iterations: 300}, rand.New(rand.NewPCG(7, 7)))
	b := Search[boon.Action](g, root, Limits{Iterations: 300}, rand.New(rand.NewPCG(7, 7)))
	if !slices.Equal(a.Visits, b.Visits) || a.Best != b.Best || a.Iterations != 300 {
		t.Fatalf("%+v / %+v", a, b)
	}
}

// Compare deals the same cards and draws the same random numbers for
// every action it compares: an action against itself differs by exactly
// nothing on every deal; and it is a function of its RNG's seed.
func TestCompareUsesCommonRandomNumbers(t *testing.T) {
	r := uno.DefaultRules()
	r.Target = 0
	s := uno.NewState(4, 9, r)
	o := observerOf(t, "uno", 0, 4, map[string]string{"target": "0"})
	for {
		if s.ToMove() == 0 {
			observe(t, o, s, 0)
			if len(s.AppendLegal(nil)) >= 2 {
				break
			}
		}
		s.Play(s.AppendLegal(nil)[0])
	}
	g := &unoGame{obs: o, seats: 4, greedy: true}
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
			o := observerOf(t, "boon", s.ToMove(), 4, nil)
			var v boon.View
			if err := json.Unmarshal(observe(t, o, s, s.ToMove()), &v); err != nil {
				t.Fatal(err)
			}
			// Mean pick strength of each other seat's hand before the
			// pick (dealt cards and those played), the picker's with its
			// burial less the Boon's cards it was not dealt (all of them
			// here: it is measured with the Boon).
			strength := func(opt BoonOptions) (passers, picker, greedyBurials float64) {
				g := newBoonGame(o, &v, opt)
				rng := rand.New(rand.NewPCG(3, 3))
				const deals = 3000
				// The cards the seat cannot see.
				pool := boon.Deck(v.Seats) &^ s.Hand(v.Seat)
				for _, x := range g.played {
					pool &^= x
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
						if greedyBurial(all, g.boonSize) == buried {
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
