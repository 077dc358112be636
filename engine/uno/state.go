package uno

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/arena-dev/arena/engine"
)

// deckHook lets tests arrange the shuffled deck before a deal; nil
// otherwise.
var deckHook func(*State)

// pcgStream is the second PCG word; the first is the game seed.
const pcgStream = 0x756e6f // "uno"

type phase uint8

const (
	phColour  phase = iota + 1 // the first player names the colour of a starting Wild
	phTurn                     // play or draw
	phDrawn                    // play the card just drawn, or keep it
	phPending                  // a draw penalty is on you: stack, deflect, challenge or accept
	phJump                     // jump in with an identical card, or pass
	phOver
)

var phaseNames = [...]string{phColour: "colour", phTurn: "play", phDrawn: "drawn", phPending: "pending", phJump: "jump", phOver: "over"}

// Draw reasons (an event's "why").
const (
	whyTurn      = iota // the player chose to draw
	whyD2               // Draw Two (or a stack ending in one)
	whyWD4              // Wild Draw Four (or a stack ending in one)
	whyUno              // missed call
	whyChallenge        // lost a challenge: pending + 2
	whyBluff            // caught bluffing a Wild Draw Four
	whyStart            // starting Draw Two
	whyGuilty
	whyInnocent
)

var whyNames = [...]string{whyTurn: "turn", whyD2: "D2", whyWD4: "WD4", whyUno: "uno", whyChallenge: "challenge",
	whyBluff: "bluff", whyStart: "start", whyGuilty: "guilty", whyInnocent: "innocent"}

type evKind uint8

const (
	evDeal evKind = iota
	evStart
	evColour
	evPlay
	evJump
	evDraw
	evKeep
	evPass
	evChallenge
	evReveal
	evAccept
	evCatch
	evSwap
	evRotate
	evReshuffle
	evOut
	evHandEnd
)

var evNames = [...]string{evDeal: "deal", evStart: "start", evColour: "colour", evPlay: "play", evJump: "jump",
	evDraw: "draw", evKeep: "keep", evPass: "pass", evChallenge: "challenge", evReveal: "reveal", evAccept: "accept",
	evCatch: "catch", evSwap: "swap", evRotate: "rotate", evReshuffle: "reshuffle", evOut: "out", evHandEnd: "hand_end"}

// event is one entry of the game log. Cards (drawn cards, the challenge
// reveal) live in State.evCards[off:off+n] and are shown only to priv.
type event struct {
	kind   evKind
	seat   int8
	card   Card
	colour int8
	target int8
	uno    bool // play, jump: the call; a turn's draw: the card was kept (the view adds a keep event)
	why    uint8
	priv   int8 // 1 + the only seat that may see the cards; 0 nobody
	n      int16
	off    int32
}

// HandResult is one finished hand.
type HandResult struct {
	Hand   int   `json:"hand"`
	Dealer int   `json:"dealer"`
	Winner int   `json:"winner"`
	Points []int `json:"points"` // points scored in this hand, per seat
	// Finish is the finishing order: the seats that went out, then the
	// others by the points left in their hands (fewest first, then seat).
	Finish []int `json:"finish"`
}

// State is one Uno game: a sequence of hands until a seat reaches the
// target (or one hand).
type State struct {
	rules Rules
	n     int
	game

	// Backing arrays of the slices in game. They are not cleared between
	// games (Reset): every element is written before it is read.
	drawBuf [DeckSize]Card
	discBuf [DeckSize + 1]Card
	evBuf   [96]event // initial backing of events
	cardBuf [64]Card  // initial backing of evCards
	// The first hand's record, with its Points and Finish, lives in the
	// state: a single-hand playout then allocates nothing. Reset reuses
	// it, which is one reason results from before a Reset must not be
	// used after it; Clone and views copy it.
	hand1     [1]HandResult
	hand1Ints [2 * MaxSeats]int
}

// game is the part of State that a new game starts from zero: Reset
// clears it alone, not the 2 KiB of backing arrays after it.
type game struct {
	hand    [MaxSeats][NumKinds]uint8 // cards per kind per seat
	mask    [MaxSeats]uint64          // kinds held per seat
	count   [MaxSeats]int             // cards per seat
	active  [MaxSeats]bool            // still in the hand (play_to_last)
	nActive int

	draw    []Card // draw pile, top = last
	discard []Card // discard pile, top = last
	// The shuffle of the draw pile still to do (see shuffleDraw):
	// draw[:unshuffled] is not in its final order yet.
	unshuffled int

	colour int8 // active colour; -1 until a starting Wild's colour is named
	// match is the card kinds that may be played on the top card in the
	// active colour (turnMask before the Wild Draw Four rule). turnMask is
	// asked for several times a move, so setColour keeps it.
	match uint64
	// colourBits is colourMask[colour] (0 for none), kept with match: the
	// Wild Draw Four rule asks for it at every turnMask.
	colourBits uint64
	dir        int // +1: seat+1 plays next (clockwise); -1
	cur        int
	dealer     int
	handNo     int
	phase      phase

	drawn         Card // phDrawn: the card just drawn
	pending       int  // draws pending on cur (phPending)
	pendWD4       bool // the last draw card of the pending stack is a WD4
	challengeable bool // cur may challenge the WD4 just played on it
	wd4Player     int
	wd4Guilty     bool
	wd4Prev       int8 // the active colour before the WD4
	pendFrom      int  // the seat that played the top card of the pending stack

	jumpCard  Card
	jumpSeats [MaxSeats]int8
	nJump     int
	jumpIdx   int
	jumpNext  int

	catchSeat int // seat that forgot the call (catch_window), -1 none

	finish  [MaxSeats]int8
	nFinish int
	gained  [MaxSeats]int // points scored this hand
	scores  [MaxSeats]int
	hands   []HandResult

	ply int
	// public counts the actions every seat can see. A decision that only
	// its seat's own cards call for is hidden, and not counted: the pass
	// of a jump-in poll (it would tell that the seat holds the card just
	// played) and the keep of a drawn card (it would tell that the card
	// was playable). max_actions and the outcome's "after N actions" count
	// public, so that the end of a game does not give the hidden count
	// away either.
	public  int
	over    bool
	end     endKind
	outcome engine.Outcome

	events   []event
	evCards  []Card
	lastSeen [MaxSeats]int // first event not yet shown to a seat at its decision
	actStart int           // first event of the last action every seat can see

	pcg rand.PCG
}

