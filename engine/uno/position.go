package uno

import (
	"fmt"
)

// Position describes a game in the middle of a hand completely: every
// seat's cards and the order of the draw pile included. A seat sees only
// part of it (its View); a search bot fills in the rest with a guess
// consistent with what it saw (a determinization) and builds the state
// with FromPosition to look ahead. The game's history (events, finished
// hands) is not part of a position: the state starts with an empty log.
type Position struct {
	Rules Rules
	Seats int
	// Hands holds every seat's cards (any order), len Seats.
	Hands [][]Card
	// Draw is the draw pile, bottom first: the last card is drawn first.
	Draw []Card
	// Discard is the discard pile, bottom first; the last card is the top.
	Discard []Card
	// Colour is the active colour (0-3), -1 only while a starting Wild's
	// colour is still to be named (Decision "colour").
	Colour    int
	Direction int // +1 clockwise, -1
	ToMove    int
	Dealer    int
	HandNo    int // from 1; 0 means 1
	// Scores is every seat's total so far (nil: all 0).
	Scores []int
	// Finished lists the seats out of the hand, in order (play_to_last).
	Finished []int
	// Actions is the public action count so far (for max_actions).
	Actions int
	// Decision is what ToMove is asked: "play" ("" too), "colour",
	// "drawn", "pending" or "jump".
	Decision string
	// Drawn is the card just drawn (Decision "drawn"); it is in ToMove's
	// hand.
	Drawn Card
	// Pending draws (Decision "pending"), PendingWD4 when the last card of
	// the stack is a Wild Draw Four, PendingFrom the seat that played it.
	Pending     int
	PendingWD4  bool
	PendingFrom int
	// Challenge: ToMove may challenge the Wild Draw Four of seat WD4From,
	// played while the active colour was WD4Prev; whether it was a bluff
	// is judged on WD4From's hand as given.
	Challenge bool
	WD4From   int
	WD4Prev   int
	// Catch is the seat that forgot the call and may be caught
	// (catch_window), -1 none.
	Catch int
	// JumpCard is the card ToMove may jump in with (Decision "jump") and
	// JumpNext the seat that plays if it passes.
	JumpCard Card
	JumpNext int
	// Seed seeds the state's RNG (the reshuffles to come).
	Seed uint64
}

