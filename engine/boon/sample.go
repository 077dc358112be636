package boon

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/deal"
)

// Observer implements engine.Sampler.
func (Game) Observer(seat, seats int, opts engine.Options) (engine.Observer, error) {
	if seats < MinSeats || seats > MaxSeats {
		return nil, fmt.Errorf("game boon takes %d-%d seats, got %d", MinSeats, MaxSeats, seats)
	}
	if seat < 0 || seat >= seats {
		return nil, fmt.Errorf("boon observer: seat %d of %d seats", seat, seats)
	}
	r, err := RulesFromOptions(opts)
	if err != nil {
		return nil, err
	}
	return &Observer{me: seat, n: seats, rules: r}, nil
}

// Observer is a Boon seat's knowledge of the round. A Boon view carries
// the whole round so far (every trick, who passed, the picker; for the
// picker its Boon and burial), so the last view is all it needs; what it
// reads from it is which suits each seat showed it lacks (a card off the
// led suit; under must_trump, off Gold too).
type Observer struct {
	me, n int
	rules Rules
	last  *View
	prep  prepared
}

// prepared is what every sample of the last view shares, read from it
// once: a search samples thousands of states from one view.
type prepared struct {
	// base is the view as a state whose other hands and face-down cards
	// each sample deals anew (those of base are any that fit the counts).
	base   *State
	pool   []uint8  // the cards the seat cannot see
	slots  []uint64 // where they go: the other hands, then face down
	hidden int      // the cards face down
	err    error    // no state can be sampled, and why
}

// Observe implements engine.Observer.
func (o *Observer) Observe(view []byte) error {
	v := new(View)
	if err := json.Unmarshal(view, v); err != nil {
		return fmt.Errorf("boon observer: view: %w", err)
	}
	if v.Seat != o.me || v.Seats != o.n || len(v.HandSizes) != o.n || len(v.VC) != o.n {
		return fmt.Errorf("boon observer: not a view of seat %d of %d seats", o.me, o.n)
	}
	o.last = v
	o.prep = o.prepare(v)
	return nil
}

// Sample implements engine.Observer.
func (o *Observer) Sample(rng *rand.Rand) (engine.State, error) {
	return engine.AsState(o.SampleState(rng))
}

// SampleState is Sample with its concrete type: the other hands and the
// cards face down (the Boon before the pick, the set-aside Boon in
// Least mode, another picker's burial, which then stands for its Boon
// too) dealt uniformly over the deals that fit the suits each seat
// showed it lacks. It is StateOf(DealHidden(rng), rng).
func (o *Observer) SampleState(rng *rand.Rand) (*State, error) {
	d, err := o.DealHidden(rng)
	if err != nil {
		return nil, err
	}
	return o.StateOf(d, rng), nil
}

// Deal is what a seat cannot see of a Boon round: the other seats'
// hands (the seat's own is empty) and the cards face down, which are
// the Boon before the pick or set aside in Least mode, and another
// picker's burial after its pick (empty when the seat is the picker).
type Deal struct {
	Hands    [MaxSeats]Set
	FaceDown Set
}

// DealHidden deals what the seat cannot see, uniformly over the deals
// that fit its views, without building a state: for a search that
// weighs deals by what it guesses of the other seats before it keeps
// one (StateOf).
func (o *Observer) DealHidden(rng *rand.Rand) (Deal, error) {
	pr := &o.prep
	if o.last == nil {
		return Deal{}, engine.ErrNoDecision
	}
	if pr.err != nil {
		return Deal{}, pr.err
	}
	cards, ok := deal.Deal(rng, pr.pool, pr.slots, nil)
	if !ok {
		return Deal{}, fmt.Errorf("%w: no deal of the unseen cards fits", engine.ErrInconsistent)
	}
	var d Deal
	o.place(cards, o.last, pr.hidden, func(q int, h Set) { d.Hands[q] = h }, func(h Set) { d.FaceDown = h })
	return d, nil
}

// StateOf is the last view's state with what the seat cannot see as
// in d (a deal of DealHidden's), its own randomness to come drawn from
// rng.
func (o *Observer) StateOf(d Deal, rng *rand.Rand) *State {
	// The prepared state with this deal: what FromPosition would build
	// from the position with these hands, without checking it all again.
	s := o.prep.base.Clone()
	for q := range o.n {
		if q != o.me {
			s.hands[q] = d.Hands[q]
		}
	}
	if v := o.last; v.Picker != o.me {
		s.boon = d.FaceDown
		if v.Picker >= 0 {
			s.buried = d.FaceDown
		}
	}
	s.pcg.Seed(rng.Uint64(), pcgStream)
	return s
}

// place gives each other seat its cards of the deal cards, then the
// cards face down (hidden of them) to down: before the pick the Boon;
// after another's, its burial, which stands for its Boon too.
func (o *Observer) place(cards []uint8, v *View, hidden int, hand func(q int, h Set), down func(h Set)) {
	k := 0
	take := func(n int) Set {
		var x Set
		for _, c := range cards[k : k+n] {
			x |= 1 << c
		}
		k += n
		return x
	}
	for q := range o.n {
		if q != o.me {
			hand(q, take(v.HandSizes[q]))
		}
	}
	if h := take(hidden); v.Picker != o.me {
		down(h)
	}
}

