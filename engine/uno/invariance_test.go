package uno

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// redeal returns a copy of s in which every card seat cannot see (the
// other seats' hands and the draw pile) is dealt again: the same multiset
// in a new arrangement, every hand keeping its size, and the RNG that
// will shuffle later draw piles re-seeded. seat's own hand, the discard
// pile and the game's history stay as they are. (A spectator sees no
// hand: all hands are re-dealt.)
func redeal(s *State, seat int, rng *rand.Rand) *State {
	c := s.Clone()
	var pool []Card
	for q := range s.n {
		if q != seat {
			pool = append(pool, c.Hand(q)...)
		}
	}
	pool = append(pool, c.draw...)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for q := range s.n {
		if q == seat {
			continue
		}
		k := c.count[q]
		c.hand[q], c.mask[q], c.count[q] = [NumKinds]uint8{}, 0, 0
		for _, x := range pool[:k] {
			c.addCard(q, x)
		}
		pool = pool[k:]
	}
	copy(c.draw, pool)
	c.pcg.Seed(rng.Uint64(), rng.Uint64())
	return c
}

// seen is what seat is served at this point: its view and, when it is to
// decide, the legal list, in the referee's encoding.
func seen(s *State, seat int) []byte {
	b := s.ViewOf(seat).AppendJSON(nil)
	if seat == s.cur && !s.over {
		for _, a := range s.AppendLegal(nil) {
			b = append(b, ' ')
			b = a.AppendJSON(b)
		}
	}
	return b
}

// View invariance at every turn: re-dealing everything a seat cannot see
// (every other hand and the draw pile, and the RNG of later reshuffles)
// leaves that seat's view and legal list byte-for-byte unchanged. Checked
// at every turn of 800 random games over every rule set and 2 to 10
// seats (200 actions at most), for one seat drawn at random (or the
// spectator) and at one turn in eight for every seat.
//
// property_test.go's perturbed check is weaker: one card swapped between
// one other hand and the draw pile, at one turn in 150.
func TestViewInvarianceEveryTurn(t *testing.T) {
	games := 800
	if testing.Short() {
		games = 150
	}
	rng := rand.New(rand.NewPCG(81, 82))
	points := 0
	for g := range games {
		cf := configs[g%len(configs)]
		n := seatCounts[(g/len(configs))%len(seatCounts)]
		opts := map[string]string{"target": "0", "max_actions": "200"}
		for k, v := range cf.opts {
			opts[k] = v
		}
		s := newGame(t, cf.game, n, rng.Uint64(), opts)
		for !s.Over() {
			// Every turn one seat drawn at random (the spectator too);
			// every seat at one turn in eight.
			from, to := engine.Spectator+rng.IntN(n+1), 0
			if rng.IntN(8) == 0 {
				from, to = engine.Spectator, n-1
			} else {
				to = from
			}
			for seat := from; seat <= to; seat++ {
				if a, b := seen(s, seat), seen(redeal(s, seat, rng), seat); !bytes.Equal(a, b) {
					t.Fatalf("%s, %d seats, action %d: re-dealing what seat %d cannot see changed what it is served:\n%s\n%s",
						cf.name, n, s.Ply(), seat, a, b)
				}
				points++
			}
			l := s.AppendLegal(nil)
			if err := s.Play(l[choose(l, rng, true)]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d (turn, seat) points of %d games compared", points, games)
}

// TestJumpPollHidden: under jump_in, whether another seat was polled (it
// holds the card just played) and passed is hidden information: the
// passes "are not logged as events" (docs/games/uno.md) and the other
// seats "are not sent views in the meantime". Two deals that seat 2
// cannot tell apart (seat 3 holds the other G5, or the draw pile does)
// must serve seat 2 the same view at its next turn. The view's "actions"
// counter counts the hidden pass, so seat 2 learns that seat 3 holds G5.
func TestJumpPollHidden(t *testing.T) {
	r := rules(func(r *Rules) { r.JumpIn = true })
	holds := setup(t, r, table{hands: []string{"B1 B2", "G5 R1 R2", "Y1 Y2", "G5 Y3 Y4"}, top: "G9", colour: -1, cur: 1, draw: "B7"})
	lacks := setup(t, r, table{hands: []string{"B1 B2", "G5 R1 R2", "Y1 Y2", "B7 Y3 Y4"}, top: "G9", colour: -1, cur: 1, draw: "G5"})
	if a, b := seen(holds, 2), seen(lacks, 2); !bytes.Equal(a, b) {
		t.Fatalf("the two deals differ for seat 2 before the play:\n%s\n%s", a, b)
	}
	mustPlay(t, holds, pl("G5"), Pass) // seat 3 is polled and passes
	mustPlay(t, lacks, pl("G5"))       // nobody to poll
	wantTurn(t, holds, 2, phTurn)
	wantTurn(t, lacks, 2, phTurn)
	if a, b := seen(holds, 2), seen(lacks, 2); !bytes.Equal(a, b) {
		t.Errorf("seat 2 can tell whether seat 3 holds G5 (the poll and pass are hidden, their count is not):\n%s\n%s", a, b)
	}
}