// NewState deals the first hand (seat 0 deals) with explicit rules; the
// in-process fast path (Game.New is the registry path).
func NewState(seats int, seed uint64, r Rules) *State {
	if seats < 2 || seats > MaxSeats {
		panic(fmt.Sprintf("uno: %d seats", seats))
	}
	if r.MaxActions <= 0 {
		r.MaxActions = 100000
	}
	if r.CallName == "" {
		r.CallName = "uno"
	}
	s := &State{rules: r, n: seats}
	s.Reset(seed)
	return s
}

// Reset starts a new game with the same seats and rules from seed,
// reusing the state's memory (for playout loops); the game is exactly
// NewState(seats, seed, rules). Slices returned earlier (Hands, Outcome)
// must not be used after it.
func (s *State) Reset(seed uint64) {
	evs, cards := s.events[:0], s.evCards[:0]
	if cap(evs) <= len(s.evBuf) {
		evs = nil
	}
	if cap(cards) <= len(s.cardBuf) {
		cards = nil
	}
	s.game = game{}
	s.dealer = -1
	s.pcg.Seed(seed, pcgStream)
	s.events, s.evCards = evs, cards
	if s.events == nil {
		s.events = s.evBuf[:0]
	}
	if s.evCards == nil {
		s.evCards = s.cardBuf[:0]
	}
	s.newHand()
}

// Clone is an independent copy (same future RNG draws).
func (s *State) Clone() *State {
	c := *s
	c.draw = c.drawBuf[:len(s.draw)]
	c.discard = c.discBuf[:len(s.discard)]
	c.events = append(c.evBuf[:0:0], s.events...)
	c.evCards = append(c.cardBuf[:0:0], s.evCards...)
	c.hands = copyHands(s.hands)
	c.outcome.Ranks = append([]int(nil), s.outcome.Ranks...)
	c.outcome.Scores = append([]float64(nil), s.outcome.Scores...)
	return &c
}

// CloneState is Clone for the engine contract (engine.Cloner).
func (s *State) CloneState() engine.State { return s.Clone() }

// copyHands is a deep copy of hand results, sharing no memory with the
// state (the first hand's slices point into State.hand1Ints).
func copyHands(hs []HandResult) []HandResult {
	out := make([]HandResult, len(hs))
	for i, h := range hs {
		out[i] = h
		out[i].Points = append([]int(nil), h.Points...)
		out[i].Finish = append([]int(nil), h.Finish...)
	}
	return out
}

// Rules of this game.
func (s *State) Rules() Rules { return s.rules }

// Seats is the number of seats.
func (s *State) Seats() int { return s.n }

// Ply is the number of actions applied, hidden ones included.
func (s *State) Ply() int { return s.ply }

// Actions is the number of actions every seat has seen (the view's
// "actions"): Ply without the hidden decisions (a jump-in poll's pass, a
// drawn card's keep).
func (s *State) Actions() int { return s.public }

// HandNo is the current hand, from 1.
func (s *State) HandNo() int { return s.handNo }

// Hands lists the finished hands.
func (s *State) Hands() []HandResult { return s.hands }

// Scores is the total score of a seat.
func (s *State) Score(seat int) int { return s.scores[seat] }

// Count is the number of cards a seat holds.
func (s *State) Count(seat int) int { return s.count[seat] }

// Top is the top card of the discard pile.
func (s *State) Top() Card { return s.discard[len(s.discard)-1] }

// ActiveColour is the colour in force (-1 before a starting Wild's colour
// is named).
func (s *State) ActiveColour() int { return int(s.colour) }

// Holds is how many cards of kind c a seat holds (hidden information: for
// tests and in-process players that own the seat).
func (s *State) Holds(seat int, c Card) int { return int(s.hand[seat][c]) }

// Hand lists a seat's cards in card order.
func (s *State) Hand(seat int) []Card { return s.appendHand(nil, seat) }

func (s *State) appendHand(dst []Card, seat int) []Card {
	for m := s.mask[seat]; m != 0; m &= m - 1 {
		k := Card(bits.TrailingZeros64(m))
		for range s.hand[seat][k] {
			dst = append(dst, k)
		}
	}
	return dst
}

// Next is the seat after p in the direction of play, skipping the
// seats out of the hand.
func (s *State) Next(p int) int { return s.adv(p, 1) }

// ToMove implements engine.State.
func (s *State) ToMove() int { return s.cur }

// Over implements engine.State.
func (s *State) Over() bool { return s.over }

// Outcome implements engine.State. It is built on first use after the
// game ended (playouts that never ask pay nothing for the reason text).
func (s *State) Outcome() engine.Outcome {
	if s.over && s.outcome.Ranks == nil {
		s.outcome = s.buildOutcome()
	}
	return s.outcome
}

// ---- cards in hands and piles ----

func (s *State) addCard(seat int, c Card) {
	s.hand[seat][c]++
	s.mask[seat] |= 1 << c
	s.count[seat]++
}

func (s *State) removeCard(seat int, c Card) {
	s.hand[seat][c]--
	if s.hand[seat][c] == 0 {
		s.mask[seat] &^= 1 << c
	}
	s.count[seat]--
}

func (s *State) handPoints(seat int) int {
	p := 0
	for m := s.mask[seat]; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		p += int(s.hand[seat][k]) * cardPoints[k]
	}
	return p
}

func (s *State) canDraw() bool { return len(s.draw) > 0 || len(s.discard) > 1 }

// reshuffle turns the discard pile but its top card into a new draw pile.
func (s *State) reshuffle() bool {
	k := len(s.discard) - 1
	if k <= 0 {
		return false
	}
	s.draw = append(s.draw, s.discard[:k]...)
	s.discard[0] = s.discard[k]
	s.discard = s.discard[:1]
	s.shuffleDraw()
	s.log(evReshuffle, -1).n = int16(k)
	return true
}

// shuffleDraw shuffles the draw pile: a Fisher-Yates pass from the top
// down, each 64-bit PCG output giving two 32-bit multiply-shift draws.
//
// The pass is lazy. shuffleDraw only starts it, and popDraw takes the
// steps that settle the top card when that card is drawn: in a pass from
// the top down, step i fixes position i and touches nothing above it, so
// the cards drawn come out exactly as after the whole pass. A hand draws
// well under half the deck (about 45 cards in a 2-seat random playout),
// so most steps, and their PCG outputs, are never needed. The steps
// taken draw the same numbers in the same order as the whole pass would,
// because the PCG serves nothing but shuffles and a pass still pending is
// finished before the next one starts: the games are the same as with an
// eager shuffle.
func (s *State) shuffleDraw() {
	s.finishShuffle()
	s.unshuffled = len(s.draw)
}

