// Package uno is the typed view and actions of Uno and Bounce for Go
// bots (docs/games/uno.md). The view is the engine's own wire type
// (engine/uno.View) with helpers for the hand, the top card and the
// active colour; actions and cards are the engine's (uno.Action,
// uno.Card), so a bot reads exactly what the referee wrote.
//
//	func move(v *uno.View, legal []uno.Action, c *sdk.Context) (int, error) {
//		for i, a := range legal {
//			if a.Type == uno.ActPlay && !a.Card.IsWild() {
//				return i, nil // any coloured card before a draw or a wild
//			}
//		}
//		return 0, nil
//	}
package uno

import (
	"fmt"

	"github.com/arena-dev/arena/engine/uno"
)

// The engine's wire types.
type (
	// Card is one kind of card: Colour() 0-3 (-1 for wilds), Face() 0-12
	// (10 Skip, 11 Reverse, 12 Draw Two; -1 for wilds), Points(), IsWild().
	Card = uno.Card
	// Action is one legal action: Type, Card (play, jump), Colour (the
	// colour a wild names, or the colour action's; -1 none), Target (the
	// seat a 7 swaps with under seven_zero; -1 none), Uno (the call).
	Action = uno.Action
	// ActionType is what an action does (ActPlay, ActDraw, ...).
	ActionType = uno.ActionType
	// Decision is what the seat to move is asked (View.Decision).
	Decision = uno.Decision
	// Event is one thing that happened since the seat's last decision.
	Event = uno.Event
)

// Action types.
const (
	ActPlay      = uno.ActPlay      // play a card from the hand
	ActDraw      = uno.ActDraw      // draw
	ActKeep      = uno.ActKeep      // keep the card just drawn
	ActPass      = uno.ActPass      // pass (nothing to draw, or decline a jump-in)
	ActChallenge = uno.ActChallenge // challenge a Wild Draw Four
	ActAccept    = uno.ActAccept    // take the pending draws
	ActJump      = uno.ActJump      // jump in out of turn with an identical card
	ActCatch     = uno.ActCatch     // catch a seat that forgot the call
	ActColour    = uno.ActColour    // name the colour of a starting Wild
)

// Colours (Card.Colour, Action.Colour) and special cards.
const (
	Red      = uno.Red
	Yellow   = uno.Yellow
	Green    = uno.Green
	Blue     = uno.Blue
	Wild     = uno.Wild
	WildDraw = uno.WildDraw // Wild Draw Four

	FaceSkip    = uno.FaceSkip
	FaceReverse = uno.FaceReverse
	FaceDrawTwo = uno.FaceDrawTwo
)

// ColourNames are the colours' names in JSON, by colour index.
var ColourNames = uno.ColourNames

// ParseCard reads a card's notation: "R7", "GS", "BR", "YD2", "W", "WD4".
func ParseCard(s string) (Card, error) { return uno.ParseCard(s) }

// ParseColour reads a colour's name ("red") as its index (Red).
func ParseColour(s string) (int, error) { return uno.ParseColour(s) }

// MakeCard is the coloured card of colour c (0-3) and face f (0-12).
func MakeCard(c, f int) Card { return uno.MakeCard(c, f) }

// View is what a seat sees of an Uno or Bounce game: the engine's view
// (Hand, Top, Colour, Counts, Decision, ...) with helpers.
type View struct {
	uno.View
}

// Me is this seat (-1 in a spectator's view).
func (v *View) Me() int {
	if v.You == nil {
		return -1
	}
	return *v.You
}

// HandCards is the seat's hand as cards.
func (v *View) HandCards() []Card { return cards(v.Hand) }

// TopCard is the top card of the discard pile.
func (v *View) TopCard() Card {
	c, err := ParseCard(v.Top)
	if err != nil {
		return uno.NoCard
	}
	return c
}

// ActiveColour is the colour to match (0-3), or -1 before a starting
// Wild's colour is named.
func (v *View) ActiveColour() int {
	if v.Colour == nil {
		return -1
	}
	c, err := ParseColour(*v.Colour)
	if err != nil {
		return -1
	}
	return c
}

// DiscardCards is the discard pile as cards, bottom first.
func (v *View) DiscardCards() []Card { return cards(v.Discard) }

// Next is the seat that plays after this one in the direction of play,
// skipping seats that are out of the hand.
func (v *View) Next() int {
	n, me := len(v.Counts), v.Me()
	if n == 0 {
		return -1
	}
	q := max(me, 0)
	for range n {
		q = ((q+v.Direction)%n + n) % n
		if q != me && v.Counts[q] > 0 {
			return q
		}
	}
	return q
}

// Matches reports whether c may be played on the top card under the
// active colour, by the basic rule: the same colour, the same face, or a
// wild. The legal actions say what may really be played (draws pending,
// jump-ins and the house rules included).
func (v *View) Matches(c Card) bool {
	top := v.TopCard()
	return c.IsWild() || c.Colour() == v.ActiveColour() || (top != uno.NoCard && !top.IsWild() && c.Face() == top.Face())
}

func cards(names []string) []Card {
	out := make([]Card, 0, len(names))
	for _, s := range names {
		if c, err := ParseCard(s); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// Describe is an action in words for logs: "play R7", "play W naming
// blue", "draw".
func Describe(a Action) string {
	switch a.Type {
	case ActPlay, ActJump:
		s := fmt.Sprintf("%s %s", map[ActionType]string{ActPlay: "play", ActJump: "jump in with"}[a.Type], a.Card)
		if a.Colour >= 0 && a.Colour < 4 {
			s += " naming " + ColourNames[a.Colour]
		}
		if a.Target >= 0 {
			s += fmt.Sprintf(", swapping with seat %d", a.Target)
		}
		if a.Uno {
			s += ", calling uno"
		}
		return s
	}
	return a.String()
}
