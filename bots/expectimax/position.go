package expectimax

import (
	"fmt"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine/banqi"
)

// rules are the options of the game that change what the search may do.
// They come from hello.options (banqi.RulesFromOptions), the ranks also
// from every view.
type rules = banqi.Rules

// position is the search's own board: a value type copied on every move
// (copy-make), so undoing a move is dropping the copy. It holds what the
// view shows and nothing else: the face-down squares are banqi.FaceDown
// and hidden is the public multiset of the pieces under them.
type position struct {
	board   banqi.Board
	hidden  [16]int8 // face-down pieces left, per piece code
	nHidden int8
	alive   [2]int8      // pieces per colour not yet captured (face-down included)
	side    banqi.Colour // colour to move
	chain   int8         // square of the piece that must capture again or stop; -1 none
	quiet   int32        // moves since the last flip or capture
	ply     int32        // actions applied in the game
	hash    uint64       // board and side to move, for repetitions
}

// Zobrist keys of the search's own repetition hash: a piece on a square,
// and black to move.
var (
	zobrist  [32][16]uint64
	blackKey uint64
)

func init() {
	r := rand.New(rand.NewPCG(0x657870, 0x6d6178)) // "exp", "max": any fixed seed
	for sq := range 32 {
		for p := 1; p < 16; p++ {
			zobrist[sq][p] = r.Uint64()
		}
	}
	blackKey = r.Uint64()
}

func (p *position) computeHash() {
	var h uint64
	for sq, pc := range p.board {
		h ^= zobrist[sq][pc]
	}
	if p.side == banqi.Black {
		h ^= blackKey
	}
	p.hash = h
}

func (p *position) set(sq int, pc banqi.Piece) {
	p.hash ^= zobrist[sq][p.board[sq]] ^ zobrist[sq][pc]
	p.board[sq] = pc
}

// fromView builds the position a seat sees. me is the seat's colour,
// which must be known (after the first flip).
func fromView(v *banqi.View, me banqi.Colour) (position, error) {
	var p position
	b, err := banqi.ParseBoard(v.Board[:]...)
	if err != nil {
		return p, fmt.Errorf("view board: %w", err)
	}
	p.board = b
	for _, s := range []string{v.FaceDown.Red, v.FaceDown.Black} {
		for i := range len(s) {
			pc, err := banqi.PieceFromLetter(s[i])
			if err != nil || !pc.Up() {
				return p, fmt.Errorf("view facedown: bad letter %q", s[i])
			}
			p.hidden[pc]++
			p.nHidden++
		}
	}
	for c := range banqi.Colour(2) {
		p.alive[c] = 16 - int8(len([]string{v.Captured.Red, v.Captured.Black}[c]))
	}
	p.side = me
	if v.You != nil && v.ToMove != v.You.Seat {
		p.side = 1 - me
	}
	p.chain = -1
	if v.Chain != nil {
		sq, err := banqi.ParseSquare(*v.Chain)
		if err != nil {
			return p, fmt.Errorf("view chain: %w", err)
		}
		p.chain = int8(sq)
	}
	p.quiet = int32(v.PliesSinceProgress)
	p.ply = int32(v.Ply)
	p.computeHash()
	return p, nil
}

// nbr[sq] are the orthogonal neighbours of sq (-1 off the board).
var nbr [32][4]int8

func init() {
	for sq := range 32 {
		nbr[sq] = banqi.Adjacent(sq)
	}
}

// appendTargets appends the squares the face-up piece on from may capture
// (face-up enemies; also face-down pieces when facedown), in increasing
// square order, as the engine lists them.
func (p *position) appendTargets(r *rules, from int, facedown bool, dst []int8) []int8 {
	return p.board.AppendAttacks(r.Ranks, from, facedown, dst)
}

// legal appends the legal actions in the engine's order (flips, moves,
// captures; in a chain the chain piece's captures, then stop).
func (p *position) legal(r *rules, dst []banqi.Action) []banqi.Action {
	var tb [4]int8
	if p.chain >= 0 {
		for _, t := range p.appendTargets(r, int(p.chain), r.CaptureFacedown, tb[:0]) {
			dst = append(dst, banqi.Capture(int(p.chain), int(t)))
		}
		return append(dst, banqi.Stop())
	}
	var own [16]int8
	n := 0
	for sq, pc := range p.board {
		if pc == banqi.FaceDown {
			dst = append(dst, banqi.Flip(sq))
		} else if pc.Up() && pc.Colour() == p.side {
			own[n] = int8(sq)
			n++
		}
	}
	for _, sq := range own[:n] {
		for _, t := range nbr[sq] {
			if t >= 0 && p.board[t] == banqi.Empty {
				dst = append(dst, banqi.Move(int(sq), int(t)))
			}
		}
	}
	for _, sq := range own[:n] {
		for _, t := range p.appendTargets(r, int(sq), r.CaptureFacedown, tb[:0]) {
			dst = append(dst, banqi.Capture(int(sq), int(t)))
		}
	}
	return dst
}

// needsReveal reports whether a draws a piece from the face-down
// multiset: a flip, or an attack on a face-down piece.
func (p *position) needsReveal(a banqi.Action) bool {
	return a.Kind == banqi.KindFlip || (a.Kind == banqi.KindCapture && p.board[a.To] == banqi.FaceDown)
}

// play applies a legal action; reveal is the piece drawn when the action
// needs one (needsReveal), else ignored. It reports whether the mover
// won by capturing the last piece of a colour. The repetition, no-move
// and no-progress rules are the search's to check at the next node.
func (p *position) play(r *rules, a banqi.Action, reveal banqi.Piece) (won bool) {
	endTurn := true
	switch a.Kind {
	case banqi.KindFlip:
		p.hidden[reveal]--
		p.nHidden--
		p.set(int(a.From), reveal)
		p.quiet = 0
	case banqi.KindMove:
		pc := p.board[a.From]
		p.set(int(a.From), banqi.Empty)
		p.set(int(a.To), pc)
		p.quiet++
	case banqi.KindStop:
		p.chain = -1
	case banqi.KindCapture:
		p.chain = -1
		p.quiet = 0
		att := p.board[a.From]
		tgt := p.board[a.To]
		if tgt == banqi.FaceDown {
			tgt = reveal
			p.hidden[reveal]--
			p.nHidden--
			p.set(int(a.To), reveal)
			if tgt.Colour() == att.Colour() || !banqi.CanTake(r.Ranks, att.Type(), tgt.Type()) {
				break
			}
		}
		p.alive[tgt.Colour()]--
		p.set(int(a.To), att)
		p.set(int(a.From), banqi.Empty)
		if p.alive[tgt.Colour()] == 0 {
			p.ply++
			return true
		}
		if r.ChainCapture {
			var tb [4]int8
			if len(p.appendTargets(r, int(a.To), r.CaptureFacedown, tb[:0])) > 0 {
				p.chain = a.To
				endTurn = false
			}
		}
	}
	p.ply++
	if endTurn {
		p.side = 1 - p.side
		p.hash ^= blackKey
	}
	return false
}

// irreversible reports whether a starts a new repetition window (a flip
// or capture: the engine forgets the positions before it).
func irreversible(a banqi.Action) bool {
	return a.Kind == banqi.KindFlip || a.Kind == banqi.KindCapture
}
