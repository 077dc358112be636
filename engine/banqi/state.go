package banqi

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/arena-dev/arena/engine"
)

// pcgStream is the second PCG word; the first is the game seed.
const pcgStream = 0x62616e7169 // "banqi"

// State is one Banqi game. It holds no layout of the face-down pieces:
// each flip draws the revealed piece uniformly from the remaining
// face-down multiset with the game's seeded RNG.
type State struct {
	rules Rules
	board Board

	hidden  [16]int8 // face-down pieces left, per piece code (public knowledge)
	nHidden int
	taken   [16]int8 // captured pieces per piece code
	alive   [2]int8  // pieces per colour not yet captured (face-down included)

	colourOf [2]Colour // per seat, NoColour before the first flip
	toMove   int
	chain    int8 // square of the piece that must capture again or stop; -1 none

	ply   int // actions applied
	quiet int // moves since the last flip or capture

	hash     uint64
	hist     []uint64  // positions since the last flip/capture, turn boundaries only
	base     Board     // board at hist[0]
	baseMove int       // seat to move at hist[0]
	moves    [][2]int8 // moves since hist[0]: moves[k] leads from hist[k] to hist[k+1]

	last       Action
	lastReveal Piece // piece revealed by the last action (flip or face-down attack)
	hasLast    bool

	over    bool
	outcome engine.Outcome

	pcg *rand.PCG
	rng *rand.Rand
}

// NewState starts a game with explicit rules (the in-process fast path;
// Game.New is the registry path).
func NewState(seed uint64, r Rules) *State {
	s := &State{rules: r, chain: -1}
	for sq := range 32 {
		s.board[sq] = FaceDown
	}
	for c := range Colour(2) {
		for t := range Type(7) {
			s.hidden[MakePiece(c, t)] = int8(Count[t])
		}
		s.alive[c] = 16
	}
	s.nHidden = 32
	s.colourOf = [2]Colour{NoColour, NoColour}
	s.pcg = rand.NewPCG(seed, pcgStream)
	s.rng = rand.New(s.pcg)
	s.hash = s.computeHash()
	s.hist = make([]uint64, 0, 64)
	s.moves = make([][2]int8, 0, 64)
	s.resetHistory()
	s.base, s.baseMove = s.board, 0
	s.hist = append(s.hist, s.hash)
	return s
}

// Clone is an independent copy (same future RNG draws).
func (s *State) Clone() *State {
	c := *s
	c.hist = append(make([]uint64, 0, cap(s.hist)), s.hist...)
	c.moves = append(make([][2]int8, 0, cap(s.moves)), s.moves...)
	p := *s.pcg
	c.pcg = &p
	c.rng = rand.New(c.pcg)
	c.outcome.Ranks = append([]int(nil), s.outcome.Ranks...)
	c.outcome.Scores = append([]float64(nil), s.outcome.Scores...)
	return &c
}

// CloneState is Clone for the engine contract (engine.Cloner).
func (s *State) CloneState() engine.State { return s.Clone() }

// Rules of this game.
func (s *State) Rules() Rules { return s.rules }

// Board is the current board (face-down pieces are FaceDown).
func (s *State) Board() Board { return s.board }

// ColourOf is a seat's colour, NoColour before the first flip.
func (s *State) ColourOf(seat int) Colour { return s.colourOf[seat] }

// Ply is the number of actions applied.
func (s *State) Ply() int { return s.ply }

// ToMove implements engine.State.
func (s *State) ToMove() int { return s.toMove }

// Over implements engine.State.
func (s *State) Over() bool { return s.over }

// Outcome implements engine.State.
func (s *State) Outcome() engine.Outcome { return s.outcome }

// Legal implements engine.State; see AppendLegal for the order.
func (s *State) Legal() []engine.Action {
	var buf [128]Action
	l := s.AppendLegal(buf[:0])
	out := make([]engine.Action, len(l))
	for i, a := range l {
		out[i] = a.boxed()
	}
	return out
}

