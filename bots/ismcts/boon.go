package ismcts

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine/boon"
)

// boonGame is a Boon seat's information set at its decision, read from
// its view alone: the view carries the whole round so far (every trick,
// who passed, the picker; for the picker its Boon and burial), so a Boon
// seat needs no memory across turns.
type boonGame struct {
	pos    boon.Position
	me     int
	sizes  []int      // cards still to deal to each seat (0 for me)
	hidden int        // cards to deal face down: the Boon (pick phase, Least) or the burial
	void   []boon.Set // per seat: the suits it showed it lacks
	pool   []boon.Card
	buf    []boon.Card
	vc     []int
	maxWin float64
}

func newBoonGame(v *boon.View, r boon.Rules) (*boonGame, error) {
	n, me := v.Seats, v.Seat
	if me < 0 || me >= n || v.ToMove != me {
		return nil, fmt.Errorf("boon: not this seat's decision")
	}
	p := boon.Position{Rules: r, Seats: n, Round: v.Round, Dealer: v.Dealer, VC: v.VC, Picker: v.Picker,
		Passed: len(v.Passed), Least: v.Mode == "least"}
	// The search stops at the end of the round; the cap must not end it
	// sooner.
	p.Rules.Rounds = 1 << 30
	g := &boonGame{me: me, vc: v.VC, sizes: make([]int, n), void: make([]boon.Set, n)}
	var err error
	parseSet := func(ss []string) (boon.Set, error) {
		var x boon.Set
		for _, s := range ss {
			c, err := boon.ParseCard(s)
			if err != nil {
				return 0, err
			}
			x |= 1 << c
		}
		return x, nil
	}
	p.Hands = make([]boon.Set, n)
	if p.Hands[me], err = parseSet(v.Hand); err != nil {
		return nil, err
	}
	known := p.Hands[me]
	trick := func(t boon.Trick) (boon.PlayedTrick, error) {
		pt := boon.PlayedTrick{Leader: t.Leader}
		for i, s := range t.Cards {
			c, err := boon.ParseCard(s)
			if err != nil {
				return pt, err
			}
			pt.Cards = append(pt.Cards, c)
			known |= 1 << c
			q := (t.Leader + i) % n
			if i > 0 && q != me {
				led := pt.Cards[0].Suit()
				if c.Suit() != led {
					g.void[q] |= boon.SuitSet(led)
					if r.MustTrump && c.Suit() != boon.Gold {
						g.void[q] |= boon.SuitSet(boon.Gold)
					}
				}
			}
		}
		return pt, nil
	}
	for _, t := range v.Tricks {
		pt, err := trick(t)
		if err != nil {
			return nil, err
		}
		p.Tricks = append(p.Tricks, pt)
	}
	if p.Trick, err = trick(v.Trick); err != nil {
		return nil, err
	}
	if v.Picker == me {
		if p.Boon, err = parseSet(v.Boon); err != nil {
			return nil, err
		}
		if p.Buried, err = parseSet(v.Buried); err != nil {
			return nil, err
		}
		known |= p.Buried
	} else if v.Picker >= 0 {
		g.hidden = v.BoonSize // the burial, which stands in for the Boon
	} else {
		g.hidden = v.BoonSize // the Boon, or the set-aside Boon
	}
	for q := range n {
		if q != me {
			g.sizes[q] = v.HandSizes[q]
		}
	}
	deck := boon.Deck(n)
	for x := uint32(deck &^ known); x != 0; x &= x - 1 {
		g.pool = append(g.pool, boon.Card(bits.TrailingZeros32(x)))
	}
	if len(g.pool) != sum(g.sizes)+g.hidden {
		return nil, fmt.Errorf("boon: %d unseen cards for %d in hands and %d hidden", len(g.pool), sum(g.sizes), g.hidden)
	}
	g.pos = p
	// A picker's round moves up to 2 VC per defender (3 under the
	// sheepshead tiers); scaled so that a defender's 2 is most of the
	// range, the picker's greater swings clipped.
	g.maxWin = 3
	return g, nil
}

func (g *boonGame) Seats() int { return g.pos.Seats }

// Determinize deals the unseen cards to the other hands, every seat's
// voids respected, and the rest face down (the Boon or the burial). A
// deal that paints itself into a corner is retried; after a few tries
// the voids are dropped.
func (g *boonGame) Determinize(rng *rand.Rand) State[boon.Action] {
	n := g.pos.Seats
	var hands [boon.MaxSeats]boon.Set
	var hidden boon.Set
	for try := 0; ; try++ {
		pool := append(g.buf[:0], g.pool...)
		g.buf = pool
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		var left [boon.MaxSeats + 1]int
		copy(left[:], g.sizes)
		left[n] = g.hidden
		hands, hidden = [boon.MaxSeats]boon.Set{}, 0
		ok := true
		// Most constrained cards first would be better; a retry is cheap.
		for _, c := range pool {
			// Candidate piles: seats with room not void in c's suit, the
			// face-down pile.
			tot := 0
			for q := range n + 1 {
				if left[q] > 0 && (q == n || try >= 20 || g.void[q]&(1<<c) == 0) {
					tot += left[q]
				}
			}
			if tot == 0 {
				ok = false
				break
			}
			k := rng.IntN(tot)
			for q := range n + 1 {
				if left[q] > 0 && (q == n || try >= 20 || g.void[q]&(1<<c) == 0) {
					if k < left[q] {
						left[q]--
						if q == n {
							hidden |= 1 << c
						} else {
							hands[q] |= 1 << c
						}
						break
					}
					k -= left[q]
				}
			}
		}
		if ok {
			break
		}
		if try > 40 {
			return nil
		}
	}
	p := g.pos
	p.Hands = make([]boon.Set, n)
	for q := range n {
		p.Hands[q] = hands[q]
	}
	p.Hands[g.me] = g.pos.Hands[g.me]
	switch {
	case p.Picker == g.me:
	case p.Picker >= 0:
		p.Buried, p.Boon = hidden, hidden
	default:
		p.Boon = hidden
	}
	p.Seed = rng.Uint64()
	s, err := boon.FromPosition(p)
	if err != nil {
		return nil
	}
	return &boonState{s: s, round: p.Round, vc: g.vc, maxWin: g.maxWin}
}

