package uno

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/deal"
)

// Observer implements engine.Sampler: seat's memory of a game of seats
// seats under opts.
func (g Game) Observer(seat, seats int, opts engine.Options) (engine.Observer, error) {
	if seats < 2 || seats > g.maxSeats {
		return nil, fmt.Errorf("game %s takes 2-%d seats, got %d", g.name, g.maxSeats, seats)
	}
	if seat < 0 || seat >= seats {
		return nil, fmt.Errorf("uno observer: seat %d of %d seats", seat, seats)
	}
	o, err := engine.Resolve(g.name, g.opts(), opts)
	if err != nil {
		return nil, err
	}
	ob := &Observer{me: seat, n: seats, rules: rulesOf(o), top: NoCard, colour: -1, dir: 1, wd4From: -1}
	ob.reset()
	return ob, nil
}

// Observer is what a seat remembers across its views of an Uno game,
// beyond what its last view shows: the cards a challenge revealed to it,
// and the card kinds a seat's older cards are known to lack: when it
// drew on its turn because it had nothing to play (no voluntary draw),
// when its Wild Draw Four was found innocent, or whenever it played one
// under wd4_mode=enforce (it held none of the colour active before). It
// is sound rather than complete: what it cannot tell for sure (which of
// a seat's cards a play came from) it does not assume, and what a
// deal's slots cannot say (a guilty Wild Draw Four: at least one card of
// a colour) it leaves out.
type Observer struct {
	me, n int
	rules Rules
	// known[q] is cards seat q is known to hold (a challenge's reveal,
	// less what it played since).
	known [MaxSeats][]Card
	// lack[q] is the card kinds q's older cards are known not to include,
	// fresh[q] the cards it drew since (any kind).
	lack  [MaxSeats]uint64
	fresh [MaxSeats]int
	// mine is the seat's own cards as of the events read so far (its
	// last view's hand, then its draws and plays), nil when a swap has
	// made them unknown until the next view: a swap or a rotation gives
	// them to another seat, which is then known to hold them.
	mine []Card
	// out[q]: q is out of the hand (play_to_last), as of the events.
	out    [MaxSeats]bool
	dir    int
	top    Card
	colour int
	// The last Wild Draw Four: its player (-1 none), the colour active
	// before it (an innocent challenge shows the player held none of
	// it) and the cards the player drew since (a missed call's).
	wd4From, wd4Prev, wd4Drawn int

	last *View // the last view observed
	// prep is what every sample of the last view shares, read from it
	// once: a search samples thousands of states from one view.
	prep prepared
}

// prepared is the last view as a state whose other hands and draw
// pile each sample deals anew (base: those of base are any the counts
// allow), and where the unseen cards may go; err is why no state can be
// sampled from it.
type prepared struct {
	base *State
	d    dealing
	err  error
}

func (o *Observer) reset() {
	o.wd4From = -1
	o.known = [MaxSeats][]Card{}
	o.lack = [MaxSeats]uint64{}
	o.fresh = [MaxSeats]int{}
	o.out = [MaxSeats]bool{}
}

// matchMask is the card kinds playable on top in colour, the wilds
// included (the state's match): a seat that draws for lack of a play
// held none of them.
func matchMask(top Card, colour int) uint64 {
	return colourMask[colour] | wildBits | sameFace[top]
}

// Observe implements engine.Observer.
func (o *Observer) Observe(view []byte) error {
	v := new(View)
	if err := json.Unmarshal(view, v); err != nil {
		return fmt.Errorf("uno observer: view: %w", err)
	}
	if v.You == nil || *v.You != o.me || len(v.Counts) != o.n {
		return fmt.Errorf("uno observer: not a view of seat %d of %d seats", o.me, o.n)
	}
	for _, e := range v.Events {
		o.event(e)
	}
	if c, err := ParseCard(v.Top); err == nil {
		o.top = c
	}
	o.colour = -1
	if v.Colour != nil {
		if c, err := ParseColour(*v.Colour); err == nil {
			o.colour = c
		}
	}
	o.mine = make([]Card, 0, len(v.Hand))
	for _, s := range v.Hand {
		if c, err := ParseCard(s); err == nil {
			o.mine = append(o.mine, c)
		}
	}
	o.out = [MaxSeats]bool{}
	for _, q := range v.Finished {
		if q >= 0 && q < o.n {
			o.out[q] = true
		}
	}
	o.dir = v.Direction
	o.known[o.me], o.lack[o.me], o.fresh[o.me] = nil, 0, 0
	o.last = v
	o.prep = o.prepare(v)
	return nil
}

