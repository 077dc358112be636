package uno

import "fmt"

// Card is one kind of Uno card: colour*13 + face for the 100 coloured
// cards (faces 0-9, Skip, Reverse, Draw Two), then Wild and Wild Draw
// Four. Identical cards (two red 7s) share a Card value.
type Card uint8

// Faces of coloured cards (Card % 13).
const (
	FaceSkip    = 10
	FaceReverse = 11
	FaceDrawTwo = 12
)

// Special cards and sizes.
const (
	Wild     Card = 52
	WildDraw Card = 53 // Wild Draw Four
	NumKinds      = 54
	NoCard   Card = 255
	DeckSize      = 108
	MaxSeats      = 10 // the most seats of any rule set (uno; bounce takes 8)
	HandSize      = 7
)

// Colours, in notation order R Y G B.
const (
	Red    = 0
	Yellow = 1
	Green  = 2
	Blue   = 3
)

// MakeCard is the coloured card of colour c (0-3) and face f (0-12).
func MakeCard(c, f int) Card { return Card(c*13 + f) }

// IsWild reports whether the card is a Wild or a Wild Draw Four.
func (c Card) IsWild() bool { return c == Wild || c == WildDraw }

// Colour of a coloured card (0-3); -1 for wilds.
func (c Card) Colour() int {
	if c >= Wild {
		return -1
	}
	return int(c) / 13
}

// Face of a coloured card (0-12); -1 for wilds.
func (c Card) Face() int {
	if c >= Wild {
		return -1
	}
	return int(c) % 13
}

// IsNumber reports whether the card is a number card (0-9).
func (c Card) IsNumber() bool { return c < Wild && int(c)%13 <= 9 }

// Points is the card's scoring value: face value for numbers, 20 for
// Skip, Reverse and Draw Two, 50 for wilds.
func (c Card) Points() int { return cardPoints[c] }

// String is the notation: colour letter R Y G B then the face 0-9, S
// (Skip), R (Reverse) or D2 (Draw Two): "R7", "GS", "BR", "YD2"; wilds are
// "W" and "WD4".
func (c Card) String() string {
	if int(c) < NumKinds {
		return cardNames[c]
	}
	return "?"
}

// ColourNames are the colour names used in JSON, by colour index.
var ColourNames = [4]string{"red", "yellow", "green", "blue"}

const colourLetters = "RYGB"

var (
	cardNames  [NumKinds]string
	cardPoints [NumKinds]int
	// copies of each card kind in the deck
	cardCopies [NumKinds]int
	// bit masks over card kinds
	colourMask [4]uint64
	faceMask   [13]uint64
	// sameFace[k] is the kinds that match card k by face: faceMask of its
	// face for a coloured card, none for a wild.
	sameFace [NumKinds]uint64
	// cardColour[k] and cardFace[k] are k.Colour() and k.Face() as
	// table lookups (-1 for wilds), for the hot paths: Face divides.
	cardColour [NumKinds]int8
	cardFace   [NumKinds]int8
	fullDeck   [DeckSize]Card
)

const (
	bitWild     = uint64(1) << Wild
	bitWildDraw = uint64(1) << WildDraw
	wildBits    = bitWild | bitWildDraw
)

func init() {
	faces := [13]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2"}
	for c := range 4 {
		for f := range 13 {
			k := MakeCard(c, f)
			cardNames[k] = string(colourLetters[c]) + faces[f]
			if f <= 9 {
				cardPoints[k] = f
			} else {
				cardPoints[k] = 20
			}
			cardCopies[k] = 2
			if f == 0 {
				cardCopies[k] = 1
			}
			colourMask[c] |= 1 << k
			faceMask[f] |= 1 << k
		}
	}
	for k := range Card(NumKinds) {
		cardColour[k] = int8(k.Colour())
		cardFace[k] = int8(k.Face())
		if !k.IsWild() {
			sameFace[k] = faceMask[k.Face()]
		}
	}
	cardNames[Wild], cardNames[WildDraw] = "W", "WD4"
	cardPoints[Wild], cardPoints[WildDraw] = 50, 50
	cardCopies[Wild], cardCopies[WildDraw] = 4, 4
	i := 0
	for k := range Card(NumKinds) {
		for range cardCopies[k] {
			fullDeck[i] = k
			i++
		}
	}
	if i != DeckSize {
		panic("uno: deck size")
	}
}

// ParseCard reads the notation of String. It reads the name rather
// than search the names: an encoding reads every card of a view at
// every step.
func ParseCard(s string) (Card, error) {
	if c, ok := cardOf(s); ok {
		return c, nil
	}
	return NoCard, fmt.Errorf("bad card %q (want e.g. R7, GS, BR, YD2, W, WD4)", s)
}

// cardOf is ParseCard without the error.
func cardOf(s string) (Card, bool) {
	switch {
	case s == "W":
		return Wild, true
	case s == "WD4":
		return WildDraw, true
	case len(s) < 2 || len(s) > 3:
		return NoCard, false
	}
	col := colourIndex(s[0])
	if col < 0 {
		return NoCard, false
	}
	face := -1
	switch f := s[1:]; {
	case len(f) == 1 && f[0] >= '0' && f[0] <= '9':
		face = int(f[0] - '0')
	case f == "S":
		face = FaceSkip
	case f == "R":
		face = FaceReverse
	case f == "D2":
		face = FaceDrawTwo
	default:
		return NoCard, false
	}
	return MakeCard(col, face), true
}

func colourIndex(letter byte) int {
	for i := range 4 {
		if colourLetters[i] == letter {
			return i
		}
	}
	return -1
}

// ParseColour reads a colour name ("red", "yellow", "green", "blue").
func ParseColour(s string) (int, error) {
	for i, n := range ColourNames {
		if n == s {
			return i, nil
		}
	}
	return -1, fmt.Errorf("bad colour %q (want red, yellow, green or blue)", s)
}
