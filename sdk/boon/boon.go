// Package boon is the typed view and actions of Boon for Go bots
// (docs/games/boon.md). The view is the engine's own wire type
// (engine/boon.View) with helpers for the hand and the trick; actions,
// cards and card sets are the engine's (boon.Action, boon.Card,
// boon.Set), so a bot reads exactly what the referee wrote.
//
//	func move(v *boon.View, legal []boon.Action, c *sdk.Context) (int, error) {
//		for i, a := range legal {
//			if a.Kind == boon.KindPlay && a.Card.Suit() == boon.Gold {
//				return i, nil // a Gold whenever one may be played
//			}
//		}
//		return c.Rand.IntN(len(legal)), nil
//	}
package boon

import "github.com/arena-dev/arena/engine/boon"

// The engine's wire types.
type (
	// Card is one of the 32 cards: Suit(), Rank() (1-6, Gold 1-14),
	// Points(); in JSON its notation, "B5", "Au14".
	Card = boon.Card
	// Suit is Blue, Green, Red or Gold (trumps).
	Suit = boon.Suit
	// Set is a set of cards (a bit set): Has, Len, Points, Cards.
	Set = boon.Set
	// Action is one legal action: Kind (KindTake, KindPass, KindBury,
	// KindPlay) and Card (bury, play).
	Action = boon.Action
	// Kind is what an action does.
	Kind = boon.Kind
	// Trick is a trick: Leader, Led suit code, Cards in play order, Winner
	// so far, Points.
	Trick = boon.Trick
	// Event is one public event.
	Event = boon.Event
	// RoundResult is the last round's result.
	RoundResult = boon.RoundResult
)

// Action kinds, suits and sizes.
const (
	KindTake = boon.KindTake // take the Boon
	KindPass = boon.KindPass // pass the Boon on
	KindBury = boon.KindBury // (picker) bury a card
	KindPlay = boon.KindPlay // play a card to the trick

	Blue  = boon.Blue
	Green = boon.Green
	Red   = boon.Red
	Gold  = boon.Gold

	NoCard = boon.NoCard
)

// ParseCard reads a card's notation ("B5", "Au14").
func ParseCard(s string) (Card, error) { return boon.ParseCard(s) }

// MakeCard is the card of suit s and rank r (1-6, Gold 1-14).
func MakeCard(s Suit, r int) Card { return boon.MakeCard(s, r) }

// SetOf is the set of the cards cs.
func SetOf(cs ...Card) Set { return boon.SetOf(cs...) }

// Beats reports whether c, played to a trick whose best card so far is
// best, takes the lead: a Gold beats any plain card and a lower Gold; a
// card of best's plain suit beats it if higher.
func Beats(c, best Card) bool { return boon.Beats(c, best) }

// View is what a seat sees of a Boon game: the engine's view (Hand,
// Trick, Mode, Team, Picker, ...) with helpers.
type View struct {
	boon.View
}

// HandCards is the seat's hand as cards.
func (v *View) HandCards() []Card { return cards(v.Hand) }

// HandSet is the seat's hand as a set.
func (v *View) HandSet() Set { return SetOf(v.HandCards()...) }

// TrickCards is the current trick's cards, in play order from the leader.
func (v *View) TrickCards() []Card { return cards(v.Trick.Cards) }

// Winning is the card winning the current trick so far (NoCard before
// its first card).
func (v *View) Winning() Card {
	t := v.TrickCards()
	if len(t) == 0 || v.Seats == 0 {
		return NoCard
	}
	return t[((v.Trick.Winner-v.Trick.Leader)%v.Seats+v.Seats)%v.Seats]
}

// Leading reports whether this seat plays the first card of the trick.
func (v *View) Leading() bool { return len(v.Trick.Cards) == 0 }

// Played is every card seen played this round (completed tricks and the
// current one).
func (v *View) Played() Set {
	var s Set
	for _, t := range v.Tricks {
		s |= SetOf(cards(t.Cards)...)
	}
	return s | SetOf(v.TrickCards()...)
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