// prepare reads what every sample of view v shares.
func (o *Observer) prepare(v *View) prepared {
	if v.Over || v.Decision == nil {
		return prepared{err: engine.ErrNoDecision}
	}
	p, pool, err := o.position(v)
	if err != nil {
		return prepared{err: err}
	}
	h, err := historyOf(v)
	if err != nil {
		return prepared{err: err}
	}
	d := o.dealing(v, pool)
	d.cards = make([]uint8, len(pool))
	for i, c := range pool {
		d.cards[i] = uint8(c)
	}
	o.place(&p, d)
	base, err := FromPosition(p)
	if err != nil {
		return prepared{err: fmt.Errorf("%w: %w", engine.ErrInconsistent, err)}
	}
	base.restoreHistory(&h)
	d.cards = nil
	return prepared{base: base, d: *d}
}

// place gives the position the other hands and the draw pile of deal d.
func (o *Observer) place(p *Position, d *dealing) {
	mine := p.Hands[o.me]
	p.Hands = make([][]Card, o.n)
	for q := range o.n {
		if q == o.me {
			p.Hands[q] = mine
		} else {
			p.Hands[q] = d.hand(q)
		}
	}
	p.Draw = d.hand(o.n)
}

// event reads one event of a view.
func (o *Observer) event(e Event) {
	q := e.Seat
	if q < 0 || q >= o.n {
		return
	}
	switch e.Type {
	case "deal":
		// The new hand's cards are first shown in the next view.
		o.reset()
		o.dir, o.mine = 1, nil
	case "rotate":
		o.rotate(e.N)
	case "out":
		o.out[q] = true
	case "start":
		if c, err := ParseCard(e.Card); err == nil {
			o.top, o.colour = c, c.Colour()
		}
	case "colour":
		if c, err := ParseColour(e.Colour); err == nil {
			o.colour = c
		}
	case "play", "jump":
		o.play(q, e)
	case "draw":
		if q == o.wd4From {
			o.wd4Drawn += e.N
		}
		if q == o.me {
			for _, s := range e.Cards {
				if c, err := ParseCard(s); err == nil && o.mine != nil {
					o.mine = append(o.mine, c)
				}
			}
			return
		}
		if e.Why == "turn" && !o.rules.VoluntaryDraw && o.top != NoCard && o.colour >= 0 {
			// A seat draws only with nothing to play: it held no card
			// matching, and only its last card drawn may be playable.
			o.lack[q], o.fresh[q] = matchMask(o.top, o.colour), 1
			return
		}
		o.fresh[q] += e.N
	case "reveal":
		if q == o.me {
			return
		}
		o.known[q] = o.known[q][:0]
		for _, s := range e.Cards {
			if c, err := ParseCard(s); err == nil {
				o.known[q] = append(o.known[q], c)
			}
		}
		o.lack[q], o.fresh[q] = 0, 0
	case "challenge":
		// An innocent Wild Draw Four: its player held no card of the
		// colour active before it (all see the verdict; only the
		// challenger sees the hand, a reveal event).
		if w := e.Target; e.Why == "innocent" && w != nil && *w == o.wd4From && *w != o.me {
			o.lacks(*w, colourMask[o.wd4Prev], o.wd4Drawn)
		}
	case "swap":
		if e.Target != nil && *e.Target >= 0 && *e.Target < o.n {
			o.swap(q, *e.Target)
		}
	}
}

// swap follows two seats' exchange of hands: what was known of each
// goes with it, and a seat that takes the viewer's hand is known to hold
// it all.
func (o *Observer) swap(q, r int) {
	o.known[q], o.known[r] = o.known[r], o.known[q]
	o.lack[q], o.lack[r] = o.lack[r], o.lack[q]
	o.fresh[q], o.fresh[r] = o.fresh[r], o.fresh[q]
	if q == o.me || r == o.me {
		o.gaveMine(q + r - o.me)
	}
}

// gaveMine records that seat q now holds the viewer's hand, and that the
// viewer's own is unknown until its next view.
func (o *Observer) gaveMine(q int) {
	o.known[q], o.lack[q], o.fresh[q] = nil, 0, 0
	if o.mine != nil {
		o.known[q] = slices.Clone(o.mine)
	}
	o.known[o.me], o.lack[o.me], o.fresh[o.me] = nil, 0, 0
	o.mine = nil
}

