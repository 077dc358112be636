package ismcts

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
)

// boonGame is a Boon seat's information set at its decision: the
// engine's observer of its views deals the determinizations
// (engine.Sampler), and with BoonOptions.Infer this weighs them by what
// the pick showed.
type boonGame struct {
	obs    engine.Observer
	me, n  int
	vc     []int
	maxWin float64
	opt    BoonOptions
	// What the pick showed, for BoonOptions.Infer: the seats that passed
	// (in order), the picker, the cards each seat played this round, and
	// how many cards the Boon holds.
	passed   []int
	picker   int
	played   [boon.MaxSeats]boon.Set
	boonSize int
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

// newBoonGame is the information set of the seat whose last view,
// observed by obs, is v.
func newBoonGame(obs engine.Observer, v *boon.View, opt BoonOptions) *boonGame {
	g := &boonGame{obs: obs, me: v.Seat, n: v.Seats, vc: v.VC, opt: opt, passed: v.Passed, picker: v.Picker, boonSize: v.BoonSize,
		// A picker's round moves up to 2 VC per defender (3 under the
		// sheepshead tiers); scaled so that a defender's 2 is most of
		// the range, the picker's greater swings clipped.
		maxWin: 3}
	for _, t := range append(slices.Clone(v.Tricks), v.Trick) {
		for i, cs := range t.Cards {
			if c, err := boon.ParseCard(cs); err == nil && g.n > 0 {
				g.played[(t.Leader+i)%g.n] |= boon.SetOf(c)
			}
		}
	}
	return g
}

func (g *boonGame) Seats() int { return g.n }

// Determinize is a state sampled from the seat's views: the unseen cards
// dealt uniformly over the deals that fit every void a seat showed; with
// BoonOptions.Infer, one of InferDeals such deals drawn with
// probability proportional to its likelihood (pickLikelihood), and only
// that one made a state.
func (g *boonGame) Determinize(rng *rand.Rand) State[boon.Action] {
	ob, ok := g.obs.(*boon.Observer)
	if !ok {
		return nil
	}
	d, err := ob.DealHidden(rng)
	if err != nil {
		return nil
	}
	if g.opt.Infer && (len(g.passed) > 0 || g.picker >= 0 && g.picker != g.me) {
		// Sampling-importance-resampling, one pass: each new deal
		// replaces the kept one with probability its weight over the
		// total so far, so that the deal kept is drawn in proportion to
		// its weight.
		total := g.pickLikelihood(&d, rng)
		for range max(g.opt.InferDeals, 1) - 1 {
			x, err := ob.DealHidden(rng)
			if err != nil {
				continue
			}
			w := g.pickLikelihood(&x, rng)
			total += w
			if rng.Float64()*total < w {
				d = x
			}
		}
	}
	s := ob.StateOf(d, rng)
	return &boonState{s: s, round: s.Round(), vc: g.vc, maxWin: g.maxWin}
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
func (g *boonGame) pickLikelihood(d *boon.Deal, rng *rand.Rand) float64 {
	l := 1.0
	bar := func(i int) float64 { return TakeBar(g.n, i == g.n-1) } // the i-th seat asked, from the dealer's left
	for i, q := range g.passed {
		if q != g.me {
			l *= max(1-takeProb(PickStrength(d.Hands[q]|g.played[q]), bar(i)), likelihoodFloor)
		}
	}
	if p := g.picker; p >= 0 && p != g.me {
		all := d.Hands[p] | g.played[p] | d.FaceDown // the burial is face down
		g.cand = g.cand[:0]
		for x := uint32(all); x != 0; x &= x - 1 {
			g.cand = append(g.cand, boon.Card(bits.TrailingZeros32(x)))
		}
		before := all
		for k := range g.boonSize { // a random Boon of its cards
			j := k + rng.IntN(len(g.cand)-k)
			g.cand[k], g.cand[j] = g.cand[j], g.cand[k]
			before &^= 1 << g.cand[k]
		}
		l *= max(takeProb(PickStrength(before), bar(len(g.passed))), likelihoodFloor)
		l *= max(buryLikelihood(all, d.FaceDown), likelihoodFloor)
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
