package boon

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Suit is a card's suit. Gold is the trump suit and a suit of its own for
// following.
type Suit uint8

// The four suits, in the sort order of hands and legal lists.
const (
	Blue  Suit = 0
	Green Suit = 1
	Red   Suit = 2
	Gold  Suit = 3
)

// suitCodes are the notation prefixes: B1-B6, G1-G6, R1-R6, Au1-Au14.
// Gold is "Au" (the chemical symbol) so that it never clashes with Green.
var suitCodes = [4]string{"B", "G", "R", "Au"}

// Code is the suit's notation prefix ("B", "G", "R", "Au").
func (s Suit) Code() string { return suitCodes[s&3] }

// Name is the suit's English name.
func (s Suit) Name() string { return [4]string{"blue", "green", "red", "gold"}[s&3] }

// PointTable is the point value of every card, by suit and rank (index 0
// unused). The Gold 1-6 and plain-suit values 5 = 10 and 6 = 11 are
// confirmed by the publisher; every other value is inferred from the
// Sheepshead mapping (rules reference 2.1). Correct the values here: the
// engine derives everything from this table. The whole deck must total 120.
var PointTable = [4][15]int{
	Blue:  {0, 0, 0, 0, 4, 10, 11},
	Green: {0, 0, 0, 0, 4, 10, 11},
	Red:   {0, 0, 0, 0, 4, 10, 11},
	Gold:  {0, 0, 0, 0, 4, 10, 11, 2, 2, 2, 2, 3, 3, 3, 3},
}

// TotalPoints is the sum of the point table over the whole deck.
const TotalPoints = 120

// Card is one of the 32 playing cards: 0-5 Blue 1-6, 6-11 Green 1-6,
// 12-17 Red 1-6, 18-31 Gold 1-14. Within a suit a higher Card is a higher
// rank; the numeric order is also the sort order of hands and legal lists.
type Card uint8

// NumCards is the size of the full deck.
const NumCards = 32

// NoCard is the zero value of an absent card in fixed arrays.
const NoCard Card = 255

// MakeCard is the card of suit s and rank r (1-6, Gold 1-14). It panics on
// a rank out of range.
func MakeCard(s Suit, r int) Card {
	if r < 1 || r > 6 && s != Gold || r > 14 {
		panic(fmt.Sprintf("boon: no card %s%d", s.Code(), r))
	}
	return Card(int(s)*6 + r - 1)
}

// Suit of the card.
func (c Card) Suit() Suit { return cardSuit[c&31] }

// Rank of the card (1-6, Gold 1-14).
func (c Card) Rank() int { return int(cardRank[c&31]) }

// Points of the card, from PointTable.
func (c Card) Points() int { return int(cardPoints[c&31]) }

// String is the notation: "B5", "G1", "R6", "Au14".
func (c Card) String() string {
	if c >= NumCards {
		return "??"
	}
	return cardNames[c]
}

var (
	cardSuit   [NumCards]Suit
	cardRank   [NumCards]int8
	cardPoints [NumCards]int8
	cardNames  [NumCards]string
	// suitMask is the set of cards of each suit.
	suitMask [4]Set
)

func init() {
	for c := range Card(NumCards) {
		s, r := Suit(min(int(c)/6, 3)), int(c)%6+1
		if c >= 18 {
			r = int(c) - 17
		}
		cardSuit[c], cardRank[c] = s, int8(r)
		cardPoints[c] = int8(PointTable[s][r])
		cardNames[c] = s.Code() + strconv.Itoa(r)
		suitMask[s] |= 1 << c
	}
}

// ParseCard reads the notation ("B5", "Au14"); case is ignored.
func ParseCard(s string) (Card, error) {
	var suit Suit
	var num string
	switch {
	case len(s) >= 3 && strings.EqualFold(s[:2], "au"):
		suit, num = Gold, s[2:]
	case len(s) >= 2 && (s[0] == 'B' || s[0] == 'b'):
		suit, num = Blue, s[1:]
	case len(s) >= 2 && (s[0] == 'G' || s[0] == 'g'):
		suit, num = Green, s[1:]
	case len(s) >= 2 && (s[0] == 'R' || s[0] == 'r'):
		suit, num = Red, s[1:]
	default:
		return NoCard, fmt.Errorf("bad card %q (want B1-B6, G1-G6, R1-R6 or Au1-Au14)", s)
	}
	r, err := strconv.Atoi(num)
	if err != nil || num[0] < '1' || num[0] > '9' || r < 1 || r > 6 && suit != Gold || r > 14 {
		return NoCard, fmt.Errorf("bad card %q (want B1-B6, G1-G6, R1-R6 or Au1-Au14)", s)
	}
	return MakeCard(suit, r), nil
}

// Set is a set of cards as a bit mask (bit c for Card c). Iterating in bit
// order gives the sort order.
type Set uint32

// Has reports whether c is in the set.
func (s Set) Has(c Card) bool { return c < NumCards && s&(1<<c) != 0 }

// Len is the number of cards in the set.
func (s Set) Len() int { return bits.OnesCount32(uint32(s)) }

// Points is the total point value of the set.
func (s Set) Points() int {
	p := 0
	for x := uint32(s); x != 0; x &= x - 1 {
		p += int(cardPoints[bits.TrailingZeros32(x)])
	}
	return p
}

// Cards lists the set in sort order.
func (s Set) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for x := uint32(s); x != 0; x &= x - 1 {
		out = append(out, Card(bits.TrailingZeros32(x)))
	}
	return out
}

// Strings lists the set's notation in sort order (never nil).
func (s Set) Strings() []string {
	out := make([]string, 0, s.Len())
	for x := uint32(s); x != 0; x &= x - 1 {
		out = append(out, cardNames[bits.TrailingZeros32(x)])
	}
	return out
}

// String is the set's cards separated by spaces.
func (s Set) String() string { return strings.Join(s.Strings(), " ") }

// ParseSet reads cards separated by spaces or commas.
func ParseSet(s string) (Set, error) {
	var out Set
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		c, err := ParseCard(f)
		if err != nil {
			return 0, err
		}
		if out.Has(c) {
			return 0, fmt.Errorf("card %s twice", c)
		}
		out |= 1 << c
	}
	return out, nil
}

// SetOf is the set of the given cards.
func SetOf(cs ...Card) Set {
	var s Set
	for _, c := range cs {
		s |= 1 << c
	}
	return s
}

// SuitSet is the set of all cards of suit s.
func SuitSet(s Suit) Set { return suitMask[s&3] }

// FullDeck is the 32-card deck.
const FullDeck Set = 1<<NumCards - 1

// Deck is the deck for a seat count: with 3 seats Green 1 and Red 1 leave
// the game (30 cards); otherwise all 32.
func Deck(seats int) Set {
	if seats == 3 {
		return FullDeck &^ SetOf(MakeCard(Green, 1), MakeCard(Red, 1))
	}
	return FullDeck
}

// Beats reports whether card c, played to a trick whose best card so far
// is best, takes the lead: a Gold beats any non-Gold and a lower Gold; a
// card of best's (non-Gold) suit beats it if higher; anything else loses.
func Beats(c, best Card) bool {
	if c.Suit() == Gold {
		return best.Suit() != Gold || c > best
	}
	return c.Suit() == best.Suit() && c > best
}
