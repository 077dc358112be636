package uno

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/internal/testkit"
)

// Uno and Bounce are samplers.
var _ = []engine.Sampler{Uno, Bounce}

func newObserver(t testing.TB, g Game, seat, seats int, opts map[string]string) *Observer {
	t.Helper()
	o, err := g.Observer(seat, seats, opts)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*Observer)
}

// TestSampleConsistent plays random games and, at random decisions of
// one seat, samples states from the views it was sent so far: each must
// show that seat exactly its last view, byte for byte, and play on
// (enginetest.CheckSampler); at every decision the true state must be
// among the deals the observer allows (it assumes nothing false).
func TestSampleConsistent(t *testing.T) {
	games, samples := testkit.Pick(3, 20), testkit.Pick(8, 30)
	for _, cf := range configs {
		for _, seats := range []int{2, 4, 7} {
			seats := seatsFor(cf.game, seats)
			t.Run(fmt.Sprintf("%s/%d", cf.name, seats), func(t *testing.T) {
				t.Parallel()
				var st sampleStats
				for g := range games {
					seed := uint64(1000*seats + g)
					c := enginetest.SamplerCheck{Seats: seats, Seed: seed, Opts: cf.opts, Seat: g % seats,
						Every: 4, Samples: samples, MaxPlies: 600, Pick: playful}
					c.At = func(truth engine.State, ob engine.Observer) {
						o := ob.(*Observer)
						if err := observerAllows(o, truth.(*State)); err != nil {
							t.Fatalf("seed %d: the true state is ruled out: %v\n%s", seed, err, o.last.AppendJSON(nil))
						}
						st.count(o)
					}
					enginetest.CheckSampler(t, cf.game, c)
				}
				t.Logf("%+v", st)
				// The cases that matter were reached: seats known to lack
				// kinds (a forced draw; under the official rules, an
				// innocent Wild Draw Four another seat challenged), cards
				// known held (a reveal, a swap).
				o, err := engine.Resolve(cf.game.name, cf.game.opts(), cf.opts)
				if err != nil {
					t.Fatal(err)
				}
				if (!rulesOf(o).VoluntaryDraw || cf.name == "official" && seats > 2) && st.Lacking == 0 {
					t.Error("no decision with a seat known to lack kinds")
				}
				if cf.game != Bounce && st.Known == 0 {
					t.Error("no decision with cards known in another hand")
				}
			})
		}
	}
}

// playful is choose's playful pick over the engine's actions: it keeps
// random hands short.
func playful(l []engine.Action, rng *rand.Rand) int {
	acts := make([]Action, len(l))
	for i, a := range l {
		acts[i] = a.(Action)
	}
	return choose(acts, rng, true)
}

// sampleStats counts the decisions observed where the observer knew
// something of another hand: that the test reaches them.
type sampleStats struct{ Decisions, Lacking, Known int }

func (st *sampleStats) count(o *Observer) {
	st.Decisions++
	lacking, known := false, false
	for q := range o.n {
		lacking = lacking || o.lack[q] != 0
		known = known || len(o.known[q]) > 0
	}
	if lacking {
		st.Lacking++
	}
	if known {
		st.Known++
	}
}

// observerAllows reports whether the true state's hands are among the
// deals the observer allows: every seat holds its known cards, and as
// many cards outside its lacking kinds as it has older cards.
func observerAllows(o *Observer, s *State) error {
	for q := range o.n {
		if q == o.me {
			continue
		}
		h := s.hand[q]
		for _, c := range o.known[q] {
			if h[c] == 0 {
				return fmt.Errorf("seat %d is known to hold %s but does not", q, c)
			}
			h[c]--
		}
		if o.lack[q] == 0 {
			continue
		}
		older := s.count[q] - len(o.known[q]) - o.fresh[q]
		fit := 0
		for k := range Card(NumKinds) {
			if o.lack[q]&(1<<k) == 0 {
				fit += int(h[k])
			}
		}
		if fit < older {
			return fmt.Errorf("seat %d has %d cards outside its lacking kinds, %d older ones", q, fit, older)
		}
	}
	return nil
}