// shuffleBatch is the number of steps popDraw takes at a time. One step
// per card drawn put a branch that alternated with the PCG output's
// halves among the game's unpredictable ones, and it was mispredicted
// about half the time; a batch runs as a short loop of its own. It is
// even, so that every batch starts on a fresh PCG output as the pass
// does, and no half output is carried from one batch to the next.
const shuffleBatch = 8

// shuffleSome takes up to shuffleBatch more steps of the pass.
func (s *State) shuffleSome() {
	d := s.draw
	i := min(s.unshuffled, len(d)) - 1 // the next step
	stop := max(i-shuffleBatch, 0)     // steps i down to stop+1
	for ; i > stop; i -= 2 {
		r := s.pcg.Uint64()
		j := (r & 0xffffffff) * uint64(i+1) >> 32
		d[i], d[j] = d[j], d[i]
		if i-1 > stop {
			j = (r >> 32) * uint64(i) >> 32
			d[i-1], d[j] = d[j], d[i-1]
		}
	}
	// Position stop is still open, unless it is 0: the last card left
	// to shuffle is in place.
	s.unshuffled = 0
	if stop > 0 {
		s.unshuffled = stop + 1
	}
}

// finishShuffle takes the steps of the pass still pending, for code that
// reads or rearranges the whole pile.
func (s *State) finishShuffle() {
	for min(s.unshuffled, len(s.draw)) > 1 {
		s.shuffleSome()
	}
	s.unshuffled = 0
}

// popDraw takes the top card of the draw pile, which must not be empty.
func (s *State) popDraw() Card {
	n := len(s.draw) - 1
	if n < s.unshuffled {
		s.shuffleSome()
	}
	c := s.draw[n]
	s.draw = s.draw[:n]
	return c
}

func (s *State) drawOne(seat int) (Card, bool) {
	if len(s.draw) == 0 && !s.reshuffle() {
		return NoCard, false
	}
	c := s.popDraw()
	s.addCard(seat, c)
	return c, true
}

// drawCards gives seat up to k cards (fewer if both piles run out) and
// logs one draw event, the cards visible to seat only.
func (s *State) drawCards(seat, k int, why uint8) int {
	off := len(s.evCards)
	n := 0
	for ; n < k; n++ {
		c, ok := s.drawOne(seat)
		if !ok {
			break
		}
		s.evCards = append(s.evCards, c)
	}
	e := s.log(evDraw, seat)
	e.why, e.n, e.priv, e.off = why, int16(n), int8(seat+1), int32(off)
	return n
}

// log appends an event of kind by seat and returns it for the caller to
// fill in its other fields in place. The event is not passed in as a
// struct literal: the compiler builds a literal of this many byte-sized
// fields in a stack temporary, a byte at a time, then copies it with one
// 16-byte load that the CPU cannot forward from those stores, and the
// stall cost about a tenth of a random playout.
func (s *State) log(kind evKind, seat int) *event {
	// Through a local slice: read back from s after the append, its
	// length and pointer were loaded again and bounds-checked.
	evs := append(s.events, event{})
	s.events = evs
	e := &evs[len(evs)-1]
	e.kind, e.seat = kind, int8(seat)
	return e
}

// ---- turn order ----

// adv steps k active seats from p in the direction of play.
func (s *State) adv(p, k int) int {
	n, dir := s.n, s.dir
	if s.nActive == n && k <= 2 {
		// Every seat is in the hand (always so but with play_to_last):
		// one step of k*dir, which leaves p in [-2, n+1], wrapped once
		// as below. The loop's exit depended on k, a skip or not, and
		// was mispredicted as often.
		p += k * dir
		p += n & (p >> 63)
		p -= n &^ ((p - n) >> 63)
		return p
	}
	for k > 0 {
		// p+dir wrapped round the table without a branch (the wrap is
		// one the predictor often gets wrong, and the compiler does not
		// turn it into conditional moves): x>>63 is -1 when x < 0, else
		// 0, so the first line adds n to a negative p and the second
		// subtracts n from a p >= n.
		p += dir
		p += n & (p >> 63)
		p -= n &^ ((p - n) >> 63)
		if s.active[p] {
			k--
		}
	}
	return p
}

func (s *State) nextTurn(q int) {
	s.cur = q
	s.phase = phTurn
}

// ---- legal actions ----

// setColour sets the active colour (-1: none yet), after a play or a
// colour named, and recomputes match for top, the top card (passed in: a
// play knows it without reading the discard pile back).
func (s *State) setColour(c int8, top Card) {
	s.colour = c
	s.match, s.colourBits = 0, 0
	if c >= 0 {
		s.colourBits = colourMask[c]
		s.match = s.colourBits | wildBits | sameFace[top]
	}
}

// turnMask is the card kinds p may play on its turn.
func (s *State) turnMask(p int) uint64 {
	held := s.mask[p]
	m := s.match
	if s.rules.Enforce {
		// No Wild Draw Four while holding the active colour. Without a
		// branch: whether p holds the colour is a coin toss that the
		// branch predictor kept getting wrong.
		m &^= nonZero(held&s.colourBits) << WildDraw
	}
	return held & m
}

// nonZero is 1 if x != 0, else 0, without a branch.
func nonZero(x uint64) uint64 { return (x | -x) >> 63 }

// pendingMask is the card kinds p may play with draws pending on it
// (stacking and deflecting).
func (s *State) pendingMask(p int) uint64 {
	held := s.mask[p]
	var m uint64
	if s.rules.StackDraws {
		if s.pendWD4 {
			m |= bitWildDraw | 1<<MakeCard(int(s.colour), FaceDrawTwo)
		} else {
			m |= faceMask[FaceDrawTwo] | bitWildDraw
		}
		if s.rules.Enforce && held&s.colourBits != 0 {
			m &^= bitWildDraw
		}
	}
	if s.rules.ReverseDeflects {
		m |= 1 << MakeCard(int(s.colour), FaceReverse)
	}
	return held & m
}

// catchable: the catch window is open for the seat to move. A jump-in
// poll never offers it: only a seat holding the card just played is
// polled, so a catch there would give the holder away (and the poll
// leaves the window open for the next player, see do).
func (s *State) catchable() bool {
	return s.catchSeat >= 0 && s.catchSeat != s.cur && s.phase != phJump
}

