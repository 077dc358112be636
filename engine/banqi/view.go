package banqi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/engine/jsonw"
)

// View is what a seat (or a spectator) observes. Everything in it is
// public: Banqi has no private information, only face-down pieces whose
// identity nobody (not even the engine) knows until they are flipped.
type View struct {
	// You is the viewer; absent in the spectator view.
	You *You `json:"you,omitempty"`
	// Board is 8 rows of 4 letters, row 8 first (a8 b8 c8 d8 ... a1 b1 c1 d1):
	// red K G M R N C P, black k g m r n c p, X face-down, - empty.
	Board [8]string `json:"board"`
	// Colours per seat: "red", "black", or null before the first flip.
	Colours [2]*string `json:"colours"`
	// ToMove is the seat to act.
	ToMove int `json:"to_move"`
	// Chain is the square of the piece that must capture again or stop
	// (chain_capture only), else null.
	Chain *string `json:"chain"`
	// Captured pieces per colour, as letters in K G M R N C P order.
	Captured ByColour `json:"captured"`
	// FaceDown is the multiset still face down, per colour, as letters.
	FaceDown ByColour `json:"facedown"`
	// Ply is the number of actions so far.
	Ply int `json:"ply"`
	// PliesSinceProgress counts moves since the last flip or capture.
	PliesSinceProgress int `json:"plies_since_progress"`
	// Repeats is how many times the current position has occurred.
	Repeats int `json:"repeats"`
	// Last is the last action with what it revealed ("b3(K)", "b3-b4"),
	// absent at the start.
	Last string `json:"last,omitempty"`
	// Ranks is the capture hierarchy in force: "taiwan" or "hk".
	Ranks string `json:"ranks"`
}

// You identifies the viewing seat.
type You struct {
	Seat   int     `json:"seat"`
	Colour *string `json:"colour"`
}

// ByColour holds one string per colour.
type ByColour struct {
	Red   string `json:"red"`
	Black string `json:"black"`
}

var colourNames = [2]string{"red", "black"}

func colourPtr(c Colour) *string {
	if c == NoColour {
		return nil
	}
	return &colourNames[c]
}

func letters(counts *[16]int8, c Colour) string {
	var b []byte
	for t := range Type(7) {
		p := MakePiece(c, t)
		for range counts[p] {
			b = append(b, p.Letter())
		}
	}
	return string(b)
}

// View implements engine.State. Seats get the same information as
// spectators, plus "you".
func (s *State) View(seat int) any { return s.ViewOf(seat) }

// ViewOf is View with its concrete type.
func (s *State) ViewOf(seat int) View {
	v := View{
		Board:              s.board.Rows(),
		Colours:            [2]*string{colourPtr(s.colourOf[0]), colourPtr(s.colourOf[1])},
		ToMove:             s.toMove,
		Captured:           ByColour{letters(&s.taken, Red), letters(&s.taken, Black)},
		FaceDown:           ByColour{letters(&s.hidden, Red), letters(&s.hidden, Black)},
		Ply:                s.ply,
		PliesSinceProgress: s.quiet,
		Repeats:            s.repeats(),
		Last:               s.lastNotation(),
		Ranks:              s.rules.Ranks.String(),
	}
	if s.chain >= 0 {
		sq := SquareName(int(s.chain))
		v.Chain = &sq
	}
	if seat == 0 || seat == 1 {
		v.You = &You{Seat: seat, Colour: colourPtr(s.colourOf[seat])}
	}
	return v
}

func (s *State) repeats() int {
	if s.chain >= 0 {
		return 1
	}
	n := 0
	for _, h := range s.hist {
		if h == s.hash {
			n++
		}
	}
	return max(n, 1)
}

// RenderText implements engine.TextRenderer: an ASCII board with labels.
func (s *State) RenderText(seat int) string {
	var b strings.Builder
	b.WriteString("    a b c d\n")
	for r := range 8 {
		fmt.Fprintf(&b, "%d   ", 8-r)
		for c := range 4 {
			b.WriteByte(s.board[r*4+c].Letter())
			if c < 3 {
				b.WriteByte(' ')
			}
		}
		fmt.Fprintf(&b, "   %d\n", 8-r)
	}
	b.WriteString("    a b c d\n")
	for i := range 2 {
		you := ""
		if i == seat {
			you = " (you)"
		}
		fmt.Fprintf(&b, "seat %d%s: %s\n", i, you, s.colourOf[i].Name())
	}
	if s.over {
		fmt.Fprintf(&b, "game over after %d plies: %s\n", s.ply, s.outcome.Reason)
	} else {
		fmt.Fprintf(&b, "to move: seat %d (%s), ply %d, %d since flip/capture\n",
			s.toMove, s.colourOf[s.toMove].Name(), s.ply, s.quiet)
		if s.chain >= 0 {
			fmt.Fprintf(&b, "capture chain: %s captures again or stops\n", SquareName(int(s.chain)))
		}
	}
	if l := s.lastNotation(); l != "" {
		fmt.Fprintf(&b, "last: %s\n", l)
	}
	fmt.Fprintf(&b, "captured: red %q black %q\n", letters(&s.taken, Red), letters(&s.taken, Black))
	fmt.Fprintf(&b, "face down: red %q black %q\n", letters(&s.hidden, Red), letters(&s.hidden, Black))
	return b.String()
}

// AppendJSON implements engine.JSONAppender: the bytes json.Marshal gives
// for v, without reflection (the referee encodes a view on every move).
func (v View) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if v.You != nil {
		dst = append(dst, `"you":{"seat":`...)
		dst = strconv.AppendInt(dst, int64(v.You.Seat), 10)
		dst = append(dst, `,"colour":`...)
		dst = jsonw.StringPtr(dst, v.You.Colour)
		dst = append(dst, "},"...)
	}
	dst = append(dst, `"board":[`...)
	for i, row := range v.Board {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonw.String(dst, row)
	}
	dst = append(dst, `],"colours":[`...)
	dst = jsonw.StringPtr(dst, v.Colours[0])
	dst = append(dst, ',')
	dst = jsonw.StringPtr(dst, v.Colours[1])
	dst = append(dst, `],"to_move":`...)
	dst = strconv.AppendInt(dst, int64(v.ToMove), 10)
	dst = append(dst, `,"chain":`...)
	dst = jsonw.StringPtr(dst, v.Chain)
	dst = append(dst, `,"captured":{"red":`...)
	dst = jsonw.String(dst, v.Captured.Red)
	dst = append(dst, `,"black":`...)
	dst = jsonw.String(dst, v.Captured.Black)
	dst = append(dst, `},"facedown":{"red":`...)
	dst = jsonw.String(dst, v.FaceDown.Red)
	dst = append(dst, `,"black":`...)
	dst = jsonw.String(dst, v.FaceDown.Black)
	dst = append(dst, `},"ply":`...)
	dst = strconv.AppendInt(dst, int64(v.Ply), 10)
	dst = append(dst, `,"plies_since_progress":`...)
	dst = strconv.AppendInt(dst, int64(v.PliesSinceProgress), 10)
	dst = append(dst, `,"repeats":`...)
	dst = strconv.AppendInt(dst, int64(v.Repeats), 10)
	if v.Last != "" {
		dst = append(dst, `,"last":`...)
		dst = jsonw.String(dst, v.Last)
	}
	dst = append(dst, `,"ranks":`...)
	dst = jsonw.String(dst, v.Ranks)
	return append(dst, '}')
}