// AppendLegal appends the legal actions to dst without allocating (given
// capacity). Order: during a capture chain, the chain piece's captures by
// target square then stop; otherwise flips by square index, then moves by
// from then to square index, then captures by from then to square index.
// Square index: a8=0, b8=1, ..., d1=31.
func (s *State) AppendLegal(dst []Action) []Action {
	if s.over {
		return dst
	}
	var tb [4]int8
	if s.chain >= 0 {
		for _, t := range s.board.appendTargets(s.rules.Ranks, int(s.chain), s.rules.CaptureFacedown, tb[:0]) {
			dst = append(dst, Capture(int(s.chain), int(t)))
		}
		return append(dst, Stop())
	}
	me := s.colourOf[s.toMove]
	var own [16]int8
	n := 0
	for sq := range 32 {
		p := s.board[sq]
		if p == FaceDown {
			dst = append(dst, Flip(sq))
		} else if pieceColour[p] == me && me != NoColour {
			own[n] = int8(sq)
			n++
		}
	}
	if me == NoColour {
		return dst
	}
	for _, sq := range own[:n] {
		for _, t := range nbr[sq] {
			if t >= 0 && s.board[t] == Empty {
				dst = append(dst, Action{KindMove, sq, t})
			}
		}
	}
	for _, sq := range own[:n] {
		for _, t := range s.board.appendTargets(s.rules.Ranks, int(sq), s.rules.CaptureFacedown, tb[:0]) {
			dst = append(dst, Action{KindCapture, sq, t})
		}
	}
	return dst
}

// hasLegal reports whether the seat to move has any action.
func (s *State) hasLegal() bool {
	if s.chain >= 0 || s.nHidden > 0 {
		return true
	}
	me := s.colourOf[s.toMove]
	var tb [4]int8
	for sq := range 32 {
		p := s.board[sq]
		if !p.Up() || p.Colour() != me {
			continue
		}
		for _, n := range nbr[sq] {
			if n >= 0 && s.board[n] == Empty {
				return true
			}
		}
		if len(s.board.appendTargets(s.rules.Ranks, sq, false, tb[:0])) > 0 {
			return true
		}
	}
	return false
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
	return fmt.Errorf("banqi: not a banqi action: %v", a)
}

// Play applies a typed action (the fast path). An illegal action returns an
// error and leaves the state unchanged.
func (s *State) Play(a Action) error {
	if err := s.check(a); err != nil {
		return err
	}
	s.do(a)
	return nil
}

func inBoard(sq int8) bool { return sq >= 0 && sq < 32 }

// check says why a is not legal now, or nil.
func (s *State) check(a Action) error {
	if s.over {
		return errors.New("banqi: the game is over")
	}
	if s.chain >= 0 {
		if a.Kind == KindStop {
			return nil
		}
		if a.Kind != KindCapture || a.From != s.chain {
			return fmt.Errorf("banqi: %s: the piece on %s must capture again or stop", a, SquareName(int(s.chain)))
		}
	}
	switch a.Kind {
	case KindFlip:
		if !inBoard(a.From) || a.To != a.From {
			return fmt.Errorf("banqi: bad flip %v", a)
		}
		if s.board[a.From] != FaceDown {
			return fmt.Errorf("banqi: cannot flip %s: it is not face down", a)
		}
		return nil
	case KindStop:
		return errors.New("banqi: stop: no capture chain in progress")
	case KindMove, KindCapture:
	default:
		return fmt.Errorf("banqi: invalid action kind %d", a.Kind)
	}
	if !inBoard(a.From) || !inBoard(a.To) {
		return fmt.Errorf("banqi: bad square in %v", a)
	}
	me := s.colourOf[s.toMove]
	if me == NoColour {
		return fmt.Errorf("banqi: %s: the first action must be a flip", a)
	}
	p := s.board[a.From]
	if !p.Up() || p.Colour() != me {
		return fmt.Errorf("banqi: %s: no face-up %s piece on %s", a, me.Name(), SquareName(int(a.From)))
	}
	if a.Kind == KindMove {
		for _, n := range nbr[a.From] {
			if n == a.To {
				if s.board[n] != Empty {
					return fmt.Errorf("banqi: %s: %s is not empty", a, SquareName(int(a.To)))
				}
				return nil
			}
		}
		return fmt.Errorf("banqi: %s: a piece moves one square orthogonally", a)
	}
	var tb [4]int8
	for _, t := range s.board.appendTargets(s.rules.Ranks, int(a.From), s.rules.CaptureFacedown, tb[:0]) {
		if t == a.To {
			return nil
		}
	}
	return fmt.Errorf("banqi: %s: %c on %s cannot capture %c on %s", a, p.Letter(), SquareName(int(a.From)),
		s.board[a.To].Letter(), SquareName(int(a.To)))
}