// Legal implements engine.State; see AppendLegal for the order.
func (s *State) Legal() []engine.Action {
	var buf [512]Action
	l := s.AppendLegal(buf[:0])
	out := make([]engine.Action, len(l))
	for i, a := range l {
		out[i] = a
	}
	return out
}

// AppendLegal appends the legal actions of the seat to move to dst (no
// allocation given capacity). Order: catch (when offered) first; then
// plays by card (R0..R9 RS RR RD2, Y..., G..., B..., W, WD4), each card's
// variants by colour named (red yellow green blue), then by swap target
// seat, then with the call before without it; then the closing action of
// the decision: draw or pass (turn), keep (drawn card), challenge then
// accept (pending draws), pass (jump-in); for a starting Wild the four
// colours.
func (s *State) AppendLegal(dst []Action) []Action {
	if s.over {
		return dst
	}
	p := s.cur
	if s.phase == phColour {
		for c := range 4 {
			dst = append(dst, NameColour(c))
		}
		return dst
	}
	if s.catchable() {
		dst = append(dst, Catch)
	}
	switch s.phase {
	case phTurn:
		plays := s.turnMask(p)
		// plain is the plays with no variants (a coloured card, no call
		// to make, no seven_zero target), listed from plainPlays: the
		// rules are tested once a turn, not for every card.
		var plain uint64
		if s.rules.UnoCall == CallOff || s.count[p] != 2 {
			plain = plays &^ wildBits
			if s.rules.SevenZero {
				plain &^= faceMask[7]
			}
		}
		for m := plays; m != 0; m &= m - 1 {
			c := Card(bits.TrailingZeros64(m))
			if plain&(1<<c) != 0 {
				dst = append(dst, plainPlays[c])
				continue
			}
			dst = s.appendPlays(dst, ActPlay, p, c)
		}
		// With both piles empty the draw that voluntary_draw allows
		// is impossible, and with it the only alternative to playing:
		// a seat passes only when it has no card to play either.
		if s.canDraw() {
			if s.rules.VoluntaryDraw || plays == 0 {
				dst = append(dst, Draw)
			}
		} else if plays == 0 {
			dst = append(dst, Pass)
		}
	case phDrawn:
		dst = s.appendPlays(dst, ActPlay, p, s.drawn)
		dst = append(dst, Keep)
	case phPending:
		for m := s.pendingMask(p); m != 0; m &= m - 1 {
			dst = s.appendPlays(dst, ActPlay, p, Card(bits.TrailingZeros64(m)))
		}
		if s.challengeable {
			dst = append(dst, Challenge)
		}
		dst = append(dst, Accept)
	case phJump:
		dst = s.appendPlays(dst, ActJump, p, s.jumpCard)
		dst = append(dst, Pass)
	}
	return dst
}

var (
	noColour   = [1]int8{-1}
	allColours = [4]int8{0, 1, 2, 3}
)

// plainPlays[c] is Play(c, -1), the play of a coloured card with no
// variants. Copying it from the table rather than appending a literal
// is what makes the common case cheap: see appendAction.
var plainPlays = func() (t [Wild]Action) {
	for c := range Wild {
		t[c] = Play(c, -1)
	}
	return t
}()

// appendAction appends the action with these fields, storing them one by
// one into the new element. Appending a struct literal or a modified
// local Action instead, the compiler builds the value in a stack
// temporary a byte at a time and copies it with wider loads that the CPU
// cannot forward from those byte stores: a stall on every action listed.
func appendAction(dst []Action, typ ActionType, c Card, colour, target int8, uno bool) []Action {
	dst = append(dst, Action{})
	a := &dst[len(dst)-1]
	a.Type, a.Card, a.Colour, a.Target, a.Uno = typ, c, colour, target, uno
	return dst
}

func (s *State) appendPlays(dst []Action, typ ActionType, p int, c Card) []Action {
	left := s.count[p] - 1
	call := s.rules.UnoCall != CallOff && left == 1
	seven := s.rules.SevenZero && cardFace[c] == 7 && left > 0
	cols := noColour[:]
	if c.IsWild() {
		cols = allColours[:]
	}
	for _, col := range cols {
		if !seven {
			if call {
				dst = appendAction(dst, typ, c, col, -1, true)
			}
			dst = appendAction(dst, typ, c, col, -1, false)
			continue
		}
		for q := range s.n {
			if q == p || !s.active[q] {
				continue
			}
			if call {
				dst = appendAction(dst, typ, c, col, int8(q), true)
			}
			dst = appendAction(dst, typ, c, col, int8(q), false)
		}
	}
	return dst
}

// ---- applying actions ----

var errOver = errors.New("uno: the game is over")

// Apply implements engine.State.
func (s *State) Apply(a engine.Action) error {
	switch x := a.(type) {
	case Action:
		return s.Play(x)
	case *Action:
		if x != nil {
			return s.PlayListed(x)
		}
	}
	return fmt.Errorf("uno: not an uno action: %v", a)
}

// Play applies a typed action (the fast path). An illegal action returns
// an error and leaves the state unchanged.
func (s *State) Play(a Action) error { return s.PlayListed(&a) }

// PlayListed is Play for an action in a slice, typically the list
// AppendLegal filled: Play(l[k]) has the caller copy the action out of
// the list and pass its five fields, which the compiler does through a
// stack temporary whose wide store the narrow loads of the fields
// cannot be forwarded from, a stall on every move of a playout. As with
// Play, an illegal action returns an error and leaves the state
// unchanged; a is not kept.
func (s *State) PlayListed(a *Action) error {
	// The functions below take the action by pointer: an Action travels
	// in five registers, one per field, and each call by value spilled
	// all five to its own stack frame.
	if s.over {
		return errOver
	}
	// Most actions are plays and draws on one's turn: they are checked
	// and applied here, instead of a dispatch on phase and type in legal
	// and again in do (whose jump table on the type was an indirect
	// branch to a random target).
	//
	// Whether a turn's action is a play or a draw is random, and the
	// type is tested once: a second test, in a check shared by both,
	// was mispredicted as often as the first.
	if s.phase == phTurn {
		p := s.cur
		switch a.Type {
		case ActPlay:
			// turnPlayOK, written out: the call cost more than the
			// check of a plain play.
			if plays := s.turnMask(p); !s.plainPlayOK(a, plays) && !s.playOK(a, p, plays) {
				return s.illegal(*a)
			}
			s.begin(p, false)
			s.catchSeat = -1
			s.playCard(p, a)
			s.checkLimit()
			return nil
		case ActDraw:
			if !s.turnDrawOK(a, s.turnMask(p)) {
				return s.illegal(*a)
			}
			s.begin(p, false)
			s.catchSeat = -1
			s.turnDraw(p)
			s.checkLimit()
			return nil
		}
	}
	if !s.legal(a) {
		return s.illegal(*a)
	}
	s.do(a)
	return nil
}

