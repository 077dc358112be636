package banqi

import (
	"fmt"
	"strings"
	"testing"
)

// fromBoard sets up a test position. rows is 8 rows of 4 letters, row 8
// first (spaces ignored). seat 0 plays red0 (Red or Black); toMove is the
// seat to act. hidden lists the face-down multiset as letters (it must
// have one letter per X); every piece neither on the board nor hidden
// counts as captured.
func fromBoard(rows string, seat0 Colour, toMove int, hidden string, r Rules, seed uint64) (*State, error) {
	b, err := ParseBoard(strings.Fields(rows)...)
	if err != nil {
		return nil, err
	}
	s := NewState(seed, r)
	s.board = b
	s.hidden = [16]int8{}
	s.nHidden = 0
	left := [16]int{}
	for c := range Colour(2) {
		for t := range Type(7) {
			left[MakePiece(c, t)] = Count[t]
		}
	}
	nX := 0
	for _, p := range b {
		switch {
		case p == FaceDown:
			nX++
		case p.Up():
			left[p]--
		}
	}
	for i := 0; i < len(hidden); i++ {
		p, err := PieceFromLetter(hidden[i])
		if err != nil || !p.Up() {
			return nil, fmt.Errorf("hidden %q: bad letter %q", hidden, hidden[i])
		}
		s.hidden[p]++
		s.nHidden++
		left[p]--
	}
	if s.nHidden != nX {
		return nil, fmt.Errorf("%d face-down squares but %d hidden pieces", nX, s.nHidden)
	}
	s.taken = [16]int8{}
	s.alive = [2]int8{16, 16}
	for p := Piece(1); p <= 14; p++ {
		if left[p] < 0 {
			return nil, fmt.Errorf("too many %c", p.Letter())
		}
		s.taken[p] = int8(left[p])
		s.alive[p.Colour()] -= int8(left[p])
	}
	s.colourOf = [2]Colour{seat0, 1 - seat0}
	s.toMove = toMove
	s.hash = s.computeHash()
	s.resetHistory()
	s.base, s.baseMove = s.board, s.toMove
	s.hist = append(s.hist, s.hash)
	return s, nil
}

func mustBoard(t testing.TB, rows string, seat0 Colour, toMove int, hidden string, r Rules) *State {
	t.Helper()
	s, err := fromBoard(rows, seat0, toMove, hidden, r, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func legalStrings(s *State) []string {
	var out []string
	for _, a := range s.AppendLegal(nil) {
		out = append(out, fmt.Sprintf("%v:%s", kindNames[a.Kind], a))
	}
	return out
}

func hasLegal(s *State, a Action) bool {
	for _, b := range s.AppendLegal(nil) {
		if a == b {
			return true
		}
	}
	return false
}

func mustPlay(t testing.TB, s *State, acts ...Action) {
	t.Helper()
	for _, a := range acts {
		if err := s.Play(a); err != nil {
			t.Fatalf("play %v: %v\n%s", a, err, s.RenderText(-1))
		}
	}
}

func sq(name string) int {
	n, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return n
}

func mv(from, to string) Action { return Move(sq(from), sq(to)) }
func cp(from, to string) Action { return Capture(sq(from), sq(to)) }