// rotate follows every hand in the hand passing to the next seat still
// in it, in direction dir: what was known of each goes with it.
func (o *Observer) rotate(dir int) {
	if dir != 1 && dir != -1 {
		dir = o.dir
	}
	var seats []int // the seats in the hand, in direction dir
	for i := range o.n {
		if q := ((o.me+dir*i)%o.n + o.n) % o.n; !o.out[q] {
			seats = append(seats, q)
		}
	}
	if len(seats) < 2 {
		return
	}
	k := len(seats)
	lk, ll, lf := o.known[seats[k-1]], o.lack[seats[k-1]], o.fresh[seats[k-1]]
	for i := k - 1; i > 0; i-- {
		a, b := seats[i], seats[i-1]
		o.known[a], o.lack[a], o.fresh[a] = o.known[b], o.lack[b], o.fresh[b]
	}
	o.known[seats[0]], o.lack[seats[0]], o.fresh[seats[0]] = lk, ll, lf
	if seats[0] == o.me {
		o.gaveMine(seats[1])
	}
}

func (o *Observer) play(q int, e Event) {
	c, err := ParseCard(e.Card)
	if err != nil {
		return
	}
	if q == o.me && o.mine != nil {
		if i := slices.Index(o.mine, c); i >= 0 {
			o.mine = slices.Delete(o.mine, i, i+1)
		}
	}
	prev := o.colour
	o.top, o.colour = c, c.Colour()
	if c.IsWild() {
		if col, err := ParseColour(e.Colour); err == nil {
			o.colour = col
		}
	}
	for i, x := range o.known[q] {
		if x == c {
			o.known[q] = append(o.known[q][:i], o.known[q][i+1:]...)
			break
		}
	}
	if o.lack[q]&(1<<c) != 0 && o.fresh[q] > 0 {
		o.fresh[q]-- // it can only have been a fresh card
	}
	o.wd4From = -1
	if c == WildDraw && prev >= 0 && prev < 4 {
		o.wd4From, o.wd4Prev, o.wd4Drawn = q, prev, 0
		if o.rules.Enforce && e.Type == "play" && q != o.me {
			// A Wild Draw Four may be played only by a seat holding no
			// card of the active colour.
			o.lacks(q, colourMask[prev], 0)
		}
	}
}

// lacks records that none of the cards seat q held before its last
// since cards drawn is of the kinds m. What was known of its older
// cards holds for those too when they are as many or more; else it
// gives way (sound, if less than all that is known).
func (o *Observer) lacks(q int, m uint64, since int) {
	if o.fresh[q] > since {
		o.lack[q] = 0
	}
	o.lack[q] |= m
	o.fresh[q] = since
}

// Sample implements engine.Observer.
func (o *Observer) Sample(rng *rand.Rand) (engine.State, error) {
	return engine.AsState(o.SampleState(rng))
}

// SampleState is Sample with its concrete type. The seat's own view of
// the sample is the one it was sent; another seat's view of it is right
// in its hand, counts, pile and decision, but its events are the
// viewer's (those since the viewer's last decision, not its own) and
// its draws among them show no cards: which cards another seat drew is
// what the viewer cannot know, and a deal of the hands does not say it.
// A search that plays other seats by their views (greedy's rules of
// thumb read the hand and the decision) is not misled; one that reads
// their events would be.
func (o *Observer) SampleState(rng *rand.Rand) (*State, error) {
	v, pr := o.last, &o.prep
	if v == nil {
		return nil, engine.ErrNoDecision
	}
	if pr.err != nil {
		return nil, pr.err
	}
	d := pr.d // the pool and the slots are read only; the deal is d's own
	d.cards = nil
	if !d.deal(rng) {
		return nil, fmt.Errorf("%w: no deal of the unseen cards fits", engine.ErrInconsistent)
	}
	// The prepared state with this deal: what FromPosition would build
	// from the position with these hands, without checking it all again.
	s := pr.base.Clone()
	// Back the log with the state's own arrays, as a dealt state's is:
	// a playout appends to it at every action.
	s.events = append(s.evBuf[:0], pr.base.events...)
	s.evCards = append(s.cardBuf[:0], pr.base.evCards...)
	for q := range o.n {
		if q == o.me {
			continue
		}
		s.hand[q], s.mask[q], s.count[q] = [NumKinds]uint8{}, 0, 0
		for _, c := range d.cards[d.start[q]:d.start[q+1]] {
			s.addCard(q, Card(c))
		}
	}
	s.draw = s.drawBuf[:0]
	for _, c := range d.cards[d.start[o.n]:d.start[o.n+1]] {
		s.draw = append(s.draw, Card(c))
	}
	s.pcg.Seed(rng.Uint64(), pcgStream)
	if s.challengeable {
		s.wd4Guilty = s.mask[s.wd4Player]&colourMask[s.wd4Prev] != 0
	}
	return s, nil
}

