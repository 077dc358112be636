// Package banqi is the typed view and actions of Banqi for Go bots: the
// JSON a turn carries (docs/games/banqi.md), decoded, with squares by
// name, the piece at a square and the capture ranks.
//
// Pieces are the board's letters: red upper case, black lower case, X
// face down, - empty. Their kinds are named King, Guard, Minister, Rook,
// Knight, Cannon and Pawn (K G M R N C P), the one naming scheme of the
// arena's documents.
//
//	func move(v *banqi.View, legal []banqi.Action, c *sdk.Context) (int, error) {
//		for i, a := range legal {
//			if a.Type == banqi.Capture && v.At(a.To).Kind() == banqi.King {
//				return i, nil
//			}
//		}
//		return c.Rand.IntN(len(legal)), nil
//	}
package banqi

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Square is one of the 32 squares, numbered as the board is drawn: a8=0,
// b8=1, c8=2, d8=3, a7=4, ..., d1=31 (the index is (8-rank)*4 + file).
// In JSON it is its name, "b3".
type Square int8

// NoSquare is the square of an action that has none (stop).
const NoSquare Square = -1

// Squares is the number of squares.
const Squares = 32

// SquareAt is the square in file (0-3 for a-d) and rank (1-8); NoSquare
// off the board.
func SquareAt(file, rank int) Square {
	if file < 0 || file > 3 || rank < 1 || rank > 8 {
		return NoSquare
	}
	return Square((8-rank)*4 + file)
}

// ParseSquare reads a square's name ("a1" to "d8").
func ParseSquare(name string) (Square, error) {
	if len(name) == 2 {
		if sq := SquareAt(int(name[0])-'a', int(name[1])-'0'); sq != NoSquare {
			return sq, nil
		}
	}
	return NoSquare, fmt.Errorf("bad square %q (want a1 to d8)", name)
}

// Sq is ParseSquare for a name known to be good: it panics on a bad one.
func Sq(name string) Square {
	sq, err := ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return sq
}

// File is the square's column, 0-3 for a-d.
func (s Square) File() int { return int(s) % 4 }

// Rank is the square's row, 1-8.
func (s Square) Rank() int { return 8 - int(s)/4 }

// Valid reports whether s is on the board.
func (s Square) Valid() bool { return s >= 0 && s < Squares }

// String is the square's name, "b3" ("-" for NoSquare).
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('0' + s.Rank())})
}

// Neighbours are the squares one step up, down, left and right.
func (s Square) Neighbours() []Square {
	var out []Square
	for _, d := range [4][2]int{{0, 1}, {0, -1}, {-1, 0}, {1, 0}} {
		if n := SquareAt(s.File()+d[0], s.Rank()+d[1]); n != NoSquare {
			out = append(out, n)
		}
	}
	return out
}

// Distance is the number of steps from s to t (up, down, left, right).
func (s Square) Distance(t Square) int {
	return abs(s.File()-t.File()) + abs(s.Rank()-t.Rank())
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// MarshalJSON writes the square's name.
func (s Square) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a square's name.
func (s *Square) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	sq, err := ParseSquare(name)
	*s = sq
	return err
}

// Colour is a side: Red or Black (NoColour before the first flip).
type Colour int8

// The colours.
const (
	NoColour Colour = iota
	Red
	Black
)

// String is "red", "black" or "none".
func (c Colour) String() string { return [...]string{"none", "red", "black"}[c] }

// Other is the opposing colour.
func (c Colour) Other() Colour {
	switch c {
	case Red:
		return Black
	case Black:
		return Red
	}
	return NoColour
}

func colourOf(name *string) Colour {
	switch {
	case name == nil:
		return NoColour
	case *name == "red":
		return Red
	case *name == "black":
		return Black
	}
	return NoColour
}

// Kind is what a piece is, regardless of colour.
type Kind int8

// The kinds, in the order of the letters K G M R N C P.
const (
	NoKind Kind = iota // an empty or face-down square
	King
	Guard
	Minister
	Rook
	Knight
	Cannon
	Pawn
)

const kindLetters = "?KGMRNCP"

// Letter is the red (upper case) letter of k.
func (k Kind) Letter() byte { return kindLetters[k] }

