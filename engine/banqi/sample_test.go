package banqi

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/internal/testkit"
)

var _ engine.Sampler = Game{}

// mover picks a plain move nine times in ten when there is one, so that
// games run long between flips and captures and positions repeat.
func mover(l []engine.Action, rng *rand.Rand) int {
	var moves []int
	for i, a := range l {
		if a.(Action).Kind == KindMove {
			moves = append(moves, i)
		}
	}
	if len(moves) > 0 && rng.IntN(10) != 0 {
		return moves[rng.IntN(len(moves))]
	}
	return rng.IntN(len(l))
}

// TestSampleConsistent plays games under every option that changes
// what a state carries and, at decisions of one seat, samples states
// from its views: each shows the seat its last view byte for byte and
// plays on (enginetest.CheckSampler); at every decision the observer's
// state is the true one but for its RNG (the same board, repetition
// history, counters and legal list), so that the sample and the game
// end alike.
func TestSampleConsistent(t *testing.T) {
	games := testkit.Pick(3, 20)
	cases := []struct {
		name string
		opts map[string]string
	}{
		{"default", nil},
		{"chase_loss", map[string]string{"repetition": "chase_loss", "no_progress_plies": "60"}},
		{"chain_facedown_hk", map[string]string{"chain_capture": "true", "capture_facedown": "true", "ranks": "hk"}},
		{"short", map[string]string{"no_progress_plies": "12", "max_plies": "150"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// Decisions after plain moves, at a repeated position, in a
			// chain: the cases the history matters in were reached.
			var moves, repeated, chains int
			for g := range games {
				seed := uint64(100 + g)
				sc := enginetest.SamplerCheck{Seats: 2, Seed: seed, Opts: c.opts, Seat: g % 2, Every: 8, Samples: 2,
					MaxPlies: 1500, Pick: mover}
				sc.At = func(truth engine.State, ob engine.Observer) {
					s := truth.(*State)
					if err := sameButRNG(ob.(*Observer), s); err != nil {
						t.Fatalf("seed %d ply %d: %v", seed, s.ply, err)
					}
					moves += min(s.quiet/2, 1)
					repeated += min(s.repeats()-1, 1)
					chains += min(int(s.chain)+1, 1)
				}
				enginetest.CheckSampler(t, Game{}, sc)
			}
			t.Logf("decisions after 2+ moves %d, at a repeated position %d, in a chain %d", moves, repeated, chains)
			if moves == 0 || repeated == 0 || (c.opts["chain_capture"] == "true" && chains == 0) {
				t.Error("a case the history matters in was not reached")
			}
		})
	}
}

// sameButRNG says how the observer's sample differs from the truth in
// anything but the RNG.
func sameButRNG(o *Observer, truth *State) error {
	s, err := o.SampleState(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		return err
	}
	switch {
	case s.board != truth.board || s.hidden != truth.hidden || s.taken != truth.taken || s.alive != truth.alive:
		return fmt.Errorf("pieces differ")
	case s.colourOf != truth.colourOf || s.toMove != truth.toMove || s.chain != truth.chain:
		return fmt.Errorf("colours, turn or chain differ")
	case s.ply != truth.ply || s.quiet != truth.quiet || s.hash != truth.hash:
		return fmt.Errorf("counters differ: ply %d/%d quiet %d/%d", s.ply, truth.ply, s.quiet, truth.quiet)
	case !slices.Equal(s.hist, truth.hist) || !slices.Equal(s.moves, truth.moves):
		return fmt.Errorf("repetition history differs: %d/%d positions", len(s.hist), len(truth.hist))
	case len(s.hist) > 0 && (s.base != truth.base || s.baseMove != truth.baseMove):
		return fmt.Errorf("history's first position differs")
	case !slices.Equal(s.AppendLegal(nil), truth.AppendLegal(nil)):
		return fmt.Errorf("legal lists differ")
	}
	return nil
}