// isLegal reports whether a is in AppendLegal, without building the list.
func (s *State) isLegal(a Action) bool { return s.legal(&a) }

func (s *State) legal(a *Action) bool {
	if s.phase == phColour {
		return a.Type == ActColour && a.Colour >= 0 && a.Colour < 4 && *a == NameColour(int(a.Colour))
	}
	if a.Type == ActCatch {
		return *a == Catch && s.catchable()
	}
	p := s.cur
	switch s.phase {
	case phTurn:
		return s.turnOK(a, p, s.turnMask(p))
	case phDrawn:
		switch a.Type {
		case ActPlay:
			return a.Card == s.drawn && s.playOK(a, p, 1<<s.drawn)
		case ActKeep:
			return *a == Keep
		}
	case phPending:
		switch a.Type {
		case ActPlay:
			return s.playOK(a, p, s.pendingMask(p))
		case ActChallenge:
			return *a == Challenge && s.challengeable
		case ActAccept:
			return *a == Accept
		}
	case phJump:
		switch a.Type {
		case ActJump:
			return a.Card == s.jumpCard && s.playOK(a, p, 1<<s.jumpCard)
		case ActPass:
			return *a == Pass
		}
	}
	return false
}

// turnOK reports whether a is legal on p's turn (but a catch), plays
// being turnMask(p). Play checks its plays and draws with the same
// turnPlayOK and turnDrawOK.
func (s *State) turnOK(a *Action, p int, plays uint64) bool {
	switch a.Type {
	case ActPlay:
		return s.turnPlayOK(a, p, plays)
	case ActDraw:
		return s.turnDrawOK(a, plays)
	case ActPass:
		return *a == Pass && plays == 0 && !s.canDraw()
	}
	return false
}

// turnPlayOK reports whether the play a is legal on p's turn.
func (s *State) turnPlayOK(a *Action, p int, plays uint64) bool {
	return s.plainPlayOK(a, plays) || s.playOK(a, p, plays)
}

// plainPlayOK reports whether a is a plain play (a coloured card, no
// variant fields) of a card among the plays: such a play is listed for
// every one of them, with or without the call variant, unless seven_zero
// wants a target. It is playOK's answer, sooner; when it is false,
// playOK decides.
func (s *State) plainPlayOK(a *Action, plays uint64) bool {
	return a.Colour == -1 && a.Target == -1 && !a.Uno && a.Card < Wild && !s.rules.SevenZero && plays&(1<<a.Card) != 0
}

// turnDrawOK reports whether the draw a is legal on the turn.
func (s *State) turnDrawOK(a *Action, plays uint64) bool {
	return *a == Draw && s.drawOK(plays)
}

// drawOK reports whether the seat to move, with plays (turnMask), may
// draw on its turn.
func (s *State) drawOK(plays uint64) bool {
	return (s.rules.VoluntaryDraw || plays == 0) && s.canDraw()
}

// playOK checks the variant fields of a play of a card in mask, as
// appendPlays lists them.
func (s *State) playOK(a *Action, p int, mask uint64) bool {
	c := a.Card
	if mask&(1<<c) == 0 { // no kind >= NumKinds is in a mask
		return false
	}
	if (c >= Wild) != (a.Colour >= 0) || a.Colour > 3 {
		return false
	}
	left := s.count[p] - 1
	if a.Uno && (left != 1 || s.rules.UnoCall == CallOff) {
		return false
	}
	if s.rules.SevenZero && cardFace[c] == 7 && left > 0 {
		q := int(a.Target)
		return q >= 0 && q < s.n && q != p && s.active[q]
	}
	return a.Target == -1
}

func (s *State) illegal(a Action) error {
	var names []string
	for _, b := range s.AppendLegal(nil) {
		names = append(names, b.String())
	}
	return fmt.Errorf("uno: %s is not legal for seat %d now (%s decision; legal: %s)", a, s.cur, phaseNames[s.phase], strings.Join(names, " "))
}

// begin counts the action p is taking; hidden: see public.
func (s *State) begin(p int, hidden bool) {
	s.lastSeen[p] = len(s.events)
	s.ply++
	if !hidden {
		s.public++
		s.actStart = len(s.events)
	}
}

// do applies a legal action; Play applies the plays and draws on one's
// turn itself.
func (s *State) do(a *Action) {
	p := s.cur
	// A hidden decision (see public) leaves no trace the other seats could
	// read: not counted, not an action of its own in the spectator's
	// events, and it does not close the catch window, which is still
	// open for the next player as if nobody had been asked.
	// (A keep is legal on a drawn card only.)
	hidden := a.Type == ActKeep || (a.Type == ActPass && s.phase == phJump)
	s.begin(p, hidden)
	if a.Type == ActCatch {
		off := s.catchSeat
		s.catchSeat = -1
		s.log(evCatch, p).target = int8(off)
		s.drawCards(off, 2, whyUno)
	} else {
		if !hidden {
			s.catchSeat = -1
		}
		switch a.Type {
		case ActColour:
			s.setColour(a.Colour, s.Top())
			s.log(evColour, p).colour = a.Colour
			s.phase = phTurn
		case ActPlay, ActJump:
			s.playCard(p, a)
		case ActDraw:
			s.turnDraw(p)
		case ActKeep:
			s.keepDrawn(p)
			s.nextTurn(s.adv(p, 1))
		case ActPass:
			if s.phase == phJump {
				s.jumpIdx++
				if s.jumpIdx < s.nJump {
					s.cur = int(s.jumpSeats[s.jumpIdx])
				} else {
					s.nextTurn(s.jumpNext)
				}
				break
			}
			// A pass is a turn with nothing to play and nothing to draw.
			// It cannot go round the table: with both piles empty every
			// card of the active colour but the top one is in a hand,
			// so some seat can play, and a seat that can play must.
			s.log(evPass, p)
			s.nextTurn(s.adv(p, 1))
		case ActChallenge:
			s.challenge(p)
		case ActAccept:
			s.log(evAccept, p)
			s.takePending(p)
			next := s.adv(p, 1)
			s.nextTurn(next)
			// The draws are settled: the jump-in poll on the card that
			// caused them comes now, as it does when the victim has no
			// decision (hit).
			s.pollJump(s.pendFrom, s.Top(), next)
		}
	}
	s.checkLimit()
}