// draw takes a uniformly random piece from the face-down multiset.
func (s *State) draw() Piece {
	r := int8(s.rng.IntN(s.nHidden))
	for p := Piece(1); p <= 14; p++ {
		if r < s.hidden[p] {
			return p
		}
		r -= s.hidden[p]
	}
	panic("banqi: face-down count out of sync")
}

// reveal turns the face-down piece on sq into p.
func (s *State) reveal(sq int, p Piece) {
	s.hidden[p]--
	s.nHidden--
	s.setSquare(sq, p)
}

func (s *State) setSquare(sq int, p Piece) {
	s.hash ^= zobrist[sq][s.board[sq]] ^ zobrist[sq][p]
	s.board[sq] = p
}

func (s *State) resetHistory() {
	s.hist = s.hist[:0]
	s.moves = s.moves[:0]
}

// do applies a checked action.
func (s *State) do(a Action) {
	me := s.toMove
	s.last, s.hasLast, s.lastReveal = a, true, Empty
	endTurn := true
	switch a.Kind {
	case KindFlip:
		p := s.draw()
		s.reveal(int(a.From), p)
		s.lastReveal = p
		if s.colourOf[me] == NoColour {
			s.colourOf[me] = p.Colour()
			s.colourOf[1-me] = 1 - p.Colour()
		}
		s.quiet = 0
		s.resetHistory()
	case KindMove:
		p := s.board[a.From]
		s.setSquare(int(a.From), Empty)
		s.setSquare(int(a.To), p)
		s.quiet++
		s.moves = append(s.moves, [2]int8{a.From, a.To})
	case KindStop:
		s.chain = -1
	case KindCapture:
		s.chain = -1
		s.quiet = 0
		s.resetHistory()
		att := s.board[a.From]
		tgt := s.board[a.To]
		if tgt == FaceDown {
			tgt = s.draw()
			s.reveal(int(a.To), tgt)
			s.lastReveal = tgt
			if tgt.Colour() == att.Colour() || !canTake[s.rules.Ranks][att.Type()][tgt.Type()] {
				break // revealed, no capture; the turn ends
			}
		}
		s.taken[tgt]++
		s.alive[tgt.Colour()]--
		s.setSquare(int(a.To), att)
		s.setSquare(int(a.From), Empty)
		if s.alive[tgt.Colour()] == 0 {
			s.ply++
			s.finish(me, fmt.Sprintf("all 16 %s pieces captured", tgt.Colour().Name()))
			return
		}
		if s.rules.ChainCapture {
			var tb [4]int8
			if len(s.board.appendTargets(s.rules.Ranks, int(a.To), s.rules.CaptureFacedown, tb[:0])) > 0 {
				s.chain = a.To
				endTurn = false
			}
		}
	}
	s.ply++
	if endTurn {
		s.toMove = 1 - me
		s.hash ^= sideKey
		if len(s.hist) == 0 {
			s.base, s.baseMove = s.board, s.toMove
		}
		s.hist = append(s.hist, s.hash)
		if s.endChecks() {
			return
		}
	}
	if s.ply >= s.rules.MaxPlies {
		s.drawn(fmt.Sprintf("draw: max_plies %d reached", s.rules.MaxPlies))
	}
}