// dealing lays out the slots to deal the pool to: every other seat's
// cards (its known cards, then the older cards that lack some kinds,
// then the rest), then the draw pile.
func (o *Observer) dealing(v *View, pool []Card) *dealing {
	d := &dealing{pool: make([]uint8, len(pool))}
	for i, c := range pool {
		d.pool[i] = uint8(c)
	}
	for q := range o.n + 1 {
		d.start[q] = len(d.slots)
		if q == o.me {
			continue
		}
		if q == o.n {
			d.free(v.DrawPile)
			continue
		}
		left := v.Counts[q]
		for _, c := range o.known[q] {
			if left > 0 {
				d.slots = append(d.slots, 1<<c)
				left--
			}
		}
		if o.lack[q] != 0 {
			for range max(0, left-o.fresh[q]) {
				d.slots = append(d.slots, ^o.lack[q])
				left--
			}
		}
		d.free(left)
	}
	d.start[o.n+1] = len(d.slots)
	return d
}

// position is the last view as a position without the other hands and
// the draw pile, and the cards the seat cannot see (the pool to deal).
func (o *Observer) position(v *View) (Position, []Card, error) {
	p := Position{Rules: o.rules, Seats: o.n, Direction: v.Direction, ToMove: v.ToMove, Dealer: v.Dealer,
		HandNo: v.HandNo, Scores: v.Scores, Finished: v.Finished, Actions: v.Actions, Colour: -1, Catch: -1}
	if v.Colour != nil {
		c, err := ParseColour(*v.Colour)
		if err != nil {
			return p, nil, err
		}
		p.Colour = c
	}
	var seen [NumKinds]int
	parse := func(ss []string) ([]Card, error) {
		out := make([]Card, len(ss))
		for i, s := range ss {
			c, err := ParseCard(s)
			if err != nil {
				return nil, err
			}
			out[i] = c
			seen[c]++
		}
		return out, nil
	}
	p.Hands = make([][]Card, o.n)
	var err error
	if p.Hands[o.me], err = parse(v.Hand); err != nil {
		return p, nil, err
	}
	if p.Discard, err = parse(v.Discard); err != nil {
		return p, nil, err
	}
	if len(p.Discard) == 0 {
		return p, nil, fmt.Errorf("%w: an empty discard pile", engine.ErrInconsistent)
	}
	var pool []Card
	for k := range Card(NumKinds) {
		for range int(cardCopies[k]) - seen[k] {
			pool = append(pool, k)
		}
	}
	others := v.DrawPile - len(v.Hand)
	for _, c := range v.Counts {
		others += c
	}
	if len(pool) != others {
		return p, nil, fmt.Errorf("%w: %d unseen cards for a draw pile and other hands of %d", engine.ErrInconsistent, len(pool), others)
	}
	if err := o.decide(&p, v); err != nil {
		return p, nil, err
	}
	return p, pool, nil
}

// decide fills in the position's decision from the view's.
func (o *Observer) decide(p *Position, v *View) error {
	d := v.Decision
	p.Decision = d.Kind
	if d.Catch != nil {
		p.Catch = *d.Catch
	}
	var err error
	switch d.Kind {
	case "drawn":
		p.Drawn, err = ParseCard(d.Card)
	case "pending":
		p.Pending = d.Pending
		p.PendingWD4 = p.Discard[len(p.Discard)-1] == WildDraw
		p.PendingFrom = o.lastPlayer(v)
		if d.Challenge && d.From != nil {
			p.Challenge, p.WD4From = true, *d.From
			p.WD4Prev, err = ParseColour(d.PrevColour)
		}
	case "jump":
		p.JumpCard, err = ParseCard(d.Card)
		p.JumpNext = o.nextActive(v, o.lastPlayer(v))
	}
	return err
}

// lastPlayer is the seat that played the last card in the view's events
// (else the seat before the viewer).
func (o *Observer) lastPlayer(v *View) int {
	for i := len(v.Events) - 1; i >= 0; i-- {
		if e := v.Events[i]; e.Type == "play" || e.Type == "jump" {
			return e.Seat
		}
	}
	return ((o.me-v.Direction)%o.n + o.n) % o.n
}

