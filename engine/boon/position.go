package boon

import (
	"fmt"
	"math/rand/v2"
)

// Position describes a round in progress completely: every seat's hand,
// the Boon and the burial included. A seat sees only part of it (its
// View); a search bot fills in the rest with a guess consistent with what
// it saw (a determinization) and builds the state with FromPosition to
// look ahead. The game's history (earlier rounds, the log) is not part of
// a position.
type Position struct {
	Rules Rules
	Seats int
	Round int // from 1; 0 means 1
	// Dealer of this round; VC every seat's victory cards (len Seats).
	Dealer int
	VC     []int
	// Hands is every seat's cards now (the picker's with the Boon added
	// and the burial taken out).
	Hands []Set
	// Boon is the Boon as dealt (in Least mode the set-aside cards).
	Boon Set
	// Picker is the seat that took the Boon, -1 if nobody did (yet);
	// Buried the cards it buried so far.
	Picker int
	Buried Set
	// Passed is the number of seats, from the dealer's left, that passed.
	Passed int
	// Least: everyone passed and the round is played in Least mode.
	Least bool
	// Tricks are this round's completed tricks and Trick the one being
	// played; the cards of each in play order from its leader.
	Tricks []PlayedTrick
	Trick  PlayedTrick
	// Seed seeds the state's RNG (later deals, a random Least tie).
	Seed uint64
}

// PlayedTrick is a trick's leader and its cards in play order.
type PlayedTrick struct {
	Leader int
	Cards  []Card
}

