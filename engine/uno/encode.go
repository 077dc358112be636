package uno

import (
	"fmt"
	"sync"

	"github.com/arena-dev/arena/engine"
)

// Encoding is the fixed-size encoding of Uno and Bounce for learning
// agents (engine.Encoding), at one seat count and rule set. The layout
// is in docs/games/uno.md, "Encoding"; the offsets below are its one
// home.
type Encoding struct {
	*engine.ActionSpace[Action]
	seats int
}

// Observation layout: fixed blocks, then three blocks of one slot per
// seat, counted from the observer (0 = itself, 1 = the next seat
// clockwise, ...), so that an agent's weights do not depend on where it
// sits.
const (
	obsHand      = 0                          // copies of each card kind in the hand
	obsTop       = obsHand + NumKinds         // the top card, one-hot
	obsColour    = obsTop + NumKinds          // the active colour, one-hot (none before a starting Wild's is named)
	obsDirection = obsColour + 4              // 1 clockwise, 0 counter-clockwise
	obsDiscard   = obsDirection + 1           // copies of each card kind in the discard pile (since the last reshuffle)
	obsDecision  = obsDiscard + NumKinds      // the decision asked, one-hot: colour, play, drawn, pending, jump
	obsDecCard   = obsDecision + numDecisions // the drawn card (drawn) or the card to jump in with (jump), one-hot
	obsPending   = obsDecCard + NumKinds      // cards to draw if the pending draws are accepted / 4
	obsChallenge = obsPending + 1             // 1 when a Wild Draw Four may be challenged
	obsCatch     = obsChallenge + 1           // 1 when a missed call may be caught
	obsDrawPile  = obsCatch + 1               // cards in the draw pile / 108
	obsSeats     = obsDrawPile + 1            // per seat: cards held / 7; then out of the hand (1/0); then score / target
	obsFixed     = obsSeats                   // slots before the per-seat blocks
	numDecisions = 5                          // colour, play, drawn, pending, jump
	scoreScale   = 500                        // the score divisor of a single-hand game (target 0)
)

var decisionSlot = map[string]int{"colour": 0, "play": 1, "drawn": 2, "pending": 3, "jump": 4}

// Encoding implements engine.Encoder.
func (g Game) Encoding(seats int, opts engine.Options) (engine.Encoding, error) {
	if seats < 2 || seats > g.maxSeats {
		return nil, fmt.Errorf("game %s takes 2-%d seats, got %d", g.name, g.maxSeats, seats)
	}
	o, err := engine.Resolve(g.name, g.opts(), opts)
	if err != nil {
		return nil, err
	}
	return NewEncoding(seats, rulesOf(o)), nil
}

// NewEncoding is the encoding of games of seats seats under r.
func NewEncoding(seats int, r Rules) *Encoding {
	return &Encoding{ActionSpace: engine.NewActionSpace(allActions(seats, r)), seats: seats}
}

// allActions lists every action a seat can be offered in a game of
// seats seats under r, in the order of AppendLegal: plays by card, each
// card's variants by colour named, swap target and call; jump-ins the
// same way; then the actions without a card.
func allActions(seats int, r Rules) []Action {
	var out []Action
	variants := func(typ ActionType, c Card) {
		cols := noColour[:]
		if c.IsWild() {
			cols = allColours[:]
		}
		targets := []int8{-1}
		if r.SevenZero && cardFace[c] == 7 {
			for q := range seats {
				targets = append(targets, int8(q))
			}
		}
		calls := []bool{false}
		if r.UnoCall != CallOff {
			calls = []bool{true, false}
		}
		for _, col := range cols {
			for _, tg := range targets {
				for _, call := range calls {
					out = append(out, Action{Type: typ, Card: c, Colour: col, Target: tg, Uno: call})
				}
			}
		}
	}
	for c := range Card(NumKinds) {
		variants(ActPlay, c)
	}
	if r.JumpIn {
		for c := range Wild {
			variants(ActJump, c)
		}
	}
	out = append(out, Draw, Keep, Pass, Challenge, Accept, Catch)
	for c := range 4 {
		out = append(out, NameColour(c))
	}
	return out
}

