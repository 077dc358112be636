package ismcts

import (
	"fmt"
	"math"
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
	opt    BoonOptions
	// What the pick showed, for BoonOptions.Infer: the seats that passed
	// (in order) and the cards each seat played this round.
	passed []int
	played []boon.Set
	// The picker's cards, scratch for drawing its Boon (pickLikelihood).
	cand []boon.Card
}

// BoonOptions are the Boon-only choices of a search (Config.Boon).
type BoonOptions struct {
	// Infer weighs each determinization by how likely the seats' pick
	// actions are given their dealt hands: a seat that passed the Boon
	// rarely held a hand above greedy's take bar, the picker rarely one
	// below it, and its burial is greedy's choice more often than not
	// (sampling-importance-resampling over InferDeals deals).
	Infer      bool
	InferDeals int
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
	g := &boonGame{me: me, vc: v.VC, sizes: make([]int, n), void: make([]boon.Set, n), played: make([]boon.Set, n), passed: v.Passed}
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
			g.played[q] |= 1 << c
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
// voids respected, and the rest face down (the Boon or the burial); with
// BoonOptions.Infer, one of InferDeals such deals drawn with probability
// proportional to its likelihood (pickLikelihood).
func (g *boonGame) Determinize(rng *rand.Rand) State[boon.Action] {
	hands, hidden, ok := g.deal(rng)
	if !ok {
		return nil
	}
	if g.opt.Infer && (len(g.passed) > 0 || g.pos.Picker >= 0 && g.pos.Picker != g.me) {
		// Sampling-importance-resampling, one pass: each new deal
		// replaces the kept one with probability its weight over the
		// total so far, so that the deal kept is drawn in proportion to
		// its weight.
		total := g.pickLikelihood(&hands, hidden, rng)
		for range max(g.opt.InferDeals, 1) - 1 {
			h, hid, ok := g.deal(rng)
			if !ok {
				continue
			}
			w := g.pickLikelihood(&h, hid, rng)
			total += w
			if rng.Float64()*total < w {
				hands, hidden = h, hid
			}
		}
	}
	n := g.pos.Seats
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

// deal deals the unseen cards once, the voids respected: the cards of
// a suit some seat is void in first, each to a pile that may hold it
// with a chance in proportion to its room, then the others in shuffled
// order to the room left. A deal that paints itself into a corner is
// retried; after a few tries the voids are dropped.
func (g *boonGame) deal(rng *rand.Rand) (hands [boon.MaxSeats]boon.Set, hidden boon.Set, ok bool) {
	n := g.pos.Seats
	var voids boon.Set
	for q := range n {
		voids |= g.void[q]
	}
	for try := 0; ; try++ {
		pool := append(g.buf[:0], g.pool...)
		g.buf = pool
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		var left [boon.MaxSeats + 1]int
		copy(left[:], g.sizes)
		left[n] = g.hidden
		hands, hidden = [boon.MaxSeats]boon.Set{}, 0
		ok = true
		give := func(q int, c boon.Card) {
			left[q]--
			if q == n {
				hidden |= 1 << c
			} else {
				hands[q] |= 1 << c
			}
		}
		free := pool[:0] // the cards no void concerns, in shuffled order
		for _, c := range pool {
			if try >= 20 || voids&(1<<c) == 0 {
				free = append(free, c)
				continue
			}
			// Candidate piles: seats with room not void in c's suit, the
			// face-down pile.
			tot := 0
			for q := range n + 1 {
				if left[q] > 0 && (q == n || g.void[q]&(1<<c) == 0) {
					tot += left[q]
				}
			}
			if tot == 0 {
				ok = false
				break
			}
			k := rng.IntN(tot)
			for q := range n + 1 {
				if left[q] > 0 && (q == n || g.void[q]&(1<<c) == 0) {
					if k < left[q] {
						give(q, c)
						break
					}
					k -= left[q]
				}
			}
		}
		if ok {
			q := 0
			for _, c := range free {
				for left[q] == 0 {
					q++
				}
				give(q, c)
			}
			return hands, hidden, true
		}
		if try > 40 {
			return hands, hidden, false
		}
	}
}

// The model of the other seats' pick behind BoonOptions.Infer: a seat
// takes with probability logistic((strength - bar) / takeSpread), and
// the picker buries card by card with probability proportional to
// exp(greedy's burial score / burySpread). No factor is below
// likelihoodFloor, so that a seat that plays otherwise (a search's
// take, a human's) leaves the deals no worse than uninformed.
const (
	takeSpread      = 0.5
	burySpread      = 2.0
	likelihoodFloor = 0.02
)

// pickLikelihood is the likelihood of the pick and burial seen, given a
// deal: the seats that passed held hands (their cards now and those they
// played) below the take bar, the picker's hand before the take above
// it (its Boon drawn at random from its cards), and its burial is one
// greedy might have made.
func (g *boonGame) pickLikelihood(hands *[boon.MaxSeats]boon.Set, hidden boon.Set, rng *rand.Rand) float64 {
	n := g.pos.Seats
	l := 1.0
	bar := func(i int) float64 { return TakeBar(n, i == n-1) } // the i-th seat asked, from the dealer's left
	for i, q := range g.passed {
		if q != g.me {
			l *= max(1-takeProb(PickStrength(hands[q]|g.played[q]), bar(i)), likelihoodFloor)
		}
	}
	if p := g.pos.Picker; p >= 0 && p != g.me {
		all := hands[p] | g.played[p] | hidden
		g.cand = g.cand[:0]
		for x := uint32(all); x != 0; x &= x - 1 {
			g.cand = append(g.cand, boon.Card(bits.TrailingZeros32(x)))
		}
		before := all
		for k := range g.hidden { // a random Boon of its cards
			j := k + rng.IntN(len(g.cand)-k)
			g.cand[k], g.cand[j] = g.cand[j], g.cand[k]
			before &^= 1 << g.cand[k]
		}
		l *= max(takeProb(PickStrength(before), bar(len(g.passed))), likelihoodFloor)
		l *= max(buryLikelihood(all, hidden), likelihoodFloor)
	}
	return l
}

func takeProb(strength, bar float64) float64 {
	return 1 / (1 + math.Exp(-(strength-bar)/takeSpread))
}

// buryLikelihood is the probability that a picker holding hand buries
// burial, one card at a time, each with probability proportional to
// exp(BuryScore / burySpread), taking the burial's cards in their most
// likely order (not summed over the orders: the weight only ranks deals).
func buryLikelihood(hand, burial boon.Set) float64 {
	l := 1.0
	for burial != 0 {
		var sum, best float64
		bestCard := boon.Card(0)
		for x := uint32(hand); x != 0; x &= x - 1 {
			c := boon.Card(bits.TrailingZeros32(x))
			w := buryWeights[c][(hand & boon.SuitSet(c.Suit())).Len()]
			sum += w
			if burial&(1<<c) != 0 && w > best {
				best, bestCard = w, c
			}
		}
		l *= best / sum
		hand &^= 1 << bestCard
		burial &^= 1 << bestCard
	}
	return l
}

// buryWeights[c][k] is exp(BuryScore / burySpread) of card c in a hand
// holding k cards of its suit.
var buryWeights = func() (w [boon.NumCards][boon.NumCards + 1]float64) {
	for c := range boon.Card(boon.NumCards) {
		for k := 1; k <= boon.NumCards; k++ {
			hand := boon.Set(1) << c
			for x := boon.Card(0); x < boon.NumCards && hand.Len() < k; x++ {
				if x.Suit() == c.Suit() {
					hand |= 1 << x
				}
			}
			w[c][k] = math.Exp(BuryScore(hand, c) / burySpread)
		}
	}
	return w
}()

// BuryScore is greedy's preference for burying c from hand: the plain
// cards with the most points (banked for the picker, out of the
// defence's reach), short suits first (a void lets the picker trump);
// Golds last (if one must go, the one worth most points and least rank).
func BuryScore(hand boon.Set, c boon.Card) float64 {
	if c.Suit() == boon.Gold {
		return -100 + float64(c.Points()) - float64(c.Rank())/2
	}
	n := (hand & boon.SuitSet(c.Suit())).Len()
	return float64(c.Points())*2 + 3/float64(n) - float64(c.Rank())/10
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

// boonTakeNeed is the pick strength (PickStrength) at which greedy takes
// the Boon, for 3, 4 and 5 seats (TakeBar).
var boonTakeNeed = [3]float64{9, 7, 6.5}

// TakeBar is the PickStrength at which greedy takes the Boon at seats
// seats; the dealer, asked last, takes half a point below it (its pass
// means Least mode).
func TakeBar(seats int, dealer bool) float64 {
	bar := boonTakeNeed[min(max(seats-3, 0), 2)]
	if dealer {
		bar -= 0.5
	}
	return bar
}

// PickStrength scores a hand for taking the Boon (greedy's rule, and
// the playouts'): Golds, the higher the better, plain 6s, and points.
func PickStrength(h boon.Set) float64 {
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
		if PickStrength(s.Hand(me))+rng.Float64()*2-1 >= TakeBar(s.Seats(), false) {
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