// FromPosition builds the state of a position: the phase and the seat to
// move follow from it (pick while nobody took and not everyone passed,
// bury while the picker holds more than its share, else play). It checks
// that the cards are the deck's, each exactly once, and that the hands
// fit the tricks played, and returns an error naming the first problem.
func FromPosition(p Position) (*State, error) {
	n := p.Seats
	if n < MinSeats || n > MaxSeats {
		return nil, fmt.Errorf("boon position: %d seats", n)
	}
	if len(p.Hands) != n || len(p.VC) != n {
		return nil, fmt.Errorf("boon position: %d hands and %d VC for %d seats", len(p.Hands), len(p.VC), n)
	}
	if p.Dealer < 0 || p.Dealer >= n || p.Picker < -1 || p.Picker >= n {
		return nil, fmt.Errorf("boon position: dealer %d, picker %d", p.Dealer, p.Picker)
	}
	r := p.Rules
	if r.Rounds <= 0 {
		r.Rounds = DefaultRounds
	}
	s := &State{rules: r, n: n, picker: p.Picker, dealer: p.Dealer, round: max(p.Round, 1)}
	s.deck = Deck(n)
	s.boonSize = boonSizes[n]
	s.handSize = (s.deck.Len() - s.boonSize) / n
	s.tricksPer = s.handSize
	for i := range n {
		s.vc[i] = p.VC[i]
		s.vcTotal += p.VC[i]
	}
	var all Set
	add := func(what string, x Set) error {
		if x&^s.deck != 0 {
			return fmt.Errorf("boon position: %s holds %s, not in the %d-seat deck", what, x&^s.deck, n)
		}
		if all&x != 0 {
			return fmt.Errorf("boon position: %s twice", all&x)
		}
		all |= x
		return nil
	}
	for i, h := range p.Hands {
		if err := add(fmt.Sprintf("seat %d", i), h); err != nil {
			return nil, err
		}
		s.hands[i] = h
	}
	if p.Boon.Len() != s.boonSize {
		return nil, fmt.Errorf("boon position: a Boon of %d cards, want %d", p.Boon.Len(), s.boonSize)
	}
	s.boon = p.Boon
	if p.Picker < 0 {
		if err := add("the Boon", p.Boon); err != nil {
			return nil, err
		}
	} else if p.Boon&^(p.Hands[p.Picker]|p.Buried|playedSet(p)) != 0 {
		return nil, fmt.Errorf("boon position: Boon cards %s neither with the picker, buried nor played", p.Boon&^(p.Hands[p.Picker]|p.Buried|playedSet(p)))
	}
	if err := add("the burial", p.Buried); err != nil {
		return nil, err
	}
	s.buried = p.Buried
	if len(p.Tricks) >= s.tricksPer {
		return nil, fmt.Errorf("boon position: %d tricks played of %d", len(p.Tricks), s.tricksPer)
	}
	for _, t := range append(append([]PlayedTrick(nil), p.Tricks...), p.Trick) {
		if t.Leader < 0 || t.Leader >= n || len(t.Cards) > n {
			return nil, fmt.Errorf("boon position: bad trick (leader %d, %d cards)", t.Leader, len(t.Cards))
		}
	}
	for i, t := range p.Tricks {
		if len(t.Cards) != n {
			return nil, fmt.Errorf("boon position: trick %d has %d cards", i+1, len(t.Cards))
		}
		tr := makeTrick(t, n)
		if err := add(fmt.Sprintf("trick %d", i+1), SetOf(t.Cards...)); err != nil {
			return nil, err
		}
		w := tr.winner(n)
		s.points[w] += tr.points()
		s.won[w]++
		s.tricks[i] = tr
		s.played |= SetOf(t.Cards...)
	}
	s.nTricks = len(p.Tricks)
	if len(p.Trick.Cards) == n {
		return nil, fmt.Errorf("boon position: the current trick is complete")
	}
	if err := add("the current trick", SetOf(p.Trick.Cards...)); err != nil {
		return nil, err
	}
	s.played |= SetOf(p.Trick.Cards...)
	s.cur = makeTrick(p.Trick, n)
	if all != s.deck {
		return nil, fmt.Errorf("boon position: %s missing", s.deck&^all)
	}
	s.nPassed = p.Passed
	s.log = make([]event, 0, 64)
	played := s.nTricks*n + int(s.cur.n)
	switch {
	case p.Picker < 0 && !p.Least:
		if played > 0 || p.Passed >= n {
			return nil, fmt.Errorf("boon position: cards played before the pick")
		}
		s.phase, s.mode = PhasePick, ModePick
		s.toMove = (p.Dealer + 1 + p.Passed) % n
		s.cur = trick{leader: int8((p.Dealer + 1) % n)}
	case p.Picker >= 0 && s.buried.Len() < s.boonSize:
		if played > 0 {
			return nil, fmt.Errorf("boon position: cards played before the burial")
		}
		s.phase, s.mode, s.toMove = PhaseBury, ModePicker, p.Picker
		s.buryLeft = s.boonSize - s.buried.Len()
		s.cur = trick{leader: int8((p.Dealer + 1) % n)}
	default:
		s.phase, s.mode = PhasePlay, ModePicker
		if p.Picker < 0 {
			s.mode = ModeLeast
		}
		s.toMove = (int(s.cur.leader) + int(s.cur.n)) % n
	}
	// Every seat holds the cards it has still to play.
	for i := range n {
		want := s.handSize - s.nTricks
		if s.phase == PhasePlay && (i-int(s.cur.leader)+n)%n < int(s.cur.n) {
			want--
		}
		if i == p.Picker {
			want += s.boonSize - s.buried.Len()
		}
		if s.hands[i].Len() != want {
			return nil, fmt.Errorf("boon position: seat %d holds %d cards, want %d", i, s.hands[i].Len(), want)
		}
	}
	s.pcg = rand.NewPCG(p.Seed, pcgStream)
	s.rng = rand.New(s.pcg)
	return s, nil
}

func playedSet(p Position) Set {
	var x Set
	for _, t := range p.Tricks {
		x |= SetOf(t.Cards...)
	}
	return x | SetOf(p.Trick.Cards...)
}

// makeTrick is the engine's trick of a played one.
func makeTrick(t PlayedTrick, n int) trick {
	tr := trick{leader: int8(t.Leader)}
	for _, c := range t.Cards {
		tr.cards[tr.n] = c
		if tr.n > 0 && Beats(c, tr.cards[tr.best]) {
			tr.best = tr.n
		}
		tr.n++
	}
	return tr
}