// prepare reads what every sample of view v shares.
func (o *Observer) prepare(v *View) prepared {
	if v.ToMove != o.me || (v.Decision != "take_or_pass" && v.Decision != "bury" && v.Decision != "play") {
		return prepared{err: engine.ErrNoDecision}
	}
	p, known, void, err := o.position(v)
	if err != nil {
		return prepared{err: err}
	}
	var pr prepared
	for x := uint32(Deck(o.n) &^ known); x != 0; x &= x - 1 {
		pr.pool = append(pr.pool, uint8(bits.TrailingZeros32(x)))
	}
	for q := range o.n {
		if q == o.me {
			continue
		}
		m := deal.Any
		if void[q] != 0 {
			m = uint64(^void[q])
		}
		for range v.HandSizes[q] {
			pr.slots = append(pr.slots, m)
		}
	}
	if v.Picker != o.me {
		pr.hidden = v.BoonSize
	}
	for range pr.hidden {
		pr.slots = append(pr.slots, deal.Any)
	}
	if len(pr.pool) != len(pr.slots) {
		return prepared{err: fmt.Errorf("%w: %d unseen cards for %d places", engine.ErrInconsistent, len(pr.pool), len(pr.slots))}
	}
	// Any deal that fits the counts will do for the base.
	p.Hands = slices.Clone(p.Hands)
	o.place(pr.pool, v, pr.hidden, func(q int, h Set) { p.Hands[q] = h }, func(h Set) {
		p.Boon = h
		if v.Picker >= 0 {
			p.Buried = h
		}
	})
	base, err := FromPosition(p)
	if err != nil {
		return prepared{err: fmt.Errorf("%w: %w", engine.ErrInconsistent, err)}
	}
	if err := base.restoreHistory(v); err != nil {
		return prepared{err: err}
	}
	pr.base = base
	return pr
}

// position is the view as a position without the cards the seat cannot
// see, the cards it can, and the suits each seat showed it lacks.
func (o *Observer) position(v *View) (Position, Set, [MaxSeats]Set, error) {
	n := o.n
	p := Position{Rules: o.rules, Seats: n, Round: v.Round, Dealer: v.Dealer, VC: v.VC, Picker: v.Picker,
		Passed: len(v.Passed), Least: v.Mode == "least", Hands: make([]Set, n)}
	var void [MaxSeats]Set
	var known Set
	var err error
	if p.Hands[o.me], err = parseSet(v.Hand); err != nil {
		return p, 0, void, err
	}
	known = p.Hands[o.me]
	trick := func(t Trick) (PlayedTrick, error) {
		pt := PlayedTrick{Leader: t.Leader}
		for i, s := range t.Cards {
			c, err := ParseCard(s)
			if err != nil {
				return pt, err
			}
			pt.Cards = append(pt.Cards, c)
			known |= 1 << c
			q := (t.Leader + i) % n
			if led := pt.Cards[0].Suit(); i > 0 && c.Suit() != led {
				void[q] |= SuitSet(led)
				if o.rules.MustTrump && c.Suit() != Gold {
					void[q] |= SuitSet(Gold)
				}
			}
		}
		return pt, nil
	}
	for _, t := range v.Tricks {
		pt, err := trick(t)
		if err != nil {
			return p, 0, void, err
		}
		p.Tricks = append(p.Tricks, pt)
	}
	if p.Trick, err = trick(v.Trick); err != nil {
		return p, 0, void, err
	}
	if v.Picker == o.me {
		if p.Boon, err = parseSet(v.Boon); err != nil {
			return p, 0, void, err
		}
		if p.Buried, err = parseSet(v.Buried); err != nil {
			return p, 0, void, err
		}
		known |= p.Buried
	}
	void[o.me] = 0
	return p, known, void, nil
}

func parseSet(ss []string) (Set, error) {
	var x Set
	for _, s := range ss {
		c, err := ParseCard(s)
		if err != nil {
			return 0, err
		}
		x |= 1 << c
	}
	return x, nil
}

// restoreHistory gives a state built from the view's position that
// view's history: the events since the seat's last decision and the
// last round's result, so that its view is the one observed.
func (s *State) restoreHistory(v *View) error {
	for _, e := range v.Events {
		k := slices.Index(evNames[:], e.Type)
		if k < 0 {
			return fmt.Errorf("%w: event type %q", engine.ErrInconsistent, e.Type)
		}
		ev := event{kind: evKind(k), seat: int8(e.Seat)}
		if e.Card != "" {
			c, err := ParseCard(e.Card)
			if err != nil {
				return fmt.Errorf("%w: %w", engine.ErrInconsistent, err)
			}
			ev.card = c
		}
		s.log = append(s.log, ev)
	}
	s.seen, s.lastStart = [MaxSeats]int{}, 0
	for _, vc := range v.VC {
		s.ending = s.ending || vc <= 0 // only a round's end moves VC, and one that left a seat at 0 began the end
	}
	if r := v.LastRound; r != nil {
		return s.restoreLast(r)
	}
	return nil
}

// restoreLast is the last round's result back from its view.
func (s *State) restoreLast(v *RoundResult) error {
	mode := slices.Index(modeNames[:], v.Mode)
	if mode < 0 || len(v.TrickPoints) != s.n || len(v.TricksWon) != s.n || len(v.VCChange) != s.n || len(v.VC) != s.n {
		return fmt.Errorf("%w: last round %+v", engine.ErrInconsistent, v)
	}
	r := roundResult{round: v.Round, dealer: v.Dealer, mode: Mode(mode), picker: v.Picker,
		pickerPoints: v.PickerPoints, buriedPoints: v.BuriedPoints, perDefender: v.PerDefender, tie: s.rules.LeastTie}
	copy(r.points[:], v.TrickPoints)
	copy(r.tricks[:], v.TricksWon)
	copy(r.delta[:], v.VCChange)
	copy(r.vc[:], v.VC)
	for _, w := range v.Winners {
		r.winners |= 1 << w
	}
	s.last, s.hasLast = r, true
	return nil
}
