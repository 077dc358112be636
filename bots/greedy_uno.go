package bots

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine/uno"
)

// GreedyUno picks an Uno (or Bounce) action from what a bot receives over
// the wire: the view JSON and the legal action list. It catches a
// forgotten call whenever it can, always makes the call, jumps in, plays
// a playable drawn card, stacks or deflects pending draws, and challenges
// a Wild Draw Four when a bluff is likely (the chance that the player held
// a card of the previous colour, estimated from the unseen cards, is above
// 40%). Otherwise it sheds the most valuable card (action cards, then high
// numbers), keeps Wilds for when nothing else plays, attacks the next
// player with Skip/Draw Two/Reverse when that player is close to going out,
// prefers colours it holds many of, names the colour it holds most, and
// swaps hands (seven_zero) with the seat holding the fewest cards. Ties
// are broken at random. It returns the index into legal.
func GreedyUno(view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error) {
	v, acts, err := decodeTurn[uno.View]("uno", view, legal, uno.ParseAction)
	if err != nil {
		return 0, err
	}
	calls := map[uno.Action]bool{}
	for _, a := range acts {
		if a.Uno {
			b := a
			b.Uno = false
			calls[b] = true
		}
	}
	g := unoGreedy{v: *v}
	for _, s := range v.Hand {
		c, err := uno.ParseCard(s)
		if err != nil {
			return 0, fmt.Errorf("greedy uno: view hand: %w", err)
		}
		g.hand = append(g.hand, c)
		if col := c.Colour(); col >= 0 {
			g.byColour[col]++
		}
	}
	return bestIndex(len(acts), func(i int) float64 {
		sc := g.score(acts[i])
		if calls[acts[i]] { // the same play without the call: never forget it
			sc -= 1000
		}
		return sc
	}, rng), nil
}

type unoGreedy struct {
	v        uno.View
	hand     []uno.Card
	byColour [4]int
}

// next is the seat after us in the direction of play, skipping seats out.
func (g *unoGreedy) next() int {
	n := len(g.v.Counts)
	me := 0
	if g.v.You != nil {
		me = *g.v.You
	}
	q := me
	for range n {
		q = ((q+g.v.Direction)%n + n) % n
		if g.v.Counts[q] > 0 && q != me {
			return q
		}
	}
	return q
}

// bluffOdds estimates the chance that the seat that played the Wild Draw
// Four held a card of the previous colour: 1-(1-f)^h with f the share of
// that colour among the cards we have not seen and h its other cards.
func (g *unoGreedy) bluffOdds(d *uno.Decision) float64 {
	prev, err := uno.ParseColour(d.PrevColour)
	if err != nil || d.From == nil {
		return 0
	}
	seen := [4]int{}
	total := len(g.hand) + len(g.v.Discard)
	for _, c := range g.hand {
		if col := c.Colour(); col >= 0 {
			seen[col]++
		}
	}
	for _, s := range g.v.Discard {
		if c, err := uno.ParseCard(s); err == nil && c.Colour() >= 0 {
			seen[c.Colour()]++
		}
	}
	unseen := uno.DeckSize - total
	if unseen <= 0 {
		return 0
	}
	f := float64(25-seen[prev]) / float64(unseen)
	h := g.v.Counts[*d.From]
	return 1 - math.Pow(1-max(0, min(1, f)), float64(h))
}

func (g *unoGreedy) score(a uno.Action) float64 {
	d := g.v.Decision
	switch a.Type {
	case uno.ActCatch:
		return 1e6
	case uno.ActColour:
		return float64(g.byColour[a.Colour])
	case uno.ActJump:
		return 500 + g.playScore(a)
	case uno.ActChallenge:
		if d != nil && g.bluffOdds(d) > 0.4 {
			return 50
		}
		return -50
	case uno.ActAccept:
		return 0
	case uno.ActKeep:
		return -100
	case uno.ActDraw, uno.ActPass:
		return -200
	case uno.ActPlay:
		if d != nil && d.Kind == "pending" {
			return 100 + g.playScore(a) // stack or deflect: pass the draws on
		}
		if d != nil && d.Kind == "drawn" {
			return 100 + g.playScore(a)
		}
		return g.playScore(a)
	}
	return 0
}

// playScore rates playing a card.
func (g *unoGreedy) playScore(a uno.Action) float64 {
	c := a.Card
	sc := float64(c.Points())
	left := len(g.hand) - 1
	nextCount := 99
	if nx := g.next(); nx < len(g.v.Counts) {
		nextCount = g.v.Counts[nx]
	}
	if c.IsWild() {
		// Keep wilds for need: below any coloured play, unless going out
		// soon or the next player is about to.
		sc = -60 + float64(c.Points())/10
		if left <= 1 {
			sc = 60
		}
		if c == uno.WildDraw && nextCount <= 2 {
			sc = 80
		}
		// Name the colour held most (after this play).
		sc += 3 * float64(g.byColour[a.Colour])
		return sc
	}
	col, face := c.Colour(), c.Face()
	// Colour continuity: the rest of the hand in the colour we leave.
	sc += 2 * float64(g.byColour[col]-1)
	if nextCount <= 2 && (face == uno.FaceSkip || face == uno.FaceDrawTwo || face == uno.FaceReverse) {
		sc += 40
	}
	if a.Target >= 0 && int(a.Target) < len(g.v.Counts) {
		// seven_zero: swap with the smallest hand.
		sc += 3 * float64(left-g.v.Counts[a.Target])
	}
	return sc
}