// FromPosition builds the state of a position. It checks that the cards
// are the 108 of the deck, each hand's count and the decision's fields,
// and returns an error naming the first problem. The state plays on from
// there exactly as a dealt game would (later hands are dealt from Seed).
func FromPosition(p Position) (*State, error) {
	n := p.Seats
	if n < 2 || n > MaxSeats {
		return nil, fmt.Errorf("uno position: %d seats", n)
	}
	if len(p.Hands) != n {
		return nil, fmt.Errorf("uno position: %d hands for %d seats", len(p.Hands), n)
	}
	if p.ToMove < 0 || p.ToMove >= n || p.Dealer < 0 || p.Dealer >= n {
		return nil, fmt.Errorf("uno position: to_move %d, dealer %d", p.ToMove, p.Dealer)
	}
	if len(p.Discard) == 0 {
		return nil, fmt.Errorf("uno position: empty discard pile")
	}
	r := p.Rules
	if r.MaxActions <= 0 {
		r.MaxActions = 100000
	}
	if r.CallName == "" {
		r.CallName = "uno"
	}
	s := &State{rules: r, n: n}
	s.pcg.Seed(p.Seed, pcgStream)
	s.events = s.evBuf[:0]
	s.evCards = s.cardBuf[:0]
	var seen [NumKinds]int
	count := func(c Card) error {
		if c >= NumKinds {
			return fmt.Errorf("uno position: bad card %d", c)
		}
		seen[c]++
		if seen[c] > int(cardCopies[c]) {
			return fmt.Errorf("uno position: more than %d %s", cardCopies[c], c)
		}
		return nil
	}
	for q, h := range p.Hands {
		for _, c := range h {
			if err := count(c); err != nil {
				return nil, err
			}
			s.addCard(q, c)
		}
	}
	if len(p.Draw)+len(p.Discard) > DeckSize {
		return nil, fmt.Errorf("uno position: too many cards")
	}
	for _, c := range p.Draw {
		if err := count(c); err != nil {
			return nil, err
		}
	}
	for _, c := range p.Discard {
		if err := count(c); err != nil {
			return nil, err
		}
	}
	for k := range Card(NumKinds) {
		if seen[k] != int(cardCopies[k]) {
			return nil, fmt.Errorf("uno position: %d %s, want %d", seen[k], k, cardCopies[k])
		}
	}
	s.draw = append(s.drawBuf[:0], p.Draw...)
	s.discard = append(s.discBuf[:0], p.Discard...)
	s.dir = 1
	if p.Direction < 0 {
		s.dir = -1
	}
	s.cur, s.dealer = p.ToMove, p.Dealer
	s.handNo = max(p.HandNo, 1)
	for i := range n {
		s.active[i] = true
		if i < len(p.Scores) {
			s.scores[i] = p.Scores[i]
		}
	}
	s.nActive = n
	for _, q := range p.Finished {
		if q < 0 || q >= n || !s.active[q] {
			return nil, fmt.Errorf("uno position: bad finished seat %d", q)
		}
		s.active[q] = false
		s.nActive--
		s.finish[s.nFinish] = int8(q)
		s.nFinish++
	}
	if !s.active[s.cur] {
		return nil, fmt.Errorf("uno position: seat %d to move is out", s.cur)
	}
	s.public = p.Actions
	s.drawn = NoCard
	s.catchSeat = -1
	if p.Catch >= 0 && p.Catch < n && p.Catch != s.cur {
		s.catchSeat = p.Catch
	}
	top := s.Top()
	if p.Colour < 0 {
		if top != Wild || (p.Decision != "colour") {
			return nil, fmt.Errorf("uno position: no active colour")
		}
		s.setColour(-1, top)
	} else {
		s.setColour(int8(p.Colour&3), top)
	}
	switch p.Decision {
	case "", "play":
		s.phase = phTurn
	case "colour":
		s.phase = phColour
	case "drawn":
		if p.Drawn >= NumKinds || s.hand[s.cur][p.Drawn] == 0 {
			return nil, fmt.Errorf("uno position: drawn card %s is not in seat %d's hand", p.Drawn, s.cur)
		}
		s.phase, s.drawn = phDrawn, p.Drawn
	case "pending":
		if p.Pending <= 0 {
			return nil, fmt.Errorf("uno position: pending decision with %d cards pending", p.Pending)
		}
		s.phase = phPending
		s.pending, s.pendWD4, s.pendFrom = p.Pending, p.PendingWD4, p.PendingFrom
		if p.Challenge {
			if p.WD4From < 0 || p.WD4From >= n || p.WD4Prev < 0 || p.WD4Prev > 3 {
				return nil, fmt.Errorf("uno position: bad challenge (from %d, colour %d)", p.WD4From, p.WD4Prev)
			}
			s.challengeable = true
			s.wd4Player, s.wd4Prev = p.WD4From, int8(p.WD4Prev)
			s.wd4Guilty = s.mask[p.WD4From]&colourMask[p.WD4Prev] != 0
		}
	case "jump":
		if p.JumpCard >= Wild || s.hand[s.cur][p.JumpCard] == 0 {
			return nil, fmt.Errorf("uno position: jump card %s is not in seat %d's hand", p.JumpCard, s.cur)
		}
		s.phase, s.jumpCard = phJump, p.JumpCard
		s.jumpSeats[0], s.nJump, s.jumpIdx, s.jumpNext = int8(s.cur), 1, 0, p.JumpNext
	default:
		return nil, fmt.Errorf("uno position: unknown decision %q", p.Decision)
	}
	return s, nil
}