// A game whose positions repeat: the sampled states count the
// repetitions as the game does, up to the third, which ends it.
func TestSampleRepetition(t *testing.T) {
	s := NewState(5, DefaultRules())
	rng := rand.New(rand.NewPCG(5, 5))
	o, err := Game{}.Observer(0, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	sawRepeat := false
	for ply := 0; !s.Over() && ply < 3000; ply++ {
		if s.ToMove() == 0 {
			if err := o.Observe(enginetest.ViewBytes(t, s, 0)); err != nil {
				t.Fatal(err)
			}
			if err := sameButRNG(o.(*Observer), s); err != nil {
				t.Fatalf("ply %d: %v", s.ply, err)
			}
			sawRepeat = sawRepeat || s.repeats() == 2
		}
		l := s.AppendLegal(nil)
		a := l[rng.IntN(len(l))]
		if rng.IntN(20) != 0 {
			a = shuttle(s, l)
		}
		if err := s.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	if !sawRepeat {
		t.Fatal("no position repeated: the test plays nothing it means to")
	}
}

// shuttle is the move that takes back the mover's own last move if it
// may, else its first move, else its first action: the position recurs.
func shuttle(s *State, l []Action) Action {
	if n := len(s.moves); n >= 2 {
		m := s.moves[n-2]
		if back := Move(int(m[1]), int(m[0])); slices.Contains(l, back) {
			return back
		}
	}
	for _, a := range l {
		if a.Kind == KindMove {
			return a
		}
	}
	return l[0]
}

// Views that do not follow one another, or are not the seat's, are
// errors; a game over or another seat's turn is no decision.
func TestObserverErrors(t *testing.T) {
	s := NewState(9, DefaultRules())
	rng := rand.New(rand.NewPCG(9, 9))
	for s.ToMove() != 0 || s.quiet < 3 {
		l := s.AppendLegal(nil)
		a := l[rng.IntN(len(l))]
		if i := slices.IndexFunc(l, func(x Action) bool { return x.Kind == KindMove }); i >= 0 {
			a = l[i]
		}
		if err := s.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	fresh := func() *Observer {
		o, err := Game{}.Observer(0, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		return o.(*Observer)
	}
	if _, err := fresh().Sample(rng); !errors.Is(err, engine.ErrNoDecision) {
		t.Errorf("no view: %v, want ErrNoDecision", err)
	}
	o := fresh()
	if err := o.Observe(enginetest.ViewBytes(t, s, 1)); err == nil {
		t.Error("seat 1's view given to seat 0's observer: no error")
	}
	if err := o.Observe([]byte(`{"you":{"seat":0},"board":["XXXX"]}`)); err == nil {
		t.Error("a board of one row: no error")
	}
	// A view in the middle of moves, its history unseen.
	if err := o.Observe(enginetest.ViewBytes(t, s, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Sample(rng); !errors.Is(err, engine.ErrInconsistent) {
		t.Errorf("moves since the last flip unseen: %v, want ErrInconsistent", err)
	}
	if _, err := (Game{}).Observer(2, 2, nil); err == nil {
		t.Error("seat 2: no error")
	}
	if _, err := (Game{}).Observer(0, 3, nil); err == nil {
		t.Error("3 seats: no error")
	}
}

// The piece a sampled state's flip reveals is uniform over the pieces
// still face down: each sample has a fresh RNG. Chi-square over the 14
// kinds at the first decision of seat 1, one piece revealed.
func TestSampleFlipUniform(t *testing.T) {
	s := NewState(3, DefaultRules())
	if err := s.Play(Flip(0)); err != nil {
		t.Fatal(err)
	}
	o, err := Game{}.Observer(1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Observe(enginetest.ViewBytes(t, s, 1)); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	n := testkit.Pick(3000, 30000)
	var got [16]int
	for range n {
		st, err := o.(*Observer).SampleState(rng)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(Flip(31)); err != nil {
			t.Fatal(err)
		}
		got[st.board[31]]++
	}
	chi2, df := 0.0, -1
	for p := Piece(1); p <= 14; p++ {
		want := float64(n) * float64(s.hidden[p]) / float64(s.nHidden)
		if want == 0 {
			if got[p] != 0 {
				t.Fatalf("%c revealed %d times, none is face down", p.Letter(), got[p])
			}
			continue
		}
		chi2 += math.Pow(float64(got[p])-want, 2) / want
		df++
	}
	// 13 degrees of freedom: p = 0.001 at 34.5.
	if chi2 > 34.5 {
		t.Errorf("chi-square %.1f over %d degrees of freedom: the flips are not uniform (%v)", chi2, df, got)
	}
}

// A sample is the state prepared at Observe with a seed put in (Sample
// does not rebuild it): it must be exactly the state FromPosition builds
// from the view's position with the same seed, in both seats' views and
// as it plays on, its flips included.
func TestSampleIsFromPosition(t *testing.T) {
	s := NewState(11, DefaultRules())
	ob, err := Game{}.Observer(1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := ob.(*Observer)
	rng := rand.New(rand.NewPCG(11, 3))
	sampled := 0
	for ply := 0; !s.Over() && ply < 400; ply++ {
		if s.ToMove() == 1 {
			if err := o.Observe(enginetest.ViewBytes(t, s, 1)); err != nil {
				t.Fatal(err)
			}
			seed := rng.Uint64()
			got, err := o.SampleState(rand.New(rand.NewPCG(seed, 1)))
			if err != nil {
				t.Fatal(err)
			}
			p := o.pos
			p.Seed = rand.New(rand.NewPCG(seed, 1)).Uint64()
			want, err := FromPosition(p)
			if err != nil {
				t.Fatal(err)
			}
			enginetest.SamePlay(t, got, want, 2, 60, rand.New(rand.NewPCG(seed, 2)))
			sampled++
		}
		l := s.AppendLegal(nil)
		if err := s.Play(l[rng.IntN(len(l))]); err != nil {
			t.Fatal(err)
		}
	}
	if sampled == 0 {
		t.Fatal("no decision sampled")
	}
}