// String is the kind's name: "King", ..., "Pawn" ("none" for NoKind).
func (k Kind) String() string {
	return [...]string{"none", "King", "Guard", "Minister", "Rook", "Knight", "Cannon", "Pawn"}[k]
}

// Count is how many pieces of kind k each side has: 1 King, 5 Pawns,
// 2 of every other kind.
func (k Kind) Count() int {
	switch k {
	case King:
		return 1
	case Pawn:
		return 5
	case NoKind:
		return 0
	}
	return 2
}

// Piece is what a square holds, as its letter on the board: K G M R N C
// P for red, k g m r n c p for black, X face down, - empty.
type Piece byte

// The squares that hold no face-up piece.
const (
	Empty    Piece = '-'
	FaceDown Piece = 'X'
)

// MakePiece is the face-up piece of kind k and colour c.
func MakePiece(c Colour, k Kind) Piece {
	l := k.Letter()
	if c == Black {
		l += 'a' - 'A'
	}
	return Piece(l)
}

// Kind is the piece's kind; NoKind for Empty and FaceDown.
func (p Piece) Kind() Kind {
	u := byte(p)
	if u >= 'a' && u <= 'z' {
		u -= 'a' - 'A'
	}
	if i := strings.IndexByte(kindLetters[1:], u); i >= 0 && p != FaceDown {
		return Kind(i + 1)
	}
	return NoKind
}

// Colour is the piece's colour; NoColour for Empty and FaceDown.
func (p Piece) Colour() Colour {
	switch {
	case p.Kind() == NoKind:
		return NoColour
	case p >= 'a':
		return Black
	}
	return Red
}

// Up reports whether p is a face-up piece.
func (p Piece) Up() bool { return p.Kind() != NoKind }

// String is the letter.
func (p Piece) String() string { return string(rune(p)) }

// Rank is k's place in the capture order of ranks ("taiwan" or "hk"),
// 7 the highest: Taiwan K G M R N C P = 7..1, Hong Kong K R N C G M P.
func Rank(ranks string, k Kind) int {
	order := "PCNRMGK" // index+1 is the rank
	if ranks == "hk" {
		order = "PMGCNRK"
	}
	return strings.IndexByte(order, k.Letter()) + 1
}

// CanTake reports whether a piece of kind attacker may capture one of
// kind target by rank: equal or lower rank, except that the King cannot
// take a Pawn and a Pawn takes the King. Under Taiwanese ranks a Cannon
// takes any rank, but only by jumping over exactly one piece along a row
// or a column, never next to it. The legal actions already say which
// captures are possible; CanTake is for looking ahead.
func CanTake(ranks string, attacker, target Kind) bool {
	switch {
	case attacker == NoKind || target == NoKind:
		return false
	case attacker == Cannon && ranks != "hk":
		return true
	case attacker == King && target == Pawn:
		return false
	case attacker == Pawn && target == King:
		return true
	}
	return Rank(ranks, attacker) >= Rank(ranks, target)
}

// Board is the 8 rows of the view, rank 8 first, four letters each
// (files a-d).
type Board [8]string

// At is the piece on sq (Empty off the board).
func (b *Board) At(sq Square) Piece {
	if !sq.Valid() || len(b[sq/4]) != 4 {
		return Empty
	}
	return Piece(b[sq/4][sq%4])
}

// View is what a seat sees of a Banqi game (docs/games/banqi.md#view-json).
type View struct {
	// You is this seat; Colour is nil before the first flip.
	You *You `json:"you,omitempty"`
	// Board is rank 8 first, files a-d: use At or PieceAt.
	Board Board `json:"board"`
	// Colours per seat: "red", "black", or nil before the first flip.
	Colours [2]*string `json:"colours"`
	// ToMove is the seat to act.
	ToMove int `json:"to_move"`
	// Chain is the square of the piece that must capture again or stop
	// (chain_capture only), else nil.
	Chain *Square `json:"chain"`
	// Captured pieces per colour, as letters.
	Captured ByColour `json:"captured"`
	// FaceDown is what is still face down, per colour, as letters.
	FaceDown ByColour `json:"facedown"`
	// Ply is the number of actions so far.
	Ply int `json:"ply"`
	// PliesSinceProgress counts moves since the last flip or capture.
	PliesSinceProgress int `json:"plies_since_progress"`
	// Repeats is how many times the current position has occurred.
	Repeats int `json:"repeats"`
	// Last is the last action, with what a flip revealed ("b3(K)",
	// "b3-b4"); "" at the start.
	Last string `json:"last,omitempty"`
	// Ranks is the capture order in force: "taiwan" or "hk".
	Ranks string `json:"ranks"`
}