// checkLimit ends the game after an action that reached max_actions.
func (s *State) checkLimit() {
	if !s.over && s.public >= s.rules.MaxActions {
		s.stopAtLimit()
	}
}

func (s *State) stopAtLimit() {
	// A hidden decision the last action opened is settled as if it had
	// not been asked (no jump-in, the drawn card kept), so that the final
	// view does not show whether it was.
	switch s.phase {
	case phJump:
		s.nextTurn(s.jumpNext)
	case phDrawn:
		s.keepDrawn(s.cur)
		s.nextTurn(s.adv(s.cur, 1))
	}
	s.endGame(endMaxActions)
}

// turnDraw is the draw action: one card, or with draw_until_playable
// cards until a playable one. A playable last card may be played at once.
func (s *State) turnDraw(p int) {
	off := len(s.evCards)
	// The first card always comes: the draw is legal only with a card to
	// draw (drawOK).
	c, _ := s.drawOne(p)
	s.evCards = append(s.evCards, c)
	n := 1
	plays := s.turnMask(p)
	if s.rules.DrawUntilPlayable {
		for plays&(1<<c) == 0 {
			next, ok := s.drawOne(p)
			if !ok {
				break
			}
			c = next
			s.evCards = append(s.evCards, c)
			n++
			plays = s.turnMask(p)
		}
	}
	last := c
	playable := plays&(1<<last) != 0
	// A card that cannot be played is kept without asking. The keep is
	// shown all the same (the draw event's flag), so that the other seats
	// see the same events as when a playable card is kept by choice.
	e := s.log(evDraw, p)
	e.why, e.n, e.priv, e.off, e.uno = whyTurn, int16(n), int8(p+1), int32(off), !playable
	if playable {
		s.phase = phDrawn
		s.drawn = last
		return
	}
	s.nextTurn(s.adv(p, 1))
}

// keepDrawn records that p kept the card it drew: the flag on its draw
// event, the last event logged (nothing happens between a draw and the
// decision about the drawn card), exactly as for a card kept by rule.
func (s *State) keepDrawn(p int) {
	if k := len(s.events) - 1; k >= 0 && s.events[k].kind == evDraw && int(s.events[k].seat) == p && s.events[k].why == whyTurn {
		s.events[k].uno = true
		return
	}
	s.log(evKeep, p)
}

func (s *State) playCard(p int, a *Action) {
	c := a.Card
	wasPending := s.phase == phPending
	prev := s.colour
	guilty := c == WildDraw && s.mask[p]&s.colourBits != 0
	s.removeCard(p, c)
	s.discard = append(s.discard, c)
	// The colour in force is the card's, or the one a wild names. A legal
	// play has exactly one of the two >= 0 (a coloured card names none,
	// a wild has none), so max picks it without a branch on a card drawn
	// at random.
	s.setColour(max(cardColour[c], a.Colour), c)
	kind := evPlay
	if a.Type == ActJump {
		kind = evJump
	}
	e := s.log(kind, p)
	e.card, e.colour, e.target, e.uno = c, a.Colour, a.Target, a.Uno
	s.cur = p
	left := s.count[p]
	face := int(cardFace[c])
	// The penalty for a missed call is the forgetter's: with seven_zero a
	// 7 or 0 first moves the hands, and the two cards are drawn after
	// that, into the hand p then holds (drawn first, they would travel
	// with p's last card to another seat, and forgetting on purpose would
	// dump them there). Any other card draws them at once.
	handsMove := s.rules.SevenZero && (face == 7 || face == 0)
	penalty := false
	if s.rules.UnoCall != CallOff && left == 1 && !a.Uno {
		if s.rules.UnoCall == CallAutocatch {
			penalty = handsMove
			if !handsMove {
				s.drawCards(p, 2, whyUno)
			}
		} else {
			s.catchSeat = p
		}
	}
	if left == 0 {
		s.goneOut(p, c, wasPending)
		return
	}
	switch {
	case c == WildDraw:
		s.pending += 4
		s.pendWD4 = true
		s.challengeable = !s.rules.Enforce
		s.wd4Player, s.wd4Guilty, s.wd4Prev = p, guilty, prev
		s.hit(p, c, s.adv(p, 1))
		return
	case face == FaceDrawTwo:
		s.pending += 2
		s.pendWD4 = false
		s.challengeable = false
		s.hit(p, c, s.adv(p, 1))
		return
	case wasPending && face == FaceReverse: // deflected back to the sender
		s.dir = -s.dir
		s.challengeable = false
		s.hit(p, c, s.adv(p, 1))
		return
	}
	next := s.adv(p, 1)
	switch {
	case face == FaceSkip:
		next = s.adv(p, 2)
	case face == FaceReverse:
		if s.nActive == 2 {
			next = p
		} else {
			s.dir = -s.dir
			next = s.adv(p, 1)
		}
	// The rule is tested before the face, which is random, so that the
	// branches on it are predictable in the games that do not play it.
	case s.rules.SevenZero && face == 7:
		s.swap(p, int(a.Target))
	case s.rules.SevenZero && face == 0:
		s.rotate(p)
	}
	if penalty {
		s.drawCards(p, 2, whyUno)
	}
	s.nextTurn(next)
	s.pollJump(p, c, next)
}

// hit puts the pending draws on victim. Whenever the rules could give the
// victim a choice (a challenge, stack_draws, reverse_deflects_draw) it
// gets the pending decision, even when its own cards leave it nothing but
// accept: whether it is asked, and the accept every seat then sees, must
// not tell the others whether it holds a card to stack or deflect with.
// Otherwise it draws at once and loses its turn.
func (s *State) hit(p int, c Card, victim int) {
	s.cur = victim
	s.pendFrom = p
	if s.challengeable || s.rules.StackDraws || s.rules.ReverseDeflects {
		s.phase = phPending
		return
	}
	s.takePending(victim)
	next := s.adv(victim, 1)
	s.nextTurn(next)
	s.pollJump(p, c, next)
}

func (s *State) takePending(v int) {
	why := uint8(whyD2)
	if s.pendWD4 {
		why = whyWD4
	}
	s.drawCards(v, s.pending, why)
	s.pending = 0
	s.challengeable = false
}

