package boon

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/arena-dev/arena/engine"
)

// pcgStream is the second PCG word; the first is the game seed.
const pcgStream = 0x626f6f6e // "boon"

// Phase is the kind of decision the state waits for.
type Phase uint8

// Phases.
const (
	PhasePick Phase = iota // take or pass the Boon
	PhaseBury              // the picker buries one card (repeated |Boon| times)
	PhasePlay              // play a card to the trick
	PhaseOver              // the game is over
)

var phaseNames = [...]string{"pick", "bury", "play", "over"}

func (p Phase) String() string { return phaseNames[p] }

// Mode is how the current round is played.
type Mode uint8

// Modes.
const (
	ModePick   Mode = iota // nobody has taken the Boon yet
	ModePicker             // a picker plays alone against the defenders
	ModeLeast              // everyone passed: Least mode, everyone for themselves
	ModeRedeal             // (round results only) everyone passed and the cards were redealt
)

var modeNames = [...]string{"pick", "picker", "least", "redeal"}

func (m Mode) String() string { return modeNames[m] }

// trick is one trick: cards in play order starting with the leader.
type trick struct {
	leader int8
	n      int8
	best   int8 // index into cards of the winning card so far
	cards  [MaxSeats]Card
}

func (t *trick) winner(seats int) int { return (int(t.leader) + int(t.best)) % seats }

func (t *trick) points() int {
	p := 0
	for _, c := range t.cards[:t.n] {
		p += int(cardPoints[c])
	}
	return p
}

// Public events, as the view's "events" reports them.
type evKind uint8

const (
	evDeal     evKind = iota // seat = dealer
	evPass                   // seat passed
	evTake                   // seat took the Boon
	evBury                   // the picker buried a card (never says which)
	evLeast                  // everyone passed: Least mode; seat = leader
	evRedeal                 // everyone passed: redeal; seat = -1
	evPlay                   // seat played card
	evTrick                  // seat won the trick
	evRoundEnd               // the round was scored; seat = -1
	evGameEnd                // the game is over; seat = -1
)

var evNames = [...]string{"deal", "pass", "take", "bury", "least", "redeal", "play", "trick", "round_end", "game_end"}

type event struct {
	kind evKind
	seat int8
	card Card // evPlay only
}

// roundResult records a scored (or redealt) round.
type roundResult struct {
	round, dealer int
	mode          Mode
	picker        int
	pickerPoints  int // tricks + buried (picker mode), else -1
	buriedPoints  int // picker mode, else -1
	points        [MaxSeats]int
	tricks        [MaxSeats]int
	winners       uint8 // seat bits: least mode the fewest-points seats; picker mode the side paid
	perDefender   int   // picker mode: VC per defender, > 0 the picker receives
	delta         [MaxSeats]int
	vc            [MaxSeats]int
	tie           LeastTie // least_tie in force
	asidePoints   int      // Least mode: points of the set-aside Boon (never shown)
}

// State is one Boon game.
type State struct {
	rules     Rules
	n         int
	handSize  int
	boonSize  int
	tricksPer int
	deck      Set
	vcTotal   int
	vc        [MaxSeats]int
	round     int // number of the current deal, from 1
	dealer    int
	phase     Phase
	mode      Mode
	toMove    int
	hands     [MaxSeats]Set
	boon      Set // as dealt: the picker's Boon, or the set-aside Boon in Least mode
	buried    Set
	buryLeft  int
	picker    int // -1 unless mode is ModePicker
	nPassed   int // seats left of the dealer that passed, in order
	played    Set // cards played to tricks this round
	cur       trick
	nTricks   int // completed tricks this round
	tricks    [9]trick
	points    [MaxSeats]int // trick points this round
	won       [MaxSeats]int // tricks won this round
	ending    bool          // a seat reached 0 VC (final_tie=play_on waits for one leader)
	last      roundResult
	hasLast   bool
	log       []event
	seen      [MaxSeats]int // log index of each seat's last decision
	lastStart int           // log index where the last action's events start
	ply       int
	over      bool
	outcome   engine.Outcome
	pcg       *rand.PCG
	rng       *rand.Rand
}

// boonSizes and starting VC per seat count (index = seats).
var (
	boonSizes = [MaxSeats + 1]int{3: 3, 4: 4, 5: 2}
	startVC   = [MaxSeats + 1]int{3: 5, 4: 5, 5: 4}
)

