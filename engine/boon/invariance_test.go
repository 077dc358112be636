package boon

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

// twins is what enginetest.CheckTwins needs to know about Boon: the twins
// part when the seat's hand differs (it took a re-dealt Boon, or a new
// round was dealt from the re-seeded RNG) or a round's scoring (the
// burial's points, the payouts) does.
var twins = enginetest.Twins{
	Clone: func(st engine.State) engine.State { return st.(*State).Clone() },
	Diverged: func(a, b engine.State, seat int) bool {
		x, y := a.(*State), b.(*State)
		return x.hands[seat] != y.hands[seat] || x.vc != y.vc || x.round != y.round ||
			!reflect.DeepEqual(x.last, y.last) || x.over != y.over
	},
	Steps: 40,
}

// View invariance at every turn: re-dealing everything a seat cannot see
// (the other hands, the Boon and the burial, by permuteUnknown, and the
// RNG that deals the next rounds) leaves that seat's view and, when it is
// to move, its legal list byte-for-byte unchanged, now and from then on:
// played on in step (enginetest.CheckTwins), the twins ask the seat at
// the same points, with the same turn ids, views and legal lists, until
// the other seats' cards part them. Checked at every turn of 1,000 random
// games (3, 4 and 5 seats, 3 rounds each, default and random rules) for
// one seat drawn at random or the spectator (snapshot only), and for
// every seat at one turn in four.
//
// TestViewsIndependentOfUnknownCards (hidden_test.go) checks the same
// permutation for every seat at one turn in four, without re-seeding.
func TestViewInvarianceEveryTurn(t *testing.T) {
	games := 1000
	if testkit.Quick() {
		games = 150
	}
	rng := rand.New(rand.NewPCG(91, 92))
	points, decisions := 0, 0
	for g := range games {
		seats := 3 + g%3
		r := DefaultRules()
		if g%2 == 1 {
			r = randomRules(rng)
		}
		r.Rounds = 3
		s := NewState(seats, rng.Uint64(), r)
		enginetest.PlayOut(t, s, seats, enginetest.Uniform[Action](rng), func(turns []int) {
			from, to := enginetest.Seats(rng, seats, 4)
			for seat := from; seat <= to; seat++ {
				p := permuteUnknown(s, seat, rng)
				p.pcg = rand.NewPCG(rng.Uint64(), rng.Uint64())
				p.rng = rand.New(p.pcg)
				if a, b := observed(t, s, seat), observed(t, p, seat); a != b {
					t.Fatalf("game %d: re-dealing what seat %d cannot see changed what it is served:\n%s\n%s", g, seat, a, b)
				}
				if seat >= 0 {
					decisions += enginetest.CheckTwins(t, s.Clone(), p, seat, turns[seat], rng, twins)
				}
				points++
			}
		}, nil)
	}
	t.Logf("%d (turn, seat) points of %d games compared, and %d later decisions of their twins", points, games, decisions)
}