func (s *State) challenge(p int) {
	w := s.wd4Player
	why := uint8(whyInnocent)
	if s.wd4Guilty {
		why = whyGuilty
	}
	e := s.log(evChallenge, p)
	e.target, e.why = int8(w), why
	off := len(s.evCards)
	s.evCards = s.appendHand(s.evCards, w)
	rev := s.log(evReveal, w)
	rev.priv, rev.n, rev.off = int8(p+1), int16(len(s.evCards)-off), int32(off)
	s.challengeable = false
	if s.wd4Guilty {
		s.drawCards(w, s.pending, whyBluff)
		s.pending = 0
		s.nextTurn(p)
		return
	}
	s.drawCards(p, s.pending+2, whyChallenge)
	s.pending = 0
	s.nextTurn(s.adv(p, 1))
}

// swap exchanges the hands of p and q (seven_zero 7).
func (s *State) swap(p, q int) {
	s.hand[p], s.hand[q] = s.hand[q], s.hand[p]
	s.mask[p], s.mask[q] = s.mask[q], s.mask[p]
	s.count[p], s.count[q] = s.count[q], s.count[p]
	s.log(evSwap, p).target = int8(q)
}

// rotate passes every active hand to the next active seat in the
// direction of play (seven_zero 0).
func (s *State) rotate(p int) {
	var order [MaxSeats]int
	k := 0
	q := p
	for range s.nActive {
		order[k] = q
		k++
		q = s.adv(q, 1)
	}
	// order[i]'s hand goes to order[i+1]: walk backwards holding the last.
	lh, lm, lc := s.hand[order[k-1]], s.mask[order[k-1]], s.count[order[k-1]]
	for i := k - 1; i > 0; i-- {
		s.hand[order[i]], s.mask[order[i]], s.count[order[i]] = s.hand[order[i-1]], s.mask[order[i-1]], s.count[order[i-1]]
	}
	s.hand[order[0]], s.mask[order[0]], s.count[order[0]] = lh, lm, lc
	s.log(evRotate, p).n = int16(s.dir)
}

// pollJump asks the seats holding a card identical to c, clockwise from p,
// whether they jump in (jump_in). next is who plays if nobody does. The
// test of the rule is a function of its own so that it inlines: most
// games play without jump_in, and a call on every play cost more than
// the test.
func (s *State) pollJump(p int, c Card, next int) {
	if s.rules.JumpIn {
		s.pollJumpIn(p, c, next)
	}
}

func (s *State) pollJumpIn(p int, c Card, next int) {
	if c.IsWild() || s.over {
		return
	}
	s.nJump = 0
	for i := 1; i < s.n; i++ {
		q := (p + i) % s.n
		if s.active[q] && s.hand[q][c] > 0 {
			s.jumpSeats[s.nJump] = int8(q)
			s.nJump++
		}
	}
	if s.nJump == 0 {
		return
	}
	s.phase = phJump
	s.jumpCard = c
	s.jumpIdx = 0
	s.jumpNext = next
	s.cur = int(s.jumpSeats[0])
}

// goneOut: p played its last card c.
func (s *State) goneOut(p int, c Card, wasPending bool) {
	face := int(cardFace[c])
	skip := false
	switch {
	case c == WildDraw || face == FaceDrawTwo:
		if c == WildDraw {
			s.pending += 4
		} else {
			s.pending += 2
		}
		s.pendWD4 = c == WildDraw
		s.takePending(s.adv(p, 1))
		skip = true
	case face == FaceReverse && wasPending:
		s.dir = -s.dir
		s.takePending(s.adv(p, 1))
		skip = true
	case face == FaceReverse:
		if s.nActive > 2 {
			s.dir = -s.dir
		} else {
			skip = true
		}
	case face == FaceSkip:
		skip = true
	}
	s.pending, s.challengeable = 0, false
	s.active[p] = false
	s.nActive--
	s.finish[s.nFinish] = int8(p)
	s.nFinish++
	s.log(evOut, p).n = int16(s.nFinish)
	if s.nFinish == 1 {
		s.scoreHand(p)
		if !s.rules.SingleHandGame() && s.maxScore() >= s.rules.Target {
			s.endHand()
			return
		}
	}
	if !s.rules.PlayToLast || s.nActive <= 1 {
		s.endHand()
		return
	}
	k := 1
	if skip {
		k = 2
	}
	s.nextTurn(s.adv(p, k))
}

func (s *State) maxScore() int {
	m := s.scores[0]
	for i := 1; i < s.n; i++ {
		m = max(m, s.scores[i])
	}
	return m
}

// scoreHand scores the hand won by w, the first seat out.
func (s *State) scoreHand(w int) {
	s.gained = [MaxSeats]int{}
	switch s.rules.Scoring {
	case WinnerCollects:
		for i := range s.n {
			if i != w {
				s.gained[w] += s.handPoints(i)
			}
		}
	case PenaltyLowWins:
		for i := range s.n {
			if i != w {
				s.gained[i] = s.handPoints(i)
			}
		}
	case SingleHand:
		s.gained[w] = 1
	}
	for i := range s.n {
		s.scores[i] += s.gained[i]
	}
}

// endHand records the hand and deals the next one or ends the game.
func (s *State) endHand() {
	// The seats still holding cards finish by points left, then seat.
	var rest [MaxSeats]int
	var pts [MaxSeats]int
	k := 0
	for i := range s.n {
		if s.active[i] {
			pts[i] = s.handPoints(i)
			j := k
			for j > 0 && (pts[rest[j-1]] > pts[i]) {
				rest[j] = rest[j-1]
				j--
			}
			rest[j] = i
			k++
		}
	}
	for _, i := range rest[:k] {
		s.finish[s.nFinish] = int8(i)
		s.nFinish++
	}
	var both []int
	if len(s.hands) == 0 {
		s.hands = s.hand1[:0]
		both = s.hand1Ints[:2*s.n]
	} else {
		both = make([]int, 2*s.n)
	}
	hr := HandResult{Hand: s.handNo, Dealer: s.dealer, Winner: int(s.finish[0]), Points: both[:s.n:s.n],
		Finish: both[s.n:]}
	for i := range s.n {
		hr.Points[i] = s.gained[i]
		hr.Finish[i] = int(s.finish[i])
	}
	s.hands = append(s.hands, hr)
	s.log(evHandEnd, int(s.finish[0])).n = int16(min(s.gained[s.finish[0]], 32767))
	if s.rules.SingleHandGame() {
		s.endGame(endSingleHand)
		return
	}
	if m := s.maxScore(); m >= s.rules.Target {
		s.endGame(endTarget)
		return
	}
	s.newHand()
}