// NewState starts a game with explicit rules (the in-process fast path;
// Game.New is the registry path). It panics on a seat count outside 3-5.
func NewState(seats int, seed uint64, r Rules) *State {
	if seats < MinSeats || seats > MaxSeats {
		panic(fmt.Sprintf("boon: %d seats", seats))
	}
	if r.Rounds <= 0 {
		r.Rounds = DefaultRounds
	}
	s := &State{rules: r, n: seats, picker: -1}
	s.deck = Deck(seats)
	s.boonSize = boonSizes[seats]
	s.handSize = (s.deck.Len() - s.boonSize) / seats
	s.tricksPer = s.handSize
	for i := range seats {
		s.vc[i] = startVC[seats]
		s.vcTotal += startVC[seats]
	}
	s.pcg = rand.NewPCG(seed, pcgStream)
	s.rng = rand.New(s.pcg)
	s.log = make([]event, 0, 64)
	s.dealer = s.rng.IntN(seats)
	s.round = 1
	s.deal()
	return s
}

// Clone is an independent copy (same future RNG draws).
func (s *State) Clone() *State {
	c := *s
	c.log = append(make([]event, 0, cap(s.log)), s.log...)
	p := *s.pcg
	c.pcg = &p
	c.rng = rand.New(c.pcg)
	c.outcome.Ranks = append([]int(nil), s.outcome.Ranks...)
	c.outcome.Scores = append([]float64(nil), s.outcome.Scores...)
	return &c
}

// CloneState is Clone for the engine contract (engine.Cloner).
func (s *State) CloneState() engine.State { return s.Clone() }

func (s *State) next(seat int) int {
	seat++
	if seat == s.n {
		return 0
	}
	return seat
}

