package banqi

import (
	"fmt"

	"github.com/arena-dev/arena/engine"
)

// Encoding is the fixed-size encoding of Banqi for learning agents
// (engine.Encoding) under one rule set. The layout is in
// docs/games/banqi.md, "Encoding"; the offsets below are its one home.
type Encoding struct {
	*engine.ActionSpace[Action]
	rules Rules
}

// Observation layout. Pieces are told apart by whose they are, not by
// colour: "own" is the observer's colour (red while no colour is
// decided, when every piece is face down), so that one set of weights
// plays both colours.
const (
	planes       = 16                   // own K G M R N C P, the opponent's K..P, face-down, empty
	planeDown    = 14                   // the face-down plane
	planeEmpty   = 15                   // the empty plane
	obsBoard     = 0                    // 32 squares (a8 b8 c8 d8 ... a1 b1 c1 d1) x planes, one-hot
	obsFaceDown  = obsBoard + 32*planes // face-down pieces still to come, own K..P then the opponent's, / Count
	obsCaptured  = obsFaceDown + 14     // captured pieces, own K..P then the opponent's, / Count
	obsColour    = obsCaptured + 14     // 1 once the observer's colour is decided
	obsChain     = obsColour + 1        // the square that must capture again or stop (chain_capture), one-hot
	obsQuiet     = obsChain + 32        // plies since the last flip or capture / no_progress_plies
	obsRepeats   = obsQuiet + 1         // times the position has occurred - 1
	obsPly       = obsRepeats + 1       // plies so far / max_plies
	obsSize      = obsPly + 1
	captureAlias = "x" // a capture's name: "b3xb4" (String writes it as a move, "b3-b4")
)

// Encoding implements engine.Encoder.
func (Game) Encoding(seats int, opts engine.Options) (engine.Encoding, error) {
	if seats != 2 {
		return nil, fmt.Errorf("game banqi takes 2 seats, got %d", seats)
	}
	r, err := RulesFromOptions(opts)
	if err != nil {
		return nil, err
	}
	return NewEncoding(r), nil
}

// NewEncoding is the encoding of games under r. Its actions: the 32
// flips, every move to a neighbouring square, every capture along a row
// or column (a Cannon's jump reaches any distance), and stop.
func NewEncoding(r Rules) *Encoding {
	var all []Action
	for sq := range 32 {
		all = append(all, Flip(sq))
	}
	for sq := range 32 {
		for _, to := range nbr[sq] {
			if to >= 0 {
				all = append(all, Move(sq, int(to)))
			}
		}
	}
	for sq := range 32 {
		for to := range 32 {
			if to != sq && (to%4 == sq%4 || to/4 == sq/4) {
				all = append(all, Capture(sq, to))
			}
		}
	}
	all = append(all, Stop())
	return &Encoding{ActionSpace: engine.NewActionSpace(all), rules: r}
}

// ActionName implements engine.Encoding: the notation, with "x" for a
// capture ("b3xb4"), which the notation writes as a move.
func (e *Encoding) ActionName(id int) string {
	a, ok := e.Typed(id)
	if ok && a.Kind == KindCapture {
		return SquareName(int(a.From)) + captureAlias + SquareName(int(a.To))
	}
	return e.ActionSpace.ActionName(id)
}

// ObsSize implements engine.Encoding.
func (e *Encoding) ObsSize() int { return obsSize }

// Encode implements engine.Encoding: v is a View or *View of a seat.
func (e *Encoding) Encode(v any, dst []float32) error {
	x, err := engine.ViewAs[View](v)
	if err != nil {
		return err
	}
	return e.encode(x, dst)
}

func (e *Encoding) encode(v *View, dst []float32) error {
	if v.You == nil || len(dst) != obsSize {
		return fmt.Errorf("%w: a seat's view into %d slots (got %d slots, seat given: %t)",
			engine.ErrNotEncodable, obsSize, len(dst), v.You != nil)
	}
	clear(dst)
	own := Red
	if v.You.Colour != nil {
		dst[obsColour] = 1
		if *v.You.Colour == colourNames[Black] {
			own = Black
		}
	}
	for sq := range 32 {
		p, err := PieceFromLetter(v.Board[sq/4][sq%4])
		if err != nil {
			return fmt.Errorf("%w: square %s: %v", engine.ErrNotEncodable, SquareName(sq), err)
		}
		dst[obsBoard+sq*planes+plane(p, own)] = 1
	}
	counts := func(at int, byColour ByColour) {
		for _, s := range []string{byColour.Red, byColour.Black} {
			for i := range len(s) {
				if p, err := PieceFromLetter(s[i]); err == nil && p.Up() {
					dst[at+plane(p, own)] += 1 / float32(Count[p.Type()])
				}
			}
		}
	}
	counts(obsFaceDown, v.FaceDown)
	counts(obsCaptured, v.Captured)
	if v.Chain != nil {
		if sq, err := ParseSquare(*v.Chain); err == nil {
			dst[obsChain+sq] = 1
		}
	}
	dst[obsQuiet] = float32(v.PliesSinceProgress) / float32(e.rules.NoProgressPlies)
	dst[obsRepeats] = float32(max(v.Repeats-1, 0))
	dst[obsPly] = float32(v.Ply) / float32(e.rules.MaxPlies)
	return nil
}

// plane is the board plane of p seen by the side playing own.
func plane(p Piece, own Colour) int {
	switch {
	case p == FaceDown:
		return planeDown
	case !p.Up():
		return planeEmpty
	case p.Colour() == own:
		return int(p.Type())
	}
	return 7 + int(p.Type())
}
