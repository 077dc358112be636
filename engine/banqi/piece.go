package banqi

import (
	"fmt"
	"strings"
)

// Colour is a side: Red or Black. NoColour marks a seat before the first flip.
type Colour int8

const (
	Red      Colour = 0
	Black    Colour = 1
	NoColour Colour = -1
)

// Name is "red" or "black".
func (c Colour) Name() string {
	switch c {
	case Red:
		return "red"
	case Black:
		return "black"
	}
	return "none"
}

// Type is a piece type, from King (0) to Pawn (6), named after the
// board letters K G M R N C P (docs/games/banqi.md has the traditional
// names).
type Type int8

const (
	King Type = iota
	Guard
	Minister
	Rook
	Knight
	Cannon
	Pawn
)

// typeLetters are the red letters (K G M R N C P) in Type order.
const typeLetters = "KGMRNCP"

// typeNames are the names the letters stand for, in Type order.
var typeNames = [7]string{"King", "Guard", "Minister", "Rook", "Knight", "Cannon", "Pawn"}

// Name is the piece type's name ("King", ..., "Pawn"), the name its
// letter stands for.
func (t Type) Name() string {
	if t < 0 || int(t) >= len(typeNames) {
		return "?"
	}
	return typeNames[t]
}

// Count is how many pieces of a type each side has.
var Count = [7]int{King: 1, Guard: 2, Minister: 2, Rook: 2, Knight: 2, Cannon: 2, Pawn: 5}

// Piece is what a square holds: Empty, FaceDown, or a face-up piece
// 1 + 7*colour + type (1..7 red, 8..14 black).
type Piece int8

const (
	Empty    Piece = 0
	FaceDown Piece = 15
)

// MakePiece is the face-up piece of a colour and type.
func MakePiece(c Colour, t Type) Piece { return Piece(1 + 7*int(c) + int(t)) }

// Up reports whether p is a face-up piece.
func (p Piece) Up() bool { return p >= 1 && p <= 14 }

// Colour of a face-up piece.
func (p Piece) Colour() Colour { return pieceColour[p&15] }

// Type of a face-up piece.
func (p Piece) Type() Type { return pieceType[p&15] }

// Lookup tables: colour (NoColour for Empty and FaceDown) and type.
var (
	pieceColour [16]Colour
	pieceType   [16]Type
)

func init() {
	for p := range Piece(16) {
		pieceColour[p], pieceType[p] = NoColour, 0
		if p.Up() {
			pieceColour[p], pieceType[p] = Colour((p-1)/7), Type((p-1)%7)
		}
	}
}

// Letter is the notation letter: red upper case, black lower case, X
// face-down, - empty.
func (p Piece) Letter() byte {
	switch {
	case p == Empty:
		return '-'
	case p == FaceDown:
		return 'X'
	case p.Up():
		l := typeLetters[p.Type()]
		if p.Colour() == Black {
			l += 'a' - 'A'
		}
		return l
	}
	return '?'
}

func (p Piece) String() string { return string(p.Letter()) }

// PieceFromLetter parses a notation letter (K G M R N C P, lower case for
// black, X face-down, - or . empty).
func PieceFromLetter(l byte) (Piece, error) {
	switch l {
	case '-', '.':
		return Empty, nil
	case 'X':
		return FaceDown, nil
	}
	if i := strings.IndexByte(typeLetters, l); i >= 0 {
		return MakePiece(Red, Type(i)), nil
	}
	if l >= 'a' && l <= 'z' {
		if i := strings.IndexByte(typeLetters, l-('a'-'A')); i >= 0 {
			return MakePiece(Black, Type(i)), nil
		}
	}
	return Empty, fmt.Errorf("bad piece letter %q (want K G M R N C P, lower case for black, X or -)", l)
}

// Ranks selects the capture hierarchy.
type Ranks int8

const (
	// Taiwan: K > G > M > R > N > C > P; the Cannon captures only by jumping.
	Taiwan Ranks = 0
	// HK: K > R > N > C > G > M > P; the Cannon is an ordinary piece.
	HK Ranks = 1
)

func (r Ranks) String() string {
	if r == HK {
		return "hk"
	}
	return "taiwan"
}

// rankOf gives each type's rank (7 high) per rule set.
var rankOf = [2][7]int8{
	Taiwan: {King: 7, Guard: 6, Minister: 5, Rook: 4, Knight: 3, Cannon: 2, Pawn: 1},
	HK:     {King: 7, Rook: 6, Knight: 5, Cannon: 4, Guard: 3, Minister: 2, Pawn: 1},
}

// canTake[r][attacker][target] is the capture table.
var canTake [2][7][7]bool

func init() {
	for r := range 2 {
		for a := range Type(7) {
			for t := range Type(7) {
				ok := rankOf[r][a] >= rankOf[r][t]
				if a == King && t == Pawn {
					ok = false
				}
				if a == Pawn && t == King {
					ok = true
				}
				if Ranks(r) == Taiwan && a == Cannon {
					ok = true // any rank, but only by jumping
				}
				canTake[r][a][t] = ok
			}
		}
	}
}

// CanTake is the capture table: may a piece of type attacker capture an
// enemy of type target (given the right geometry: adjacent, or a cannon
// jump under Taiwanese ranks)?
func CanTake(r Ranks, attacker, target Type) bool { return canTake[r][attacker][target] }