// boonState is a determinization played to the end of the round.
type boonState struct {
	s      *boon.State
	round  int
	vc     []int
	maxWin float64
}

func (b *boonState) ToMove() int                           { return b.s.ToMove() }
func (b *boonState) Legal(dst []boon.Action) []boon.Action { return b.s.AppendLegal(dst) }
func (b *boonState) Done() bool                            { return b.s.Over() || b.s.Round() != b.round }
func (b *boonState) Apply(a boon.Action) {
	if err := b.s.Play(a); err != nil {
		panic(err)
	}
}

// Autopilot: a burial below the root is the playout policy's.
func (b *boonState) Autopilot() bool { return b.s.Phase() == boon.PhaseBury }

// Rewards: the victory cards won or lost in the round, scaled to [0, 1]
// (0.5 for none).
func (b *boonState) Rewards(dst []float64) {
	for i := range dst {
		dst[i] = min(1, max(0, 0.5+(float64(b.s.VC(i)-b.vc[i]))/(2*b.maxWin)))
	}
}

// boonTakeNeed is the pick strength (see pickStrength) at which a
// playout's seat takes the Boon, for 3, 4 and 5 seats (greedy's rule).
var boonTakeNeed = [3]float64{9, 7, 6.5}

// pickStrength scores a hand for taking the Boon: Golds, the higher the
// better, plain 6s, and points.
func pickStrength(h boon.Set) float64 {
	st := 0.0
	for x := uint32(h); x != 0; x &= x - 1 {
		c := boon.Card(bits.TrailingZeros32(x))
		if c.Suit() == boon.Gold {
			switch r := c.Rank(); {
			case r >= 11:
				st += 2.5
			case r >= 7:
				st += 1.8
			default:
				st += 1
			}
		} else if c.Rank() == 6 {
			st += 0.8
		}
		st += float64(c.Points()) / 20
	}
	return st
}

// Rollout is a cheap greedy policy, a random card one time in ten: take
// the Boon on a strong hand (with some noise), bury the plain card with
// the most points, win a trick with points (or as its last card) with
// the cheapest card that wins, give points to a trick a partner holds,
// else throw the cheapest card; in Least mode, duck with the highest
// card that does not win.
func (b *boonState) Rollout(legal []boon.Action, rng *rand.Rand) boon.Action {
	s := b.s
	me := s.ToMove()
	switch legal[0].Kind {
	case boon.KindTake:
		need := boonTakeNeed[min(max(s.Seats()-3, 0), 2)]
		if pickStrength(s.Hand(me))+rng.Float64()*2-1 >= need {
			return legal[0]
		}
		return legal[1]
	case boon.KindBury:
		best, bestScore := legal[0], -1.0
		for _, a := range legal {
			sc := float64(a.Card.Points())*10 - float64(a.Card.Rank())
			if a.Card.Suit() == boon.Gold {
				sc = -100 - float64(a.Card.Rank())
			}
			if sc > bestScore {
				best, bestScore = a, sc
			}
		}
		return best
	}
	if len(legal) == 1 || rng.IntN(10) == 0 {
		return legal[rng.IntN(len(legal))]
	}
	leader, trick, bi := s.CurrentTrick()
	if len(trick) == 0 {
		return legal[rng.IntN(len(legal))]
	}
	n := s.Seats()
	winning := trick[bi]
	holder := (leader + bi) % n
	pts := 0
	for _, c := range trick {
		pts += c.Points()
	}
	last := len(trick) == n-1
	least := s.Mode() == boon.ModeLeast
	partner := !least && s.Picker() >= 0 && me != s.Picker() && holder != s.Picker()
	// cheapest winning, cheapest, dearest, highest non-winning
	var cheapWin, cheap, dear, duck *boon.Action
	for i := range legal {
		a := &legal[i]
		c := a.Card
		wins := boon.Beats(c, winning)
		key := c.Points()*32 + int(c)
		if wins && (cheapWin == nil || key < cheapWin.Card.Points()*32+int(cheapWin.Card)) {
			cheapWin = a
		}
		if cheap == nil || key < cheap.Card.Points()*32+int(cheap.Card) {
			cheap = a
		}
		if dear == nil || key > dear.Card.Points()*32+int(dear.Card) {
			dear = a
		}
		if !wins && (duck == nil || int(c) > int(duck.Card)) {
			duck = a
		}
	}
	switch {
	case least:
		if duck != nil {
			return *duck
		}
		return *cheap
	case partner:
		return *dear
	case cheapWin != nil && (pts > 0 || last):
		return *cheapWin
	}
	return *cheap
}