// nextActive is the seat after p in the direction of play still in the
// hand.
func (o *Observer) nextActive(v *View, p int) int {
	var out [MaxSeats]bool
	for _, q := range v.Finished {
		if q >= 0 && q < o.n {
			out[q] = true
		}
	}
	for range o.n {
		p = ((p+v.Direction)%o.n + o.n) % o.n
		if !out[p] {
			return p
		}
	}
	return p
}

// history is a view's history as a state holds it: the finished hands
// and the events since the seat's last decision (cards holds those the
// events show the seat, at their offsets). The cards of other seats'
// draws are not known; those events carry none (only the viewer may see
// its own draws and a reveal, and only it looks).
type history struct {
	hands  []HandResult
	events []event
	cards  []Card
}

// historyOf reads view v's history, once for all the states sampled
// from it.
func historyOf(v *View) (history, error) {
	h := history{hands: v.Hands}
	var s State // eventOf's scratch: it gathers the cards
	for _, e := range v.Events {
		ev, err := s.eventOf(e, *v.You)
		if err != nil {
			return h, fmt.Errorf("%w: %w", engine.ErrInconsistent, err)
		}
		h.events = append(h.events, ev)
	}
	h.cards = s.evCards
	return h, nil
}

// restoreHistory gives a state built from the last view's position that
// view's history, so that its view is the one observed.
func (s *State) restoreHistory(h *history) {
	s.hands = copyHands(h.hands)
	base := int32(len(s.evCards))
	for _, ev := range h.events {
		if ev.priv > 0 { // its cards, at an offset into cards
			ev.off += base
		}
		s.events = append(s.events, ev)
	}
	s.evCards = append(s.evCards, h.cards...)
	s.lastSeen = [MaxSeats]int{}
	s.actStart = 0
}

// eventOf is the log entry that renders as e to seat me.
func (s *State) eventOf(e Event, me int) (event, error) {
	ev := event{seat: int8(e.Seat), target: -1, uno: e.Uno, n: int16(e.N)}
	kind, ok := indexOf(evNames[:], e.Type)
	if !ok {
		return ev, fmt.Errorf("event type %q", e.Type)
	}
	ev.kind = evKind(kind)
	if e.Why != "" {
		w, ok := indexOf(whyNames[:], e.Why)
		if !ok {
			return ev, fmt.Errorf("event why %q", e.Why)
		}
		ev.why = uint8(w)
	}
	if e.Target != nil {
		ev.target = int8(*e.Target)
	}
	var err error
	if e.Card != "" {
		ev.card, err = ParseCard(e.Card)
	}
	if e.Colour != "" && err == nil {
		var c int
		c, err = ParseColour(e.Colour)
		ev.colour = int8(c)
	}
	if len(e.Cards) > 0 && err == nil {
		ev.priv, ev.n, ev.off = int8(me+1), int16(len(e.Cards)), int32(len(s.evCards))
		for _, cs := range e.Cards {
			var c Card
			if c, err = ParseCard(cs); err != nil {
				break
			}
			s.evCards = append(s.evCards, c)
		}
	}
	return ev, err
}

func indexOf(names []string, name string) (int, bool) {
	for i, x := range names {
		if x == name && name != "" {
			return i, true
		}
	}
	return 0, false
}

// dealing is where the unseen cards go: the slots of every other seat
// and of the draw pile, each with the kinds it may take (package deal).
type dealing struct {
	pool  []uint8
	slots []uint64
	cards []uint8 // the deal: cards[i] in slots[i]
	// start[q] is seat q's first slot (start[n] the draw pile's);
	// start[n+1] the end.
	start [MaxSeats + 2]int
}

// free adds k slots that take any card.
func (d *dealing) free(k int) {
	for range k {
		d.slots = append(d.slots, deal.Any)
	}
}

// hand is the cards dealt to seat q (q == n: the draw pile).
func (d *dealing) hand(q int) []Card {
	cs := d.cards[d.start[q]:d.start[q+1]]
	out := make([]Card, len(cs))
	for i, c := range cs {
		out[i] = Card(c)
	}
	return out
}

func (d *dealing) deal(rng *rand.Rand) bool {
	var ok bool
	d.cards, ok = deal.Deal(rng, d.pool, d.slots, d.cards)
	return ok
}
