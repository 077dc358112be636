package bots

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/arena-dev/arena/bots/ismcts"
	"github.com/arena-dev/arena/engine/boon"
)

// GreedyBoon picks a Boon action from what a bot receives over the wire:
// the view JSON and the legal action list. It takes the Boon on a strong
// hand (high Golds and points), buries high-point plain cards (banking
// points the defence could otherwise catch, shortening suits), wins tricks
// with the cheapest card that wins, smears points onto a trick its team
// already holds, throws its cheapest card when it cannot win, and in Least
// mode ducks (while trying to take one cheap trick, since a seat with no
// trick cannot win). Ties are broken at random. It returns the index into
// legal.
func GreedyBoon(view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error) {
	v, acts, err := decodeTurn[boon.View]("boon", view, legal, boon.ParseAction)
	if err != nil {
		return 0, err
	}
	g, err := newBoonGreedy(v)
	if err != nil {
		return 0, err
	}
	return bestIndex(len(acts), func(i int) float64 { return g.score(acts[i]) }, rng), nil
}

type boonGreedy struct {
	v      *boon.View
	hand   boon.Set
	seen   boon.Set // cards known not to be in other hands: played, own hand, own burial
	trick  []boon.Card
	best   boon.Card // winning card of the current trick so far
	after  int       // seats still to play after this one in the trick
	golds  int
	strong float64 // hand strength for the pick
}

func cardsOf(xs []string) (boon.Set, []boon.Card, error) {
	var s boon.Set
	var l []boon.Card
	for _, x := range xs {
		c, err := boon.ParseCard(x)
		if err != nil {
			return 0, nil, fmt.Errorf("greedy boon: view card: %w", err)
		}
		s |= boon.SetOf(c)
		l = append(l, c)
	}
	return s, l, nil
}

func newBoonGreedy(v *boon.View) (*boonGreedy, error) {
	g := &boonGreedy{v: v}
	var err error
	if g.hand, _, err = cardsOf(v.Hand); err != nil {
		return nil, err
	}
	buried, _, err := cardsOf(v.Buried)
	if err != nil {
		return nil, err
	}
	g.seen = g.hand | buried
	for _, t := range v.Tricks {
		s, _, err := cardsOf(t.Cards)
		if err != nil {
			return nil, err
		}
		g.seen |= s
	}
	var cur boon.Set
	if cur, g.trick, err = cardsOf(v.Trick.Cards); err != nil {
		return nil, err
	}
	g.seen |= cur
	if len(g.trick) > 0 {
		g.best = g.trick[(v.Trick.Winner-v.Trick.Leader+v.Seats)%v.Seats]
	}
	g.after = v.Seats - len(g.trick) - 1
	g.golds = (g.hand & boon.SuitSet(boon.Gold)).Len()
	g.strong = ismcts.PickStrength(g.hand)
	return g, nil
}

// partnerWinning: the trick so far is held by this seat's team (a
// defender holding it while the picker already played, or later plays).
func (g *boonGreedy) partnerWinning() bool {
	v := g.v
	if len(g.trick) == 0 || v.Mode != "picker" || v.Team != "defender" {
		return false
	}
	return v.Trick.Winner != v.Picker
}

// pickerStillToPlay: the picker plays after this seat in the trick.
func (g *boonGreedy) pickerStillToPlay() bool {
	v := g.v
	for k := 1; k <= g.after; k++ {
		if (v.Seat+k)%v.Seats == v.Picker {
			return true
		}
	}
	return false
}

// topGold: c is a Gold higher than every Gold not yet seen.
func (g *boonGreedy) topGold(c boon.Card) bool {
	if c.Suit() != boon.Gold {
		return false
	}
	for r := c.Rank() + 1; r <= 14; r++ {
		if !g.seen.Has(boon.MakeCard(boon.Gold, r)) {
			return false
		}
	}
	return true
}

// strength of a card for winning: Golds above every plain card.
func strength(c boon.Card) float64 {
	if c.Suit() == boon.Gold {
		return 10 + float64(c.Rank())
	}
	return float64(c.Rank())
}

func (g *boonGreedy) score(a boon.Action) float64 {
	v := g.v
	switch a.Kind {
	case boon.KindTake:
		return g.strong - ismcts.TakeBar(v.Seats, len(v.Passed) == v.Seats-1 && v.Mode == "pick")
	case boon.KindPass:
		return 0
	case boon.KindBury:
		return ismcts.BuryScore(g.hand, a.Card)
	case boon.KindPlay:
		if v.Mode == "least" {
			return g.leastScore(a.Card)
		}
		return g.playScore(a.Card)
	}
	return 0
}

// playScore: normal (picker) rounds.
func (g *boonGreedy) playScore(c boon.Card) float64 {
	v := g.v
	pts := float64(c.Points())
	if len(g.trick) == 0 { // leading
		if v.Team == "picker" {
			if c.Suit() == boon.Gold {
				if g.topGold(c) {
					return 20 + strength(c)/10
				}
				if g.golds >= 3 {
					return 5 + strength(c)/10 // pull trumps with the big ones
				}
				return -strength(c) / 10
			}
			return 1 - pts/5 - strength(c)/10
		}
		// Defender: lead plain suits, the top of a suit if it is safe-ish,
		// else low; keep Golds.
		if c.Suit() == boon.Gold {
			return -10 - strength(c)/10
		}
		return 1 - pts/10 + boolF(c.Rank() == 6)*0.5 - strength(c)/20
	}
	wins := boon.Beats(c, g.best)
	trickPts := float64(v.Trick.Points)
	if g.partnerWinning() && (!g.pickerStillToPlay() || g.topGold(g.best)) {
		// Smear: points onto the team's trick, without wasting Golds.
		return pts - boolF(c.Suit() == boon.Gold)*(3+strength(c)/10)
	}
	if wins && (v.Team == "picker" || !g.partnerWinning()) {
		// Win cheaply: the lowest winner, worth more with points on the
		// table. While an opponent still plays after us, prefer a card it
		// cannot beat and distrust a plain winner (it may be trumped).
		val := 5 + trickPts/5 + pts/5 - strength(c)/5
		threatened := g.after > 0 && (v.Team == "picker" || g.pickerStillToPlay())
		if threatened {
			if g.topGold(c) {
				val += 3
			} else if c.Suit() != boon.Gold {
				val -= 2
			}
		}
		return val
	}
	// Cannot (or need not) win: throw the cheapest card, plain before Gold.
	return -pts - strength(c)/10 - boolF(c.Suit() == boon.Gold)*3
}

// leastScore: Least mode, fewest points among trick takers wins. Duck,
// dumping high cards and points onto others' tricks, but take one cheap
// trick when none is taken yet.
func (g *boonGreedy) leastScore(c boon.Card) float64 {
	v := g.v
	pts := float64(c.Points())
	mine := v.TricksWon[v.Seat]
	left := v.TricksPerRound - len(v.Tricks)
	if len(g.trick) == 0 {
		// Leading: the lowest card of the suit, few points.
		return -strength(c) - pts/2
	}
	wins := boon.Beats(c, g.best)
	trickPts := float64(v.Trick.Points)
	if wins {
		if mine == 0 && g.after == 0 && trickPts+pts <= 4 {
			return 50 - trickPts - pts // a cheap first trick makes us eligible
		}
		if mine == 0 && left <= 2 && g.after == 0 {
			return 30 - trickPts - pts
		}
		// Winning against our will: at least shed the big card, few points.
		return -20 - trickPts - pts + strength(c)/5
	}
	// Ducking: dump the highest card and the most points on someone else.
	return strength(c)/2 + pts
}

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
