package uno

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// withDeck runs body with f arranging every freshly shuffled deck.
func withDeck(f func(*State), body func()) {
	deckHook = f
	defer func() { deckHook = nil }()
	body()
}

// startWith arranges the deck so that the first card turned up after the
// deal is c (then, for a redraw, the following cards).
func startWith(cs ...Card) func(*State) {
	return func(s *State) {
		d := s.draw
		pos := len(d) - 1 - HandSize*s.n
		for _, c := range cs {
			i := slices.Index(d[:pos+1], c)
			if i < 0 {
				panic("card not in the deck below the deal")
			}
			d[i], d[pos] = d[pos], d[i]
			pos--
		}
	}
}

func cards(t testing.TB, s string) []Card {
	t.Helper()
	var out []Card
	for _, f := range strings.Fields(s) {
		c, err := ParseCard(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// table describes a position in the middle of a hand.
type table struct {
	hands  []string // per seat
	top    string
	colour int // -1: the top card's colour
	draw   string
	cur    int
	dir    int // 0 means 1
	dealer int
}

// setup builds the position: hands, the top card, the draw pile (listed
// bottom first, so the last card is drawn first); every other card goes
// into the discard pile below the top card.
func setup(t testing.TB, r Rules, tb table) *State {
	t.Helper()
	n := len(tb.hands)
	s := NewState(n, 1, r)
	s.hand = [MaxSeats][NumKinds]uint8{}
	s.mask = [MaxSeats]uint64{}
	s.count = [MaxSeats]int{}
	s.events = s.events[:0]
	s.evCards = s.evCards[:0]
	s.lastSeen = [MaxSeats]int{}
	left := cardCopies
	take := func(c Card) {
		if left[c] == 0 {
			t.Fatalf("too many %s", c)
		}
		left[c]--
	}
	for i, h := range tb.hands {
		for _, c := range cards(t, h) {
			take(c)
			s.addCard(i, c)
		}
	}
	top := cards(t, tb.top)[0]
	take(top)
	s.draw = s.drawBuf[:0]
	s.unshuffled = 0 // the draw pile as given, top last
	for _, c := range cards(t, tb.draw) {
		take(c)
		s.draw = append(s.draw, c)
	}
	s.discard = s.discBuf[:0]
	for k := range Card(NumKinds) {
		for range left[k] {
			s.discard = append(s.discard, k)
		}
	}
	s.discard = append(s.discard, top)
	s.setColour(int8(top.Colour()), top)
	if tb.colour >= 0 || top.IsWild() {
		s.setColour(int8(tb.colour), top)
	}
	s.dir = 1
	if tb.dir != 0 {
		s.dir = tb.dir
	}
	s.dealer = tb.dealer
	s.cur = tb.cur
	s.phase = phTurn
	checkConservation(t, s)
	return s
}

// checkConservation: all 108 cards are in hands, the draw pile or the
// discard pile, with the right number of copies of each.
func checkConservation(t testing.TB, s *State) {
	t.Helper()
	var n [NumKinds]int
	total := 0
	for i := range s.n {
		c := 0
		for k := range NumKinds {
			n[k] += int(s.hand[i][k])
			c += int(s.hand[i][k])
			if (s.hand[i][k] > 0) != (s.mask[i]&(1<<k) != 0) {
				t.Fatalf("seat %d mask out of sync for %s", i, Card(k))
			}
		}
		if c != s.count[i] {
			t.Fatalf("seat %d count %d, holds %d", i, s.count[i], c)
		}
		total += c
	}
	for _, c := range s.draw {
		n[c]++
	}
	for _, c := range s.discard {
		n[c]++
	}
	total += len(s.draw) + len(s.discard)
	if total != DeckSize {
		t.Fatalf("%d cards in play, want %d", total, DeckSize)
	}
	for k := range NumKinds {
		if n[k] != cardCopies[k] {
			t.Fatalf("%d copies of %s, want %d", n[k], Card(k), cardCopies[k])
		}
	}
	if len(s.discard) == 0 {
		t.Fatal("empty discard pile")
	}
}

func mustPlay(t testing.TB, s *State, acts ...Action) {
	t.Helper()
	for _, a := range acts {
		if err := s.Play(a); err != nil {
			t.Fatalf("play %v: %v\n%s", a, err, s.RenderText(-1))
		}
		checkConservation(t, s)
	}
}

func card(s string) Card {
	c, err := ParseCard(s)
	if err != nil {
		panic(err)
	}
	return c
}

// pl is the play of a card by notation: "R7", "W:red", "R7>2", with "!"
// for the call, as Action.String prints it.
func pl(notation string) Action {
	a := Action{Type: ActPlay, Colour: -1, Target: -1}
	if strings.HasSuffix(notation, "!") {
		a.Uno = true
		notation = strings.TrimSuffix(notation, "!")
	}
	if i := strings.Index(notation, ">"); i >= 0 {
		var q int
		fmt.Sscan(notation[i+1:], &q)
		a.Target = int8(q)
		notation = notation[:i]
	}
	if i := strings.Index(notation, ":"); i >= 0 {
		c, err := ParseColour(notation[i+1:])
		if err != nil {
			panic(err)
		}
		a.Colour = int8(c)
		notation = notation[:i]
	}
	a.Card = card(notation)
	return a
}

func legalStrings(s *State) string {
	var out []string
	for _, a := range s.AppendLegal(nil) {
		out = append(out, a.String())
	}
	return strings.Join(out, " ")
}

func handString(s *State, seat int) string {
	return strings.Join(cardStrings(s.Hand(seat)), " ")
}