// Squares are numbered as in the NTU/TCGA protocol: (8-row)*4 + col, so a8
// is 0, d8 is 3 and d1 is 31.

// SquareName is the square's name, "a8".."d1".
func SquareName(sq int) string {
	if sq < 0 || sq >= 32 {
		return "??"
	}
	return string([]byte{byte('a' + sq%4), byte('8' - sq/4)})
}

// ParseSquare reads a square name a1..d8.
func ParseSquare(s string) (int, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'd' || s[1] < '1' || s[1] > '8' {
		return -1, fmt.Errorf("bad square %q (want a1-d8)", s)
	}
	return int('8'-s[1])*4 + int(s[0]-'a'), nil
}

// Directions in increasing order of the target index: up, left, right, down.
var nbr [32][4]int8

func init() {
	for sq := range 32 {
		r, c := sq/4, sq%4
		nbr[sq] = [4]int8{-1, -1, -1, -1}
		if r > 0 {
			nbr[sq][0] = int8(sq - 4)
		}
		if c > 0 {
			nbr[sq][1] = int8(sq - 1)
		}
		if c < 3 {
			nbr[sq][2] = int8(sq + 1)
		}
		if r < 7 {
			nbr[sq][3] = int8(sq + 4)
		}
	}
}

// Board is the 32 squares, indexed as above.
type Board [32]Piece

// ParseBoard reads a board from 8 rows of 4 letters, row 8 first (the
// View's "board"), or one 32-letter string in square order.
func ParseBoard(rows ...string) (Board, error) {
	var b Board
	s := strings.Join(rows, "")
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\t' || r == '/' {
			return -1
		}
		return r
	}, s)
	if len(s) != 32 {
		return b, fmt.Errorf("board has %d squares, want 32", len(s))
	}
	for i := range 32 {
		p, err := PieceFromLetter(s[i])
		if err != nil {
			return b, fmt.Errorf("square %s: %w", SquareName(i), err)
		}
		b[i] = p
	}
	return b, nil
}

// Rows renders the board as 8 strings of 4 letters, row 8 first.
func (b *Board) Rows() [8]string {
	var out [8]string
	for r := range 8 {
		var buf [4]byte
		for c := range 4 {
			buf[c] = b[r*4+c].Letter()
		}
		out[r] = string(buf[:])
	}
	return out
}

// Adjacent lists the orthogonal neighbours of sq (-1 where off board), in
// the order up, left, right, down.
func Adjacent(sq int) [4]int8 { return nbr[sq] }

// appendTargets appends the squares the face-up piece on from may capture:
// face-up enemies it can take and, if facedown, face-down pieces it could
// attack with the same geometry. Order: increasing square index.
func (b *Board) appendTargets(r Ranks, from int, facedown bool, dst []int8) []int8 {
	p := b[from]
	c, t := p.Colour(), p.Type()
	if r == Taiwan && t == Cannon {
		for d := range 4 {
			screen := false
			sq := from
			for {
				n := nbr[sq][d]
				if n < 0 {
					break
				}
				sq = int(n)
				q := b[sq]
				if q == Empty {
					continue
				}
				if !screen {
					screen = true
					continue
				}
				if pieceColour[q] == 1-c || (q == FaceDown && facedown) {
					dst = append(dst, n)
				}
				break
			}
		}
		return dst
	}
	tab := &canTake[r][t]
	enemy := 1 - c
	for _, n := range nbr[from] {
		if n < 0 {
			continue
		}
		q := b[n]
		if pieceColour[q] == enemy {
			if tab[pieceType[q]] {
				dst = append(dst, n)
			}
		} else if q == FaceDown && facedown {
			dst = append(dst, n)
		}
	}
	return dst
}

// Targets lists the face-up enemy squares the face-up piece on from may
// capture now under ranks r (whoever is to move).
func (b *Board) Targets(r Ranks, from int) []int {
	if !b[from].Up() {
		return nil
	}
	var buf [4]int8
	var out []int
	for _, t := range b.appendTargets(r, from, false, buf[:0]) {
		out = append(out, int(t))
	}
	return out
}

// AppendTargets is Targets appending to dst (no allocation given capacity).
func (b *Board) AppendTargets(r Ranks, from int, dst []int) []int {
	if from < 0 || from >= 32 || !b[from].Up() {
		return dst
	}
	var buf [4]int8
	for _, t := range b.appendTargets(r, from, false, buf[:0]) {
		dst = append(dst, int(t))
	}
	return dst
}

// AppendAttacks appends the squares the face-up piece on from may capture
// under ranks r, as the legal moves have them: face-up enemies it can
// take and, with facedown (the capture_facedown option), face-down pieces
// it could attack with the same geometry; in increasing square order. It
// is for search code that keeps a Board of its own.
func (b *Board) AppendAttacks(r Ranks, from int, facedown bool, dst []int8) []int8 {
	if from < 0 || from >= 32 || !b[from].Up() {
		return dst
	}
	return b.appendTargets(r, from, facedown, dst)
}

// CanCapture reports whether the face-up piece on from may capture the
// face-up enemy piece on to under ranks r.
func (b *Board) CanCapture(r Ranks, from, to int) bool {
	if from < 0 || from >= 32 || to < 0 || to >= 32 || !b[from].Up() || !b[to].Up() {
		return false
	}
	var buf [4]int8
	for _, t := range b.appendTargets(r, from, false, buf[:0]) {
		if int(t) == to {
			return true
		}
	}
	return false
}
