package ismcts

import (
	"math"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/uno"
)

// unoGame is a seat's information set at its decision: the engine's
// observer of its views deals the determinizations (engine.Sampler).
type unoGame struct {
	obs    engine.Observer
	greedy bool // greedy's rules in the playouts (unoState.Rollout)
	seats  int
}

func (g *unoGame) Seats() int { return g.seats }

// Determinize is a state sampled from the seat's views: the unseen cards
// dealt uniformly over those that fit them, and the draw pile's order.
func (g *unoGame) Determinize(rng *rand.Rand) State[uno.Action] {
	st, err := g.obs.Sample(rng)
	if err != nil {
		return nil
	}
	s := st.(*uno.State)
	return &unoState{s: s, hand: s.HandNo(), single: s.Rules().SingleHandGame(), greedy: g.greedy}
}

// unoState is a determinization played to the end of the hand.
type unoState struct {
	s      *uno.State
	hand   int
	single bool
	greedy bool
}

func (u *unoState) ToMove() int                         { return u.s.ToMove() }
func (u *unoState) Legal(dst []uno.Action) []uno.Action { return u.s.AppendLegal(dst) }
func (u *unoState) Done() bool                          { return u.s.Over() || u.s.HandNo() != u.hand }
func (u *unoState) Apply(a uno.Action) {
	if err := u.s.Play(a); err != nil {
		panic(err)
	}
}

// Rewards: a single-hand game by its ranks; in a game of several hands
// the hand's winner 1 (a little more for the points it scores, under
// winner_collects), the others 0 (a little more for fewer penalty
// points, under penalty_low_wins). A hand cut short: the fewer cards a
// seat holds, the better.
func (u *unoState) Rewards(dst []float64) {
	n := u.s.Seats()
	for i := range dst {
		dst[i] = 0
	}
	if !u.Done() {
		tot := 0.0
		for i := range n {
			dst[i] = 1 / float64(1+u.s.Count(i))
			tot += dst[i]
		}
		for i := range n {
			dst[i] /= tot
		}
		return
	}
	if u.single && u.s.Over() {
		o := u.s.Outcome()
		if len(o.Ranks) == n {
			for i, r := range o.Ranks {
				switch {
				case r == 1:
					dst[i] = 1
				case u.s.Rules().PlayToLast:
					dst[i] = float64(n-r) / float64(n-1)
				}
			}
			return
		}
	}
	hs := u.s.Hands()
	if len(hs) == 0 {
		return
	}
	hr := hs[len(hs)-1]
	r := u.s.Rules()
	for i := range n {
		switch {
		case i == hr.Winner && r.Scoring == uno.WinnerCollects:
			dst[i] = 0.8 + 0.2*min(float64(hr.Points[i]), 200)/200
		case i == hr.Winner:
			dst[i] = 1
		case r.Scoring == uno.PenaltyLowWins:
			dst[i] = 0.2 * (1 - min(float64(hr.Points[i]), 200)/200)
		}
	}
}

// Rollout is a sensible cheap policy, close to greedy's: catch when
// offered, play a coloured card when there is one (with the call), a
// wild only when there is not, naming the colour the player holds most
// of; accept pending draws (challenge one time in four), draw only with
// nothing to play.
func (u *unoState) Rollout(legal []uno.Action, rng *rand.Rand) uno.Action {
	if legal[0].Type == uno.ActCatch {
		return legal[0]
	}
	if u.greedy {
		return u.greedyRollout(legal, rng)
	}
	var plays, wilds [64]int
	k, w := 0, 0
	for i, a := range legal {
		if a.Type == uno.ActPlay || a.Type == uno.ActJump {
			if a.Card.IsWild() {
				if w < len(wilds) {
					wilds[w] = i
					w++
				}
			} else if k < len(plays) {
				plays[k] = i
				k++
			}
		}
	}
	if k > 0 {
		return legal[plays[rng.IntN(k)]]
	}
	if w > 0 {
		// The colour held most (ties at random).
		p := u.s.ToMove()
		var held [4]int
		for c := range uno.Card(uno.Wild) {
			held[c.Colour()] += u.s.Holds(p, c)
		}
		best, bi, ties := -1, 0, 0
		for i := range w {
			col := int(legal[wilds[i]].Colour)
			if col < 0 || col > 3 {
				continue
			}
			switch {
			case held[col] > best:
				best, bi, ties = held[col], i, 1
			case held[col] == best:
				ties++
				if rng.IntN(ties) == 0 {
					bi = i
				}
			}
		}
		return legal[wilds[bi]]
	}
	last := legal[len(legal)-1]
	if last.Type == uno.ActAccept && len(legal) >= 2 && legal[len(legal)-2].Type == uno.ActChallenge && rng.IntN(4) == 0 {
		return legal[len(legal)-2]
	}
	if legal[0].Type == uno.ActColour {
		return legal[rng.IntN(len(legal))]
	}
	return last // draw, keep, accept or pass
}

// greedyRollout plays as the greedy bot (bots.GreedyUno) does, from the
// state instead of a view: shed the card worth most (action cards, then
// high numbers) in the colour held most, attack the next seat with a
// Skip, Reverse or Draw Two when it holds two cards or fewer, keep the
// wilds for need (a Wild Draw Four for a next seat about to go out),
// name the colour held most, swap with the smallest hand, always make
// the call; challenge three times in four (greedy challenges a Wild Draw
// Four from a hand of two or more), draw only with nothing to play.
// Ties at random.
func (u *unoState) greedyRollout(legal []uno.Action, rng *rand.Rand) uno.Action {
	s := u.s
	p := s.ToMove()
	var held [4]int
	for c := range uno.Card(uno.Wild) {
		held[c.Colour()] += s.Holds(p, c)
	}
	left := s.Count(p) - 1
	nextCount := s.Count(s.Next(p))
	bi, best, ties := 0, math.Inf(-1), 0
	for i, a := range legal {
		var sc float64
		switch a.Type {
		case uno.ActColour:
			sc = float64(held[a.Colour])
		case uno.ActChallenge:
			sc = -50
			if rng.IntN(4) != 0 {
				sc = 50
			}
		case uno.ActAccept:
			sc = 0
		case uno.ActKeep:
			sc = -100
		case uno.ActDraw, uno.ActPass:
			sc = -200
		case uno.ActPlay, uno.ActJump:
			c := a.Card
			sc = float64(c.Points())
			switch {
			case c.IsWild():
				sc = -60 + sc/10
				if left <= 1 {
					sc = 60
				}
				if c == uno.WildDraw && nextCount <= 2 {
					sc = 80
				}
				if a.Colour >= 0 && a.Colour < 4 {
					sc += 3 * float64(held[a.Colour])
				}
			default:
				sc += 2 * float64(held[c.Colour()]-1)
				if f := c.Face(); nextCount <= 2 && (f == uno.FaceSkip || f == uno.FaceDrawTwo || f == uno.FaceReverse) {
					sc += 40
				}
				if a.Target >= 0 && int(a.Target) < s.Seats() {
					sc += 3 * float64(left-s.Count(int(a.Target)))
				}
			}
			if a.Type == uno.ActJump {
				sc += 500
			}
			if a.Uno {
				sc += 1000 // never forget the call
			}
		}
		switch {
		case sc > best:
			bi, best, ties = i, sc, 1
		case sc == best:
			ties++
			if rng.IntN(ties) == 0 {
				bi = i
			}
		}
	}
	return legal[bi]
}
