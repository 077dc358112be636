package banqi

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/arena-dev/arena/engine"

	"github.com/arena-dev/arena/internal/testkit"
)

// observed is everything a bot or spectator can receive at this point:
// the views of both seats, the public view and the legal list, as JSON.
func observed(t *testing.T, s engine.State) string {
	t.Helper()
	var out []byte
	for _, seat := range []int{0, 1, engine.Spectator} {
		b, err := json.Marshal(s.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		out = append(append(out, b...), '\n')
	}
	for _, a := range s.Legal() {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return string(out)
}

// reveals is the piece an action would reveal once applied to s (Empty if
// none), read back from the board after applying it to a clone.
func revealed(s *State, a Action) Piece {
	if s.board[a.To] != FaceDown || (a.Kind != KindFlip && a.Kind != KindCapture) {
		return Empty
	}
	c := s.Clone()
	if err := c.Play(a); err != nil {
		panic(err)
	}
	return c.lastReveal
}

// sameUntilReveal plays a and b (identical public history, different RNG
// state) with the same choices, checking that everything observable is
// byte-identical, until a flip turns up different pieces. It returns the
// number of observation points compared (at most limit). Choices prefer
// moves and captures of face-up pieces (probability 0.9) so that the games
// run on between reveals.
func sameUntilReveal(t *testing.T, a, b *State, rng *rand.Rand, limit int) int {
	t.Helper()
	n := 0
	for !a.Over() && n < limit {
		if oa, ob := observed(t, a), observed(t, b); oa != ob {
			t.Fatalf("observations differ at ply %d:\n%s\n%s", a.Ply(), oa, ob)
		}
		n++
		legal := a.AppendLegal(nil)
		act := legal[rng.IntN(len(legal))]
		if quiet := slices.DeleteFunc(slices.Clone(legal), func(x Action) bool {
			return x.Kind == KindFlip || a.board[x.To] == FaceDown
		}); len(quiet) > 0 && rng.IntN(10) != 0 {
			act = quiet[rng.IntN(len(quiet))]
		}
		ra, rb := revealed(a, act), revealed(b, act)
		mustPlay(t, a, act)
		mustPlay(t, b, act)
		if ra != rb {
			return n // hidden results differ from here on
		}
	}
	if a.Over() && (!b.Over() || !reflect.DeepEqual(a.Outcome(), b.Outcome())) {
		t.Fatal("identical histories ended differently")
	}
	return n
}

// Two seeds, same actions: every view and legal list served before the
// first differing flip result is identical, so nothing observable depends
// on the RNG (the only place hidden information lives).
func TestHiddenViewsIndependentOfSeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	total := 0
	for i := range 1000 {
		r := DefaultRules()
		if i%2 == 1 {
			r = randomRules(rng)
		}
		total += sameUntilReveal(t, NewState(rng.Uint64(), r), NewState(rng.Uint64(), r), rng, 1<<30)
	}
	t.Logf("%d observation points compared", total)
}

// Mid-game: clone a random position, give the clone a different RNG, and
// compare everything observable until a flip result differs. This covers
// positions deep into games, where the flips of both games agree so far.
func TestHiddenViewsIndependentOfRNGState(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	total := 0
	for g := range testkit.Pick(30, 120) {
		s := NewState(uint64(g), randomRules(rng))
		for !s.Over() {
			if rng.IntN(12) == 0 {
				a, b := s.Clone(), s.Clone()
				b.pcg = rand.NewPCG(rng.Uint64(), rng.Uint64())
				b.rng = rand.New(b.pcg)
				total += sameUntilReveal(t, a, b, rand.New(rand.NewPCG(uint64(g), uint64(s.Ply()))), 40)
			}
			l := s.AppendLegal(nil)
			mustPlay(t, s, l[rng.IntN(len(l))])
		}
	}
	t.Logf("%d observation points compared", total)
}

// Design guard: the state holds no layout of face-down pieces. Its only
// fields are the public position, counters, history and the RNG; a new
// field must be reviewed against the hidden-information rule (and added
// here).
func TestStateHoldsNoLayout(t *testing.T) {
	want := []string{"rules", "board", "hidden", "nHidden", "taken", "alive", "colourOf", "toMove", "chain",
		"ply", "quiet", "hash", "hist", "base", "baseMove", "moves", "last", "lastReveal", "hasLast",
		"over", "outcome", "pcg", "rng"}
	var got []string
	ty := reflect.TypeFor[State]()
	for i := range ty.NumField() {
		got = append(got, ty.Field(i).Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("State fields changed: %v", got)
	}
	// The board only ever says FaceDown for an unflipped piece.
	s := NewState(5, DefaultRules())
	for _, p := range s.board {
		if p != FaceDown {
			t.Fatal("a new game has a face-up square")
		}
	}
}

// Flips draw uniformly from the remaining multiset: the first flip gives
// each type with probability count/32, whatever square is flipped.
func TestFlipUniform(t *testing.T) {
	const n = 32000
	var got [16]int
	for seed := range uint64(n) {
		s := NewState(seed, DefaultRules())
		mustPlay(t, s, Flip(int(seed%32)))
		got[s.lastReveal]++
	}
	chi := 0.0
	for p := Piece(1); p <= 14; p++ {
		exp := float64(n) * float64(Count[p.Type()]) / 32
		d := float64(got[p]) - exp
		chi += d * d / exp
	}
	// 13 degrees of freedom: p = 0.001 at 34.5.
	if chi > 34.5 {
		t.Fatalf("first-flip distribution off: chi2 = %.1f, counts %v", chi, got)
	}
}