func TestObserverErrors(t *testing.T) {
	cases := []struct {
		name        string
		seat, seats int
		opts        map[string]string
	}{
		{"seat out of range", 3, 3, nil},
		{"negative seat", -1, 3, nil},
		{"too few seats", 0, 1, nil},
		{"too many seats", 0, 11, nil},
		{"bad option", 0, 3, map[string]string{"target": "many"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Uno.Observer(c.seat, c.seats, c.opts); err == nil {
				t.Fatal("no error")
			}
		})
	}
	o := newObserver(t, Uno, 1, 3, nil)
	if _, err := o.Sample(rand.New(rand.NewPCG(1, 2))); !errors.Is(err, engine.ErrNoDecision) {
		t.Fatalf("sample before any view: %v", err)
	}
	s := newGame(t, Uno, 3, 5, nil)
	if err := o.Observe(s.AppendView(nil, 0)); err == nil {
		t.Fatal("another seat's view was taken")
	}
	if err := o.Observe([]byte("{")); err == nil {
		t.Fatal("bad JSON was taken")
	}
	// A view whose counts do not add up to the deck: nothing fits.
	me := s.ToMove()
	o = newObserver(t, Uno, me, 3, nil)
	v := s.ViewOf(me)
	v.DrawPile += 3
	if err := o.Observe(v.AppendJSON(nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Sample(rand.New(rand.NewPCG(1, 2))); !errors.Is(err, engine.ErrInconsistent) {
		t.Fatalf("sample of an impossible view: %v, want engine.ErrInconsistent", err)
	}
}

// chiSquareLimit is the 0.1% point of chi-square with df degrees of
// freedom (Wilson-Hilferty): the tests' seeds are fixed, so this is a
// bound on how unlikely their draw would be under uniformity.
func chiSquareLimit(df int) float64 {
	const z = 3.09
	d := float64(df)
	x := 1 - 2/(9*d) + z*math.Sqrt(2/(9*d))
	return d * x * x * x
}

func chiSquare(counts map[string]int, n int, p func(string) float64) (float64, int) {
	chi, df := 0.0, -1
	for k, c := range counts {
		e := float64(n) * p(k)
		chi += (float64(c) - e) * (float64(c) - e) / e
		df++
	}
	return chi, df
}

// TestSampleUniformDraw samples from a seat's first decision under the
// official rules (nothing known of other hands): the next card to be
// drawn must be each unseen kind as often as its copies unseen.
func TestSampleUniformDraw(t *testing.T) {
	s := newGame(t, Uno, 4, 11, nil)
	me := s.ToMove()
	o := newObserver(t, Uno, me, 4, nil)
	view := s.AppendView(nil, me)
	if err := o.Observe(view); err != nil {
		t.Fatal(err)
	}
	_, pool, err := o.position(o.last)
	if err != nil {
		t.Fatal(err)
	}
	unseen := map[string]int{}
	for _, c := range pool {
		unseen[c.String()]++
	}
	rng := rand.New(rand.NewPCG(5, 6))
	n := testkit.Pick(5000, 50000)
	counts := map[string]int{}
	for range n {
		st, err := o.SampleState(rng)
		if err != nil {
			t.Fatal(err)
		}
		counts[st.draw[len(st.draw)-1].String()]++
	}
	for k := range unseen {
		if counts[k] == 0 {
			t.Fatalf("%s never came up next in %d samples", k, n)
		}
	}
	chi, df := chiSquare(counts, n, func(k string) float64 { return float64(unseen[k]) / float64(len(pool)) })
	if chi > chiSquareLimit(df) {
		t.Fatalf("chi-square %.1f over %d kinds (limit %.1f)", chi, df+1, chiSquareLimit(df))
	}
}

// BenchmarkSample deals a state from a 4-seat bounce game's decision
// late in a hand, with seats known to lack kinds (the walk of swaps
// runs).
func BenchmarkSample(b *testing.B) {
	for _, cf := range []struct {
		name string
		game Game
	}{{"official", Uno}, {"bounce", Bounce}} {
		b.Run(cf.name, func(b *testing.B) {
			o := observedLate(b, cf.game, 4)
			rng := rand.New(rand.NewPCG(1, 2))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := o.SampleState(rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// observedLate is an observer of seat 0 fed its views up to its tenth
// decision (or the game's last).
func observedLate(b *testing.B, g Game, seats int) *Observer {
	s := newGame(b, g, seats, 9, nil)
	o := newObserver(b, g, 0, seats, nil)
	rng := rand.New(rand.NewPCG(9, 9))
	for k := 0; k < 10 && !s.Over(); {
		if s.ToMove() == 0 {
			if err := o.Observe(s.AppendView(nil, 0)); err != nil {
				b.Fatal(err)
			}
			k++
			if k == 10 {
				break
			}
		}
		l := s.AppendLegal(nil)
		if err := s.Play(l[choose(l, rng, false)]); err != nil {
			b.Fatal(err)
		}
	}
	return o
}

// A sample is the prepared state with the deal's hands and pile put in
// (SampleState does not rebuild it): it must be exactly the state
// FromPosition builds from the view's position with the same deal and
// seed, in every seat's view and as it plays on.
func TestSampleIsFromPosition(t *testing.T) {
	for ci, cf := range configs {
		s := newGame(t, cf.game, 4, uint64(50+ci), cf.opts)
		o := newObserver(t, cf.game, 1, 4, cf.opts)
		rng := rand.New(rand.NewPCG(uint64(ci), 3))
		for ply := 0; !s.Over() && ply < 400; ply++ {
			if s.ToMove() == 1 {
				if err := o.Observe(s.AppendView(nil, 1)); err != nil {
					t.Fatal(err)
				}
				seed := rng.Uint64()
				got, err := o.SampleState(rand.New(rand.NewPCG(seed, 1)))
				if err != nil {
					t.Fatal(err)
				}
				want := fromPosition(t, o, rand.New(rand.NewPCG(seed, 1)))
				enginetest.SamePlay(t, got, want, 4, 60, rand.New(rand.NewPCG(seed, 2)))
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
	p, pool, err := o.position(o.last)
	if err != nil {
		t.Fatal(err)
	}
	d := o.dealing(o.last, pool)
	if !d.deal(rng) {
		t.Fatal("no deal")
	}
	o.place(&p, d)
	p.Seed = rng.Uint64()
	s, err := FromPosition(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := historyOf(o.last)
	if err != nil {
		t.Fatal(err)
	}
	s.restoreHistory(&h)
	return s
}

// What a seat that drew for lack of a play is known to lack is what the
// state lets it play: matchMask is the state's match.
func TestMatchMaskIsMatch(t *testing.T) {
	for top := range Card(NumKinds) {
		for c := range 4 {
			var s State
			s.setColour(int8(c), top)
			if got := matchMask(top, c); got != s.match {
				t.Fatalf("matchMask(%s, %d) = %x, the state's match %x", top, c, got, s.match)
			}
		}
	}
}
