package banqi

import (
	"fmt"
	"math/rand/v2"
)

// Position describes a Banqi game completely but for the face-down
// pieces, which nobody knows (each flip draws its piece from the state's
// RNG): the board, whose turn it is, what was captured, and the plain
// moves since the last flip or capture, which the repetition rules
// count. A seat's views show all of it over a game (Observer gathers
// it); FromPosition builds the state that plays on from there.
type Position struct {
	Rules Rules
	Board Board
	// Colours per seat: both NoColour before the first flip, else one
	// Red and one Black.
	Colours [2]Colour
	ToMove  int
	// Chain is the square of the piece that must capture again or stop
	// (chain_capture), -1 none.
	Chain int
	// Captured counts the captured pieces per piece code (1..14); the
	// pieces face down are what neither the board nor Captured holds.
	Captured [16]int8
	// Ply is the number of actions so far (max_plies counts them).
	Ply int
	// Moves are the plain moves (from, to squares) since the last flip
	// or capture, oldest first, each one turn: the positions they passed
	// through are those a repetition is counted among, and there were
	// len(Moves) plies without progress. Empty during a capture chain.
	Moves [][2]int
	// Last is the last action and Revealed what it showed (Empty:
	// nothing); HasLast is false before the first action. Only the
	// view's "last" shows them.
	Last     Action
	Revealed Piece
	HasLast  bool
	// Seed seeds the state's RNG: the pieces its flips will reveal.
	Seed uint64
}

// FromPosition builds the state of a position. It checks that the
// pieces add up to each side's 16, the colours, the chain and the moves
// (each undone onto an empty square, by a piece of the side whose turn
// it was), and returns an error naming the first problem. The game is
// over if the position ends it by the rules checked at the end of a turn
// (a third repetition, no legal move, no progress, max_plies, a side
// with no piece left); such a state's outcome is the one those rules
// give.
func FromPosition(p Position) (*State, error) {
	s := &State{rules: p.Rules, board: p.Board, colourOf: p.Colours, toMove: p.ToMove, chain: -1,
		ply: p.Ply, quiet: len(p.Moves), last: p.Last, lastReveal: p.Revealed, hasLast: p.HasLast}
	if err := s.placePieces(p.Captured); err != nil {
		return nil, err
	}
	if p.ToMove != 0 && p.ToMove != 1 {
		return nil, fmt.Errorf("banqi position: to_move %d, want 0 or 1", p.ToMove)
	}
	if c := p.Colours; !(c[0] == NoColour && c[1] == NoColour) && !(c[0] >= Red && c[0] <= Black && c[1] == 1-c[0]) {
		return nil, fmt.Errorf("banqi position: colours %s and %s, want none or one of each", c[0].Name(), c[1].Name())
	}
	if p.Chain >= 0 {
		if p.Chain >= 32 || !p.Board[p.Chain].Up() || p.Board[p.Chain].Colour() != p.Colours[p.ToMove] {
			return nil, fmt.Errorf("banqi position: chain on %s holds no piece of the side to move", SquareName(p.Chain))
		}
		if len(p.Moves) > 0 {
			return nil, fmt.Errorf("banqi position: %d moves since the last capture during a capture chain", len(p.Moves))
		}
		s.chain = int8(p.Chain)
	}
	s.pcg = rand.NewPCG(p.Seed, pcgStream)
	s.rng = rand.New(s.pcg)
	if err := s.restoreMoves(p.Moves); err != nil {
		return nil, err
	}
	s.settle()
	return s, nil
}

// placePieces derives the face-down multiset and the pieces alive from
// the board and the captured, checking that each piece adds up to its
// count.
func (s *State) placePieces(captured [16]int8) error {
	var onBoard [16]int8
	down := 0
	for sq, p := range s.board {
		switch {
		case p == FaceDown:
			down++
		case p.Up():
			onBoard[p]++
		case p != Empty:
			return fmt.Errorf("banqi position: square %s holds piece code %d", SquareName(sq), p)
		}
	}
	s.alive = [2]int8{16, 16}
	for c := range Colour(2) {
		for t := range Type(7) {
			p := MakePiece(c, t)
			h := int8(Count[t]) - onBoard[p] - captured[p]
			if h < 0 || captured[p] < 0 {
				return fmt.Errorf("banqi position: %d %c on the board and %d captured, more than the %d there are", onBoard[p], p.Letter(), captured[p], Count[t])
			}
			s.hidden[p], s.taken[p] = h, captured[p]
			s.nHidden += int(h)
			s.alive[c] -= captured[p]
		}
	}
	if s.nHidden != down {
		return fmt.Errorf("banqi position: %d squares face down for %d pieces not on the board nor captured", down, s.nHidden)
	}
	return nil
}

// restoreMoves rebuilds the repetition history: the board before the
// moves, and the position after each of them.
func (s *State) restoreMoves(moves [][2]int) error {
	s.hist = make([]uint64, 0, len(moves)+64)
	s.moves = make([][2]int8, 0, len(moves)+64)
	s.hash = s.computeHash()
	if s.chain >= 0 {
		return nil // a capture emptied the history and no turn has ended since
	}
	b, seat := s.board, s.toMove
	for i := len(moves) - 1; i >= 0; i-- {
		from, to := moves[i][0], moves[i][1]
		seat = 1 - seat
		if from < 0 || from >= 32 || to < 0 || to >= 32 || b[from] != Empty || !b[to].Up() ||
			b[to].Colour() != s.colourOf[seat] || !adjacent(from, to) {
			return fmt.Errorf("banqi position: move %d %s-%s cannot be undone on the board before it", i+1, SquareName(from), SquareName(to))
		}
		b[from], b[to] = b[to], Empty
	}
	s.base, s.baseMove = b, seat
	t := &State{board: b, toMove: seat}
	s.hist = append(s.hist, t.computeHash())
	for _, m := range moves {
		t.board[m[1]], t.board[m[0]] = t.board[m[0]], Empty
		t.toMove = 1 - t.toMove
		s.hist = append(s.hist, t.computeHash())
		s.moves = append(s.moves, [2]int8{int8(m[0]), int8(m[1])})
	}
	return nil
}

func adjacent(a, b int) bool {
	for _, n := range nbr[a] {
		if int(n) == b {
			return true
		}
	}
	return false
}

// settle applies the rules a turn's end applies, to a position that
// may be over: a side with nothing left, then (no chain pending) the
// end-of-turn checks, then max_plies, in the order do applies them.
func (s *State) settle() {
	for c := range Colour(2) {
		if s.alive[c] == 0 {
			winner := 0
			if s.colourOf[0] == c {
				winner = 1
			}
			s.finish(winner, fmt.Sprintf("all 16 %s pieces captured", c.Name()))
			return
		}
	}
	if s.chain < 0 && s.endChecks() {
		return
	}
	if s.ply >= s.rules.MaxPlies {
		s.drawn(fmt.Sprintf("draw: max_plies %d reached", s.rules.MaxPlies))
	}
}
