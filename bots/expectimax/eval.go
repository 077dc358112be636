package expectimax

import "github.com/arena-dev/arena/engine/banqi"

// pieceValues are the material values, in hundredths of a Pawn-ish unit,
// by rule set and type: a piece is worth what it can take and how hard
// it is to take. Under Taiwanese ranks the jumping Cannon is worth a
// Minister; under HK ranks the Rook, second only to the King, is the
// strongest piece after it.
var pieceValues = [2][7]int{
	banqi.Taiwan: {banqi.King: 900, banqi.Guard: 800, banqi.Minister: 600, banqi.Rook: 500, banqi.Knight: 400, banqi.Cannon: 600, banqi.Pawn: 200},
	banqi.HK:     {banqi.King: 900, banqi.Guard: 400, banqi.Minister: 300, banqi.Rook: 800, banqi.Knight: 600, banqi.Cannon: 500, banqi.Pawn: 200},
}

// PieceValue is the material value of a piece type under ranks r, in the
// evaluation's units (a Pawn is 200): the one table of Banqi piece values
// the bundled bots share.
func PieceValue(r banqi.Ranks, t banqi.Type) int { return pieceValues[r][t] }

// Evaluation weights, in the units of pieceValues.
const (
	// pawnKingBonus is added to a Pawn while the enemy King lives: the
	// Pawn is the only piece besides the Cannon that can take it.
	pawnKingBonus = 100
	// mobilityWeight is per empty square next to a face-up piece.
	mobilityWeight = 4
	// threatDivisor: each capture a side could make now (cannon jumps
	// included) is worth the target's value divided by this.
	threatDivisor = 10
	// approachWeight is per square closer a piece stands to the nearest
	// enemy it can take (the endgame's only progress).
	approachWeight = 6
)

// eval scores p for the side to move: material (face-down pieces count
// for their colour, at full value: both sides will flip them), mobility,
// threats (captures available, cannon jumps included) and how close
// each piece stands to an enemy it could take.
func (s *searcher) eval(p *position) int {
	vals := &pieceValues[s.r.Ranks]
	var score [2]int
	var kingAlive [2]bool
	for c := range banqi.Colour(2) {
		kingAlive[c] = p.hidden[banqi.MakePiece(c, banqi.King)] > 0
	}
	var up [32]int8
	n := 0
	for sq, pc := range p.board {
		if pc.Up() {
			up[n] = int8(sq)
			n++
			if pc.Type() == banqi.King {
				kingAlive[pc.Colour()] = true
			}
		}
	}
	for pc := banqi.Piece(1); pc <= 14; pc++ {
		if h := p.hidden[pc]; h > 0 {
			v := vals[pc.Type()]
			if pc.Type() == banqi.Pawn && kingAlive[1-pc.Colour()] {
				v += pawnKingBonus
			}
			score[pc.Colour()] += int(h) * v
		}
	}
	var tb [4]int8
	for _, sq := range up[:n] {
		pc := p.board[sq]
		c, t := pc.Colour(), pc.Type()
		v := vals[t]
		if t == banqi.Pawn && kingAlive[1-c] {
			v += pawnKingBonus
		}
		for _, m := range nbr[sq] {
			if m >= 0 && p.board[m] == banqi.Empty {
				v += mobilityWeight
			}
		}
		for _, tg := range p.appendTargets(&s.r, int(sq), false, tb[:0]) {
			v += vals[p.board[tg].Type()] / threatDivisor
		}
		if !(s.r.Ranks == banqi.Taiwan && t == banqi.Cannon) {
			best := 16
			for _, e := range up[:n] {
				q := p.board[e]
				if q.Colour() == c || !banqi.CanTake(s.r.Ranks, t, q.Type()) {
					continue
				}
				best = min(best, manhattan[sq][e])
			}
			if best < 16 {
				v += approachWeight * (11 - best)
			}
		}
		score[c] += v
	}
	return score[p.side] - score[1-p.side]
}

// manhattan[a][b] is the distance in king-less steps between squares.
var manhattan [32][32]int

func init() {
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	for a := range 32 {
		for b := range 32 {
			manhattan[a][b] = abs(a%4-b%4) + abs(a/4-b/4)
		}
	}
}