// You is the viewing seat.
type You struct {
	Seat   int     `json:"seat"`
	Colour *string `json:"colour"`
}

// ByColour holds one string of piece letters per colour.
type ByColour struct {
	Red   string `json:"red"`
	Black string `json:"black"`
}

// Of is c's string.
func (b ByColour) Of(c Colour) string {
	if c == Black {
		return b.Black
	}
	return b.Red
}

// At is the piece on sq.
func (v *View) At(sq Square) Piece { return v.Board.At(sq) }

// PieceAt is the piece on the square named name ("b3"); Empty for a bad
// name.
func (v *View) PieceAt(name string) Piece {
	sq, err := ParseSquare(name)
	if err != nil {
		return Empty
	}
	return v.At(sq)
}

// Me is this seat's colour (NoColour before the first flip).
func (v *View) Me() Colour {
	if v.You == nil {
		return NoColour
	}
	return colourOf(v.You.Colour)
}

// Squares lists the squares holding p ("K", "X", "-"...), a8 first.
func (v *View) Squares(p Piece) []Square {
	var out []Square
	for sq := range Square(Squares) {
		if v.At(sq) == p {
			out = append(out, sq)
		}
	}
	return out
}

// Pieces lists the squares of c's face-up pieces, a8 first.
func (v *View) Pieces(c Colour) []Square {
	var out []Square
	for sq := range Square(Squares) {
		if p := v.At(sq); p.Up() && p.Colour() == c {
			out = append(out, sq)
		}
	}
	return out
}

// The types of action.
const (
	Flip    = "flip"
	Move    = "move"
	Capture = "capture"
	Stop    = "stop"
)

// Action is one legal action: Type Flip with Square (From and To are
// the same square), Move or Capture From a square To another, or Stop
// (chain_capture: end the chain; squares NoSquare).
type Action struct {
	Type     string
	Square   Square // the flipped square (Flip)
	From, To Square // Move, Capture; Flip: both are Square
}

type actionJSON struct {
	Type   string  `json:"type"`
	Square *Square `json:"square,omitempty"`
	From   *Square `json:"from,omitempty"`
	To     *Square `json:"to,omitempty"`
}

// UnmarshalJSON reads {"type":"flip","square":"b3"},
// {"type":"move","from":"b3","to":"b4"}, {"type":"capture",...} or
// {"type":"stop"}.
func (a *Action) UnmarshalJSON(b []byte) error {
	var j actionJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*a = Action{Type: j.Type, Square: NoSquare, From: NoSquare, To: NoSquare}
	switch j.Type {
	case Flip:
		if j.Square == nil {
			return fmt.Errorf("banqi flip without a square")
		}
		a.Square, a.From, a.To = *j.Square, *j.Square, *j.Square
	case Move, Capture:
		if j.From == nil || j.To == nil {
			return fmt.Errorf("banqi %s without from and to", j.Type)
		}
		a.From, a.To = *j.From, *j.To
	case Stop:
	default:
		return fmt.Errorf("unknown banqi action type %q", j.Type)
	}
	return nil
}

// MarshalJSON writes the action as the referee does.
func (a Action) MarshalJSON() ([]byte, error) {
	j := actionJSON{Type: a.Type}
	switch a.Type {
	case Flip:
		j.Square = &a.Square
	case Move, Capture:
		j.From, j.To = &a.From, &a.To
	}
	return json.Marshal(j)
}

// String is the notation: "b3" for a flip, "b3-b4" for a move or a
// capture, "stop".
func (a Action) String() string {
	switch a.Type {
	case Flip:
		return a.Square.String()
	case Move, Capture:
		return a.From.String() + "-" + a.To.String()
	}
	return a.Type
}
