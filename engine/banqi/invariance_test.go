package banqi

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

// twins is what enginetest.CheckTwins needs to know about Banqi: the twins
// part once a flip (or a face-down attack) turns up different pieces.
var twins = enginetest.Twins{
	Clone: func(st engine.State) engine.State { return st.(*State).Clone() },
	Diverged: func(a, b engine.State, _ int) bool {
		x, y := a.(*State), b.(*State)
		return x.board != y.board || x.lastReveal != y.lastReveal
	},
	Steps: 40,
}

// View invariance at every turn: re-dealing everything a seat cannot see
// leaves every view and the legal list byte-for-byte unchanged, now and
// from then on. In Banqi the face-down pieces have no layout
// (TestStateHoldsNoLayout): a flip draws from the remaining multiset
// through the game's RNG, so the RNG state is the whole hidden deal and
// re-dealing is re-seeding it. Checked at every turn of 1,000 random games
// (120 plies at most) (both seats and the spectator, and the legal list);
// and at one turn in eight the re-dealt twin is played on in step with the
// game (enginetest.CheckTwins) until a flip differs, for one seat: it
// must be asked at the same points, with the same turn ids, views and
// legal lists. TestHiddenViewsIndependentOfRNGState follows re-dealt
// games onwards in the same way for everything observable.
func TestViewInvarianceEveryTurn(t *testing.T) {
	games := 1000
	if testkit.Quick() {
		games = 200
	}
	rng := rand.New(rand.NewPCG(71, 72))
	points, decisions := 0, 0
	for g := range games {
		r := DefaultRules()
		if g%2 == 1 {
			r = randomRules(rng)
		}
		r.MaxPlies = min(r.MaxPlies, 120)
		s := NewState(rng.Uint64(), r)
		enginetest.PlayOut(t, s, 2, enginetest.Uniform[Action](rng), func(turns []int) {
			before := fastObserved(t, s)
			c := s.Clone()
			c.pcg = rand.NewPCG(rng.Uint64(), rng.Uint64())
			c.rng = rand.New(c.pcg)
			if after := fastObserved(t, c); after != before {
				t.Fatalf("game %d ply %d: re-dealing the face-down pieces changed what is observed:\n%s\n%s", g, s.Ply(), before, after)
			}
			if rng.IntN(8) == 0 {
				seat := rng.IntN(2)
				decisions += enginetest.CheckTwins(t, s.Clone(), c, seat, turns[seat], rng, twins)
			}
			points++
		}, nil)
	}
	t.Logf("%d turns of %d games compared (seats 0, 1 and %d, and the legal list), and %d later decisions of their twins",
		points, games, engine.Spectator, decisions)
}

// fastObserved is observed through the engine's own encoders (the bytes
// the referee sends; json_test.go proves them equal to encoding/json).
func fastObserved(t *testing.T, s *State) string {
	var b []byte
	var err error
	for _, seat := range []int{0, 1, engine.Spectator} {
		if b, err = engine.AppendJSON(b, s.View(seat)); err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
	}
	for _, a := range s.Legal() {
		if b, err = engine.AppendJSON(b, a); err != nil {
			t.Fatal(err)
		}
	}
	return string(b)
}