// endChecks runs the end-of-turn rules; true if the game ended.
func (s *State) endChecks() bool {
	n := 0
	first := -1
	for i, h := range s.hist {
		if h == s.hash {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	if n >= 3 {
		if s.rules.ChaseLoss {
			if seat, why := s.chaser(first); seat >= 0 {
				s.finish(1-seat, why)
				return true
			}
		}
		s.drawn("draw: third repetition")
		return true
	}
	if !s.hasLegal() {
		s.finish(1-s.toMove, fmt.Sprintf("%s has no legal move", s.colourOf[s.toMove].Name()))
		return true
	}
	if s.quiet >= s.rules.NoProgressPlies {
		s.drawn(fmt.Sprintf("draw: %d plies without flip or capture", s.rules.NoProgressPlies))
		return true
	}
	return false
}

// chaser looks at the cycle from hist[first] to now. A side chases when
// every one of its moves in the cycle left the moved piece able to capture
// one same enemy piece (followed as it moves). If exactly one side chases,
// that seat is returned with the reason; otherwise -1.
func (s *State) chaser(first int) (int, string) {
	b := s.base
	var id [32]int8 // piece identity: the square it stood on at hist[first]
	seat := s.baseMove
	for k := 0; k < first; k++ {
		m := s.moves[k]
		b[m[1]], b[m[0]] = b[m[0]], Empty
		seat = 1 - seat
	}
	for sq := range 32 {
		id[sq] = int8(sq)
	}
	mask := [2]uint32{^uint32(0), ^uint32(0)}
	var tb [4]int8
	for k := first; k < len(s.moves); k++ {
		m := s.moves[k]
		b[m[1]], b[m[0]] = b[m[0]], Empty
		id[m[1]] = id[m[0]]
		var hit uint32
		for _, t := range b.appendTargets(s.rules.Ranks, int(m[1]), false, tb[:0]) {
			hit |= 1 << uint(id[t])
		}
		mask[seat] &= hit
		seat = 1 - seat
	}
	if (mask[0] != 0) == (mask[1] != 0) {
		return -1, ""
	}
	c := 0
	if mask[1] != 0 {
		c = 1
	}
	victim := ""
	for sq := range 32 {
		if b[sq].Up() && mask[c]&(1<<uint(id[sq])) != 0 {
			victim = fmt.Sprintf(" of %c on %s", b[sq].Letter(), SquareName(sq))
			break
		}
	}
	return c, fmt.Sprintf("%s loses: perpetual chase%s (third repetition)", s.colourOf[c].Name(), victim)
}

func (s *State) finish(winner int, reason string) {
	s.over = true
	s.chain = -1
	s.outcome = engine.Outcome{Ranks: []int{2, 2}, Scores: []float64{0, 0}, Reason: reason}
	s.outcome.Ranks[winner], s.outcome.Scores[winner] = 1, 1
}

func (s *State) drawn(reason string) {
	s.over = true
	s.chain = -1
	s.outcome = engine.Outcome{Ranks: []int{1, 1}, Scores: []float64{0.5, 0.5}, Reason: reason}
}

// Last is a view's last action (View.Last) read back by ParseLast.
type Last struct {
	Stop     bool  // "stop": the player ended a capture chain
	From, To int   // its squares; To is -1 for a flip (and both for stop)
	Revealed Piece // what a flip or an attack on a face-down piece showed, Empty if nothing
}

// ParseLast reads a view's last action, as lastNotation writes it:
// "b3(K)" (a flip and what it showed), "b3-b4", "b3-b4(k)" (an attack on
// a face-down piece, and what it was), "stop".
func ParseLast(s string) (Last, error) {
	l := Last{From: -1, To: -1}
	if s == "stop" {
		l.Stop = true
		return l, nil
	}
	if open := strings.IndexByte(s, '('); open >= 0 {
		if len(s) != open+3 || s[open+2] != ')' {
			return Last{}, fmt.Errorf("last action %q: want a piece's letter in parentheses at its end", s)
		}
		p, err := PieceFromLetter(s[open+1])
		if err != nil {
			return Last{}, fmt.Errorf("last action %q: %w", s, err)
		}
		l.Revealed, s = p, s[:open]
	}
	from, to, move := strings.Cut(s, "-")
	var err error
	if l.From, err = ParseSquare(from); err != nil {
		return Last{}, fmt.Errorf("last action: %w", err)
	}
	if move {
		if l.To, err = ParseSquare(to); err != nil {
			return Last{}, fmt.Errorf("last action: %w", err)
		}
	}
	return l, nil
}

// Notation of the last action with what it revealed: "b3(K)", "b3-b4",
// "b3-b4(k)" for an attack on a face-down piece, "stop"; "" at the start.
// ParseLast reads it back.
func (s *State) lastNotation() string {
	if !s.hasLast {
		return ""
	}
	n := s.last.String()
	if s.lastReveal != Empty {
		n += "(" + s.lastReveal.String() + ")"
	}
	return n
}

var (
	zobrist [32][16]uint64
	sideKey uint64
)

func init() {
	r := rand.New(rand.NewPCG(0x5a6f62726973, 0x74))
	for sq := range 32 {
		for p := 1; p < 16; p++ {
			zobrist[sq][p] = r.Uint64()
		}
	}
	sideKey = r.Uint64()
}

func (s *State) computeHash() uint64 {
	var h uint64
	for sq, p := range s.board {
		h ^= zobrist[sq][p]
	}
	if s.toMove == 1 {
		h ^= sideKey
	}
	return h
}