// wording writes a count with its unit in a reason: n and unit "hand"
// give "1 hand" or "7 hands" (rightly), or "1 hands" (formerly).
type wording func(n int, unit string) string

// rightly is the count singular for one, plural otherwise.
func rightly(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// formerly is every count plural, as arenas before the mend recorded
// it ("after 1 hands"): the outcome's Formerly, for replays.Verify.
func formerly(n int, unit string) string { return fmt.Sprintf("%d %ss", n, unit) }

// reasonOf is the reason reason words rightly, with how it was formerly
// worded if that differs.
func reasonOf(reason func(wording) string) (string, []string) {
	now, before := reason(rightly), reason(formerly)
	if before == now {
		return now, nil
	}
	return now, []string{before}
}

func (s *State) singleHandReason(hr HandResult, count wording) string {
	w := hr.Winner
	var b strings.Builder
	fmt.Fprintf(&b, "seat %d went out after %s", w, count(s.public, "action"))
	switch s.rules.Scoring {
	case WinnerCollects:
		fmt.Fprintf(&b, ", scoring %s", count(hr.Points[w], "point"))
	case PenaltyLowWins:
		b.WriteString("; penalty points")
		for i, p := range hr.Points {
			fmt.Fprintf(&b, " %d", p)
			if i == w {
				b.WriteString("(winner)")
			}
		}
	}
	if s.rules.PlayToLast {
		b.WriteString("; finishing order")
		for _, q := range hr.Finish {
			fmt.Fprintf(&b, " %d", q)
		}
	}
	return b.String()
}

func (s *State) targetReason(count wording) string {
	hands := len(s.hands)
	if s.rules.Scoring == PenaltyLowWins {
		hi, lo := 0, 0
		for i := range s.n {
			if s.scores[i] > s.scores[hi] {
				hi = i
			}
			if s.scores[i] < s.scores[lo] {
				lo = i
			}
		}
		return fmt.Sprintf("seat %d reached %s after %s; seat %d has the fewest (%d)", hi, count(s.scores[hi], "penalty point"), count(hands, "hand"), lo, s.scores[lo])
	}
	hi := 0
	for i := range s.n {
		if s.scores[i] > s.scores[hi] {
			hi = i
		}
	}
	return fmt.Sprintf("seat %d reached %s after %s", hi, count(s.scores[hi], "point"), count(hands, "hand"))
}

// endGame ends the game; the outcome is built by Outcome.
func (s *State) endGame(end endKind) {
	s.over = true
	s.phase = phOver
	s.end = end
}

type endKind uint8

const (
	endSingleHand endKind = iota + 1
	endTarget
	endMaxActions
)

// buildOutcome ranks the seats: by the last hand's finishing order for a
// single-hand game with play_to_last, else by total score
// (penalty_low_wins: fewest first; a single hand won under winner_collects
// or single_hand: the winner first, the others tied).
func (s *State) buildOutcome() engine.Outcome {
	o := engine.Outcome{Scores: make([]float64, s.n)}
	key := make([]float64, s.n)
	for i := range s.n {
		o.Scores[i] = float64(s.scores[i])
		key[i] = float64(s.scores[i])
		if s.rules.Scoring == PenaltyLowWins {
			key[i] = -key[i]
		}
	}
	switch s.end {
	case endSingleHand:
		hr := s.hands[len(s.hands)-1]
		o.Reason, o.Formerly = reasonOf(func(count wording) string { return s.singleHandReason(hr, count) })
		switch {
		case s.rules.PlayToLast:
			for place, q := range hr.Finish {
				key[q] = float64(s.n - place)
			}
		case s.rules.Scoring != PenaltyLowWins:
			for i := range key {
				key[i] = 0
			}
			key[hr.Winner] = 1
		}
	case endTarget:
		o.Reason, o.Formerly = reasonOf(s.targetReason)
	default:
		o.Reason = fmt.Sprintf("max_actions %d reached during hand %d; ranked by the scores so far", s.rules.MaxActions, s.handNo)
	}
	o.Ranks = engine.RanksFromScores(key)
	return o
}

// newHand deals the next hand: the deal passes left (seat+1).
func (s *State) newHand() {
	s.dealer = (s.dealer + 1) % s.n
	s.handNo++
	s.hand = [MaxSeats][NumKinds]uint8{}
	s.mask = [MaxSeats]uint64{}
	s.count = [MaxSeats]int{}
	s.active = [MaxSeats]bool{}
	for i := range s.n {
		s.active[i] = true
	}
	s.nActive = s.n
	s.nFinish = 0
	s.gained = [MaxSeats]int{}
	s.pending, s.pendWD4, s.challengeable = 0, false, false
	s.catchSeat = -1
	s.dir = 1
	s.drawn = NoCard
	// The last hand's pass is finished before its pile is replaced, so
	// that the PCG is where the whole pass would have left it.
	s.finishShuffle()
	s.draw = append(s.drawBuf[:0], fullDeck[:]...)
	s.discard = s.discBuf[:0]
	s.shuffleDraw()
	if deckHook != nil {
		s.finishShuffle()
		deckHook(s)
	}
	// One card at a time round the table from the dealer's left. The seat
	// steps with a compare, not (dealer+i)%n: a division per card dealt
	// was a measurable part of a short hand.
	q := s.dealer
	for range HandSize * s.n {
		if q++; q == s.n {
			q = 0
		}
		s.addCard(q, s.popDraw())
	}
	s.log(evDeal, s.dealer).n = int16(s.handNo)
	var c Card
	for {
		c = s.popDraw()
		if c == WildDraw || (s.rules.StartNumberOnly && !c.IsNumber()) {
			s.draw = append(s.draw, c)
			s.shuffleDraw()
			continue
		}
		break
	}
	s.discard = append(s.discard, c)
	s.log(evStart, s.dealer).card = c
	first := s.adv(s.dealer, 1)
	if c == Wild {
		s.setColour(-1, c)
		s.cur = first
		s.phase = phColour
		return
	}
	s.setColour(int8(c.Colour()), c)
	switch c.Face() {
	case FaceSkip:
		s.nextTurn(s.adv(s.dealer, 2))
	case FaceReverse:
		if s.n > 2 {
			s.dir = -1
		}
		s.nextTurn(s.dealer)
	case FaceDrawTwo:
		s.drawCards(first, 2, whyStart)
		s.nextTurn(s.adv(first, 1))
	default:
		s.nextTurn(first)
	}
}
