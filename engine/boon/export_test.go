package boon

import (
	"fmt"
	"testing"
)

// position describes a set test position (test-only constructor).
//
// Without picker and least the round is in the pick phase: hands are
// dealt as given, boon is the Boon, the seat left of the dealer decides.
// With picker >= 0 (or least) the round is in the play phase: the picker's
// burial is buried, tricksDone tricks are already complete (empty records
// whose points and counts are given by points and won), and leader leads
// the current trick.
type position struct {
	seats      int
	dealer     int
	vc         []int
	hands      []string
	boon       string
	picker     int // -1 (or 0 with least) for none
	least      bool
	buried     string
	points     []int
	won        []int
	tricksDone int
	leader     int // -1: left of the dealer
	rules      Rules
}

func (p position) build() (*State, error) {
	r := p.rules
	if r.Rounds == 0 {
		r.Rounds = DefaultRounds
	}
	s := NewState(p.seats, 1, r)
	s.dealer = p.dealer
	if p.vc != nil {
		s.vcTotal = 0
		for i, v := range p.vc {
			s.vc[i] = v
			s.vcTotal += v
		}
	}
	if len(p.hands) != p.seats {
		return nil, fmt.Errorf("%d hands for %d seats", len(p.hands), p.seats)
	}
	var all Set
	add := func(what, cards string) (Set, error) {
		set, err := ParseSet(cards)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", what, err)
		}
		if all&set != 0 {
			return 0, fmt.Errorf("%s: %s dealt twice", what, all&set)
		}
		all |= set
		return set, nil
	}
	var err error
	for i, h := range p.hands {
		if s.hands[i], err = add(fmt.Sprint("hand ", i), h); err != nil {
			return nil, err
		}
	}
	if s.boon, err = add("boon", p.boon); err != nil {
		return nil, err
	}
	if s.buried, err = add("buried", p.buried); err != nil {
		return nil, err
	}
	s.played = s.deck &^ all
	s.picker, s.mode, s.phase, s.nPassed = -1, ModePick, PhasePick, 0
	s.toMove = s.next(s.dealer)
	s.points, s.won = [MaxSeats]int{}, [MaxSeats]int{}
	copy(s.points[:], p.points)
	copy(s.won[:], p.won)
	s.nTricks = p.tricksDone
	switch {
	case p.least:
		s.mode, s.phase, s.nPassed = ModeLeast, PhasePlay, p.seats
	case p.picker >= 0:
		s.mode, s.phase, s.picker = ModePicker, PhasePlay, p.picker
		s.nPassed = (p.picker - s.next(s.dealer) + p.seats) % p.seats
	}
	if s.phase == PhasePlay {
		s.toMove = s.next(s.dealer)
		if p.leader >= 0 {
			s.toMove = p.leader
		}
		s.cur = trick{leader: int8(s.toMove)}
	}
	s.log = append(s.log[:0], event{kind: evDeal, seat: int8(s.dealer)})
	s.seen, s.lastStart = [MaxSeats]int{}, 0
	return s, nil
}

func mustPos(t testing.TB, p position) *State {
	t.Helper()
	s, err := p.build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func card(name string) Card {
	c, err := ParseCard(name)
	if err != nil {
		panic(err)
	}
	return c
}

func mustPlay(t testing.TB, s *State, acts ...Action) {
	t.Helper()
	for _, a := range acts {
		if err := s.Play(a); err != nil {
			t.Fatalf("%v: %v\n%s", a, err, s.RenderText(-1))
		}
	}
}

// plays plays the named cards in turn.
func plays(t testing.TB, s *State, cards ...string) {
	t.Helper()
	for _, c := range cards {
		mustPlay(t, s, Play(card(c)))
	}
}

func legalStrings(s *State) string {
	var out []string
	for _, a := range s.AppendLegal(nil) {
		out = append(out, a.String())
	}
	return fmt.Sprint(out)
}