// deal shuffles the deck with the game RNG and deals a new round.
func (s *State) deal() {
	var cards [NumCards]Card
	k := 0
	for x := uint32(s.deck); x != 0; x &= x - 1 {
		cards[k] = Card(bits.TrailingZeros32(x))
		k++
	}
	for i := k - 1; i > 0; i-- {
		j := s.rng.IntN(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
	p := 0
	for seat := range s.n {
		var h Set
		for _, c := range cards[p : p+s.handSize] {
			h |= 1 << c
		}
		s.hands[seat] = h
		p += s.handSize
	}
	s.boon = 0
	for _, c := range cards[p:k] {
		s.boon |= 1 << c
	}
	s.buried, s.buryLeft, s.picker, s.nPassed = 0, 0, -1, 0
	s.played, s.nTricks = 0, 0
	s.points, s.won = [MaxSeats]int{}, [MaxSeats]int{}
	s.phase, s.mode = PhasePick, ModePick
	s.toMove = s.next(s.dealer)
	s.cur = trick{leader: int8(s.toMove)}
	s.log = append(s.log, event{kind: evDeal, seat: int8(s.dealer)})
}

// Rules of this game.
func (s *State) Rules() Rules { return s.rules }

// Seats is the number of seats.
func (s *State) Seats() int { return s.n }

// Round is the number of the current deal, from 1 (redeals count).
func (s *State) Round() int { return s.round }

// Phase is the decision the state waits for.
func (s *State) Phase() Phase { return s.phase }

// Mode is how the current round is played.
func (s *State) Mode() Mode { return s.mode }

// Picker is the seat that took the Boon this round, or -1.
func (s *State) Picker() int { return s.picker }

// Dealer is the current dealer.
func (s *State) Dealer() int { return s.dealer }

// VC is a seat's victory cards.
func (s *State) VC(seat int) int { return s.vc[seat] }

// Hand is a seat's hand (hidden information: for tests and in-process
// players that own the seat).
func (s *State) Hand(seat int) Set { return s.hands[seat] }

// Ply is the number of actions applied.
func (s *State) Ply() int { return s.ply }

// CurrentTrick is the trick being played: its cards in play order from
// its leader, and the index among them of the card winning so far (0 for
// an empty trick). The slice is the state's own: read it, do not keep it.
func (s *State) CurrentTrick() (leader int, cards []Card, best int) {
	return int(s.cur.leader), s.cur.cards[:s.cur.n], int(s.cur.best)
}

// ToMove implements engine.State.
func (s *State) ToMove() int { return s.toMove }

// Over implements engine.State.
func (s *State) Over() bool { return s.over }

// Outcome implements engine.State.
func (s *State) Outcome() engine.Outcome { return s.outcome }

// Legal implements engine.State; see AppendLegal for the order.
func (s *State) Legal() []engine.Action {
	var buf [16]Action
	l := s.AppendLegal(buf[:0])
	out := make([]engine.Action, len(l))
	for i, a := range l {
		out[i] = a.boxed()
	}
	return out
}

// playable is the set of cards the seat to move may play now: the led
// suit if it holds any; else (must_trump) its Golds if any; else its hand.
func (s *State) playable() Set {
	h := s.hands[s.toMove]
	if s.cur.n == 0 {
		return h
	}
	if f := h & suitMask[s.cur.cards[0].Suit()]; f != 0 {
		return f
	}
	if s.rules.MustTrump {
		if g := h & suitMask[Gold]; g != 0 {
			return g
		}
	}
	return h
}

// AppendLegal appends the legal actions to dst without allocating (given
// capacity). Order: pick phase take then pass; bury phase every card of
// the picker's hand; play phase every playable card; cards in sort order
// (B1-B6, G1-G6, R1-R6, Au1-Au14).
func (s *State) AppendLegal(dst []Action) []Action {
	switch s.phase {
	case PhasePick:
		return append(dst, Take(), Pass())
	case PhaseBury:
		for x := uint32(s.hands[s.picker]); x != 0; x &= x - 1 {
			dst = append(dst, Action{KindBury, Card(bits.TrailingZeros32(x))})
		}
	case PhasePlay:
		for x := uint32(s.playable()); x != 0; x &= x - 1 {
			dst = append(dst, Action{KindPlay, Card(bits.TrailingZeros32(x))})
		}
	}
	return dst
}

// LegalSet is the set of cards the seat to move may bury or play (0 in
// the pick phase and once over).
func (s *State) LegalSet() Set {
	switch s.phase {
	case PhaseBury:
		return s.hands[s.picker]
	case PhasePlay:
		return s.playable()
	}
	return 0
}

// Apply implements engine.State.
func (s *State) Apply(a engine.Action) error {
	switch x := a.(type) {
	case Action:
		return s.Play(x)
	case *Action:
		if x != nil {
			return s.Play(*x)
		}
	}
	return fmt.Errorf("boon: not a boon action: %v", a)
}

// Play applies a typed action (the fast path). An illegal action returns
// an error and leaves the state unchanged.
func (s *State) Play(a Action) error {
	if err := s.check(a); err != nil {
		return err
	}
	s.do(a)
	return nil
}

// check says why a is not legal now, or nil.
func (s *State) check(a Action) error {
	if s.over {
		return errors.New("boon: the game is over")
	}
	if !a.valid() {
		return fmt.Errorf("boon: invalid action %d/%d", a.Kind, a.Card)
	}
	switch s.phase {
	case PhasePick:
		if a.Kind != KindTake && a.Kind != KindPass {
			return fmt.Errorf("boon: %s: seat %d must take or pass the Boon", a, s.toMove)
		}
		return nil
	case PhaseBury:
		if a.Kind != KindBury {
			return fmt.Errorf("boon: %s: the picker must bury %d more card(s)", a, s.buryLeft)
		}
		if !s.hands[s.picker].Has(a.Card) {
			return fmt.Errorf("boon: %s: %s is not in the picker's hand", a, a.Card)
		}
		return nil
	}
	if a.Kind != KindPlay {
		return fmt.Errorf("boon: %s: seat %d must play a card", a, s.toMove)
	}
	h := s.hands[s.toMove]
	if !h.Has(a.Card) {
		return fmt.Errorf("boon: %s: %s is not in seat %d's hand", a, a.Card, s.toMove)
	}
	if !s.playable().Has(a.Card) {
		led := s.cur.cards[0].Suit()
		if h&suitMask[led] != 0 {
			return fmt.Errorf("boon: %s: must follow %s", a, led.Name())
		}
		return fmt.Errorf("boon: %s: must play gold (must_trump)", a)
	}
	return nil
}

// do applies a checked action.
func (s *State) do(a Action) {
	me := s.toMove
	s.ply++
	s.lastStart = len(s.log)
	s.seen[me] = len(s.log)
	switch a.Kind {
	case KindTake:
		s.log = append(s.log, event{kind: evTake, seat: int8(me)})
		s.picker, s.mode, s.phase = me, ModePicker, PhaseBury
		s.hands[me] |= s.boon
		s.buryLeft = s.boonSize
	case KindPass:
		s.log = append(s.log, event{kind: evPass, seat: int8(me)})
		s.nPassed++
		if s.nPassed < s.n {
			s.toMove = s.next(me)
			return
		}
		if s.rules.NoPick == NoPickRedeal {
			s.log = append(s.log, event{kind: evRedeal, seat: -1})
			s.mode = ModeRedeal
			s.endRound()
			return
		}
		s.mode, s.phase = ModeLeast, PhasePlay
		s.toMove = s.next(s.dealer)
		s.cur = trick{leader: int8(s.toMove)}
		s.log = append(s.log, event{kind: evLeast, seat: int8(s.toMove)})
	case KindBury:
		s.log = append(s.log, event{kind: evBury, seat: int8(me), card: NoCard})
		s.hands[me] &^= 1 << a.Card
		s.buried |= 1 << a.Card
		s.buryLeft--
		if s.buryLeft == 0 {
			s.phase = PhasePlay
			s.toMove = s.next(s.dealer)
			s.cur = trick{leader: int8(s.toMove)}
		}
	case KindPlay:
		s.log = append(s.log, event{kind: evPlay, seat: int8(me), card: a.Card})
		s.hands[me] &^= 1 << a.Card
		s.played |= 1 << a.Card
		t := &s.cur
		t.cards[t.n] = a.Card
		if t.n > 0 && Beats(a.Card, t.cards[t.best]) {
			t.best = t.n
		}
		t.n++
		if int(t.n) < s.n {
			s.toMove = s.next(me)
			return
		}
		w := t.winner(s.n)
		s.points[w] += t.points()
		s.won[w]++
		s.tricks[s.nTricks] = *t
		s.nTricks++
		s.log = append(s.log, event{kind: evTrick, seat: int8(w)})
		s.cur = trick{leader: int8(w)}
		if s.nTricks == s.tricksPer {
			s.endRound()
			return
		}
		s.toMove = w
	}
}

// Band is the payout for a picker's round: victory cards per defender,
// positive when the picker receives from each defender, negative when the
// picker pays each defender. pickerTricks and defenderTricks are the
// tricks each side took (for the sheepshead no-trick tier).
func Band(t Tiers, pickerPoints, pickerTricks, defenderTricks int) int {
	lo := 29 // boon: 0-29 / 30-60 / 61-90 / 91-120
	if t == TiersSheepshead {
		switch {
		case pickerTricks == 0:
			return -3
		case defenderTricks == 0:
			return 3
		}
		lo = 30 // sheepshead: 0-30 / 31-60 / 61-90 / 91-120
	}
	switch {
	case pickerPoints <= lo:
		return -2
	case pickerPoints <= 60:
		return -1
	case pickerPoints <= 90:
		return 1
	}
	return 2
}

// canPay reports whether seat can hand over a victory card.
func (s *State) canPay(seat int) bool { return s.rules.NegativeVC || s.vc[seat] > 0 }

func (s *State) transfer(from, to int) {
	s.vc[from]--
	s.vc[to]++
}

// endRound scores the round, pays out, and either ends the game or deals
// the next round.
func (s *State) endRound() {
	r := roundResult{round: s.round, dealer: s.dealer, mode: s.mode, picker: s.picker,
		pickerPoints: -1, buriedPoints: -1, points: s.points, tricks: s.won, tie: s.rules.LeastTie}
	before := s.vc
	switch s.mode {
	case ModePicker:
		p := s.picker
		r.buriedPoints = s.buried.Points()
		r.pickerPoints = s.points[p] + r.buriedPoints
		per := Band(s.rules.Tiers, r.pickerPoints, s.won[p], s.tricksPer-s.won[p])
		r.perDefender = per
		if per > 0 {
			r.winners = 1 << p
			for d := s.next(p); d != p; d = s.next(d) {
				for k := 0; k < per && s.canPay(d); k++ {
					s.transfer(d, p)
				}
			}
		} else {
			for d := s.next(p); d != p; d = s.next(d) {
				r.winners |= 1 << d
			}
			// Round-robin clockwise among the defenders, one card at a time.
			for k := 0; k < -per; k++ {
				for d := s.next(p); d != p && s.canPay(p); d = s.next(d) {
					s.transfer(p, d)
				}
			}
		}
	case ModeLeast:
		r.asidePoints = s.boon.Points()
		s.leastPayout(&r)
	}
	for i := range s.n {
		r.delta[i] = s.vc[i] - before[i]
	}
	r.vc = s.vc
	s.last, s.hasLast = r, true
	s.log = append(s.log, event{kind: evRoundEnd, seat: -1})
	if s.mode != ModeRedeal {
		for i := range s.n {
			if s.vc[i] <= 0 {
				s.ending = true
			}
		}
	}
	if s.ending && (!s.rules.FinalPlayOn || s.leaders() == 1) {
		s.finish(s.outReason())
		return
	}
	if s.round >= s.rules.Rounds {
		s.finish(fmt.Sprintf("round cap %d reached", s.rules.Rounds))
		return
	}
	s.round++
	s.dealer = s.next(s.dealer)
	s.deal()
}

// leastPayout: the winner is the seat with the fewest points among those
// that took at least one trick; every other seat gives it 1 VC.
func (s *State) leastPayout(r *roundResult) {
	best := TotalPoints + 1
	var tied uint8
	for i := range s.n {
		if s.won[i] == 0 {
			continue
		}
		switch {
		case s.points[i] < best:
			best, tied = s.points[i], 1<<i
		case s.points[i] == best:
			tied |= 1 << i
		}
	}
	r.winners = tied
	w := -1
	if bits.OnesCount8(tied) == 1 {
		w = bits.TrailingZeros8(tied)
	} else if s.rules.LeastTie == LeastTieRandom {
		k := s.rng.IntN(bits.OnesCount8(tied))
		for x := tied; x != 0; x &= x - 1 {
			if k == 0 {
				w = bits.TrailingZeros8(x)
				break
			}
			k--
		}
	}
	first := s.next(s.dealer)
	if w >= 0 {
		for d := s.next(w); d != w; d = s.next(d) {
			if s.canPay(d) {
				s.transfer(d, w)
			}
		}
		return
	}
	if s.rules.LeastTie != LeastTieSplit {
		return // void
	}
	// Split: the payers (non-tied seats able to pay, clockwise from the
	// dealer's left) pay 1 each, dealt round-robin to the tied winners; the
	// remainder of the integer division stays with the payers.
	var payers [MaxSeats]int
	np := 0
	for i, d := 0, first; i < s.n; i, d = i+1, s.next(d) {
		if tied&(1<<d) == 0 && s.canPay(d) {
			payers[np] = d
			np++
		}
	}
	nw := bits.OnesCount8(tied)
	pay := np / nw * nw
	k := 0
	for k < pay {
		for i, d := 0, first; i < s.n && k < pay; i, d = i+1, s.next(d) {
			if tied&(1<<d) != 0 {
				s.transfer(payers[k], d)
				k++
			}
		}
	}
}

// leaders is the number of seats sharing the most victory cards.
func (s *State) leaders() int {
	top, n := s.vc[0], 0
	for i := range s.n {
		top = max(top, s.vc[i])
	}
	for i := range s.n {
		if s.vc[i] == top {
			n++
		}
	}
	return n
}

func seatList(seats []int) string {
	var b strings.Builder
	if len(seats) == 1 {
		b.WriteString("seat ")
	} else {
		b.WriteString("seats ")
	}
	for i, x := range seats {
		switch {
		case i == 0:
		case i == len(seats)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

func (s *State) outReason() string {
	var out []int
	for i := range s.n {
		if s.vc[i] <= 0 {
			out = append(out, i)
		}
	}
	verb := "is"
	if len(out) > 1 {
		verb = "are"
	}
	if len(out) == 0 { // play_on: the seat that ran out has recovered
		return fmt.Sprintf("a tie for the lead was broken in round %d", s.round)
	}
	return fmt.Sprintf("%s %s out of victory cards after round %d", seatList(out), verb, s.round)
}

// finish ends the game: ranks by victory cards, ties shared.
func (s *State) finish(why string) {
	s.over = true
	s.phase = PhaseOver
	s.toMove = -1
	s.log = append(s.log, event{kind: evGameEnd, seat: -1})
	scores := make([]float64, s.n)
	top := s.vc[0]
	for i := range s.n {
		scores[i] = float64(s.vc[i])
		top = max(top, s.vc[i])
	}
	var lead []int
	for i := range s.n {
		if s.vc[i] == top {
			lead = append(lead, i)
		}
	}
	if len(lead) == 1 {
		why += fmt.Sprintf("; seat %d wins with %d victory cards", lead[0], top)
	} else {
		why += fmt.Sprintf("; %s share first with %d victory cards", seatList(lead), top)
	}
	s.outcome = engine.Outcome{Ranks: engine.RanksFromScores(scores), Scores: scores, Reason: why}
}