// ObsSize implements engine.Encoding.
func (e *Encoding) ObsSize() int { return obsFixed + 3*e.seats }

// Encode implements engine.Encoding: v is a View or *View of a seat.
func (e *Encoding) Encode(v any, dst []float32) error {
	x, err := engine.ViewAs[View](v)
	if err != nil {
		return err
	}
	return e.encode(x, dst)
}

func (e *Encoding) encode(v *View, dst []float32) error {
	n := e.seats
	if v.You == nil || len(v.Counts) != n || len(v.Scores) != n || len(dst) != e.ObsSize() {
		return fmt.Errorf("%w: a seat's view of %d seats into %d slots (got %d seats, %d slots, seat given: %t)",
			engine.ErrNotEncodable, n, e.ObsSize(), len(v.Counts), len(dst), v.You != nil)
	}
	clear(dst)
	for _, name := range v.Hand {
		if c, err := ParseCard(name); err == nil {
			dst[obsHand+int(c)]++
		}
	}
	if c, err := ParseCard(v.Top); err == nil {
		dst[obsTop+int(c)] = 1
	}
	if v.Colour != nil {
		if k, err := ParseColour(*v.Colour); err == nil {
			dst[obsColour+k] = 1
		}
	}
	if v.Direction > 0 {
		dst[obsDirection] = 1
	}
	for _, name := range v.Discard {
		if c, err := ParseCard(name); err == nil {
			dst[obsDiscard+int(c)]++
		}
	}
	if d := v.Decision; d != nil {
		if k, ok := decisionSlot[d.Kind]; ok {
			dst[obsDecision+k] = 1
		}
		if c, err := ParseCard(d.Card); err == nil {
			dst[obsDecCard+int(c)] = 1
		}
		dst[obsPending] = float32(d.Pending) / 4
		if d.Challenge {
			dst[obsChallenge] = 1
		}
		if d.Catch != nil {
			dst[obsCatch] = 1
		}
	}
	dst[obsDrawPile] = float32(v.DrawPile) / DeckSize
	me := *v.You
	scale := float32(v.Rules.Target)
	if scale <= 0 {
		scale = scoreScale
	}
	for q := range n {
		r := (q - me + n) % n
		dst[obsSeats+r] = float32(v.Counts[q]) / HandSize
		dst[obsSeats+2*n+r] = float32(v.Scores[q]) / scale
	}
	for _, q := range v.Finished {
		if q >= 0 && q < n {
			dst[obsSeats+n+(q-me+n)%n] = 1
		}
	}
	return nil
}

// viewPool lends EncodeSeat a View whose slices it reuses.
var viewPool = sync.Pool{New: func() any { return new(View) }}

// EncodeState implements engine.StateEncoding: Encode(s.View(seat))
// without building a view to keep. The view is filled into a reused
// one, as AppendView does, and only then encoded, so that it still sees
// nothing but the seat's view. A training environment encodes at every
// step.
func (e *Encoding) EncodeState(st engine.State, seat int, dst []float32) error {
	s, ok := st.(*State)
	if !ok {
		return e.Encode(st.View(seat), dst)
	}
	v := viewPool.Get().(*View)
	s.fillView(v, seat)
	err := e.encode(v, dst)
	v.Hands = nil // the state's
	viewPool.Put(v)
	return err
}

// Mask implements engine.StateEncoding, without the allocations of
// Legal.
func (e *Encoding) Mask(st engine.State, mask []byte) error {
	s, ok := st.(*State)
	if !ok {
		return engine.MaskOf(e, st, mask)
	}
	clear(mask)
	var buf [128]Action
	for _, a := range s.AppendLegal(buf[:0]) {
		id, ok := e.ID(a)
		if !ok {
			return fmt.Errorf("%w: %v", engine.ErrNotInSpace, a)
		}
		mask[id] = 1
	}
	return nil
}
