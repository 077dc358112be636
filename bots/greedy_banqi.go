package bots

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/arena-dev/arena/bots/expectimax"
	"github.com/arena-dev/arena/engine/banqi"
)

// GreedyBanqi picks a Banqi action from what a bot receives over the wire:
// the view JSON and the legal action list. It scores every legal action by
// material won minus the opponent's best reply capture (counting our
// recapture, so favourable trades are allowed), prices flips by the
// expected damage over the public face-down multiset, prefers flips to
// aimless moves, and moves pieces towards enemies they can take. Ties are
// broken at random. It returns the index into legal.
func GreedyBanqi(view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error) {
	v, acts, err := decodeTurn[banqi.View]("banqi", view, legal, banqi.ParseAction)
	if err != nil {
		return 0, err
	}
	if v.You == nil || v.You.Colour == nil {
		return rng.IntN(len(legal)), nil // first flip of the game: anything goes
	}
	b, err := banqi.ParseBoard(v.Board[:]...)
	if err != nil {
		return 0, fmt.Errorf("greedy banqi: view board: %w", err)
	}
	g := banqiGreedy{board: b, me: banqi.Red}
	if *v.You.Colour == "black" {
		g.me = banqi.Black
	}
	if v.Ranks == "hk" {
		g.ranks = banqi.HK
	}
	for i := 0; i < len(v.FaceDown.Red)+len(v.FaceDown.Black); i++ {
		var l byte
		if i < len(v.FaceDown.Red) {
			l = v.FaceDown.Red[i]
		} else {
			l = v.FaceDown.Black[i-len(v.FaceDown.Red)]
		}
		p, err := banqi.PieceFromLetter(l)
		if err != nil {
			return 0, fmt.Errorf("greedy banqi: view facedown: %w", err)
		}
		g.hidden[p]++
		g.nHidden++
	}
	base := g.threat(&g.board)
	return bestIndex(len(acts), func(i int) float64 { return g.score(acts[i], base) }, rng), nil
}

type banqiGreedy struct {
	board   banqi.Board
	me      banqi.Colour
	ranks   banqi.Ranks
	hidden  [16]int
	nHidden int
	buf     []int
}

func (g *banqiGreedy) val(p banqi.Piece) float64 {
	if !p.Up() {
		return 0
	}
	return float64(expectimax.PieceValue(g.ranks, p.Type())) / 100 // whole units: a Pawn is 2
}

// score rates one action; base is the threat on the current board.
func (g *banqiGreedy) score(a banqi.Action, base float64) float64 {
	b := g.board
	from, to := int(a.From), int(a.To)
	switch a.Kind {
	case banqi.KindStop:
		return -base
	case banqi.KindFlip:
		return 0.05 - g.expectReveal(to, func(bb *banqi.Board) float64 { return g.threat(bb) }, base)
	case banqi.KindMove:
		p := b[from]
		b[to], b[from] = p, banqi.Empty
		return -g.threat(&b) + 0.04*float64(g.distance(&g.board, from)-g.distance(&b, to))
	case banqi.KindCapture:
		att := b[from]
		if b[to] == banqi.FaceDown { // capture_facedown: attack an unknown piece
			return g.expectReveal(to, func(bb *banqi.Board) float64 {
				p := bb[to]
				if p.Colour() == g.me || !banqi.CanTake(g.ranks, att.Type(), p.Type()) {
					return g.threat(bb)
				}
				c := *bb
				c[to], c[from] = att, banqi.Empty
				return g.threat(&c) - g.val(p)
			}, base) * -1
		}
		gain := g.val(b[to])
		b[to], b[from] = att, banqi.Empty
		return gain - g.threat(&b)
	}
	return -base
}

// expectReveal averages f over the piece that square sq (face-down) may
// turn out to be. Squares with no face-up piece next to them or in line
// with a face-up cannon cannot change any threat: they get base.
func (g *banqiGreedy) expectReveal(sq int, f func(*banqi.Board) float64, base float64) float64 {
	if g.nHidden == 0 || !g.near(sq) {
		b := g.board
		return f(&b)
	}
	sum := 0.0
	for p := banqi.Piece(1); p <= 14; p++ {
		if g.hidden[p] == 0 {
			continue
		}
		b := g.board
		b[sq] = p
		sum += float64(g.hidden[p]) * f(&b)
	}
	return sum / float64(g.nHidden)
}

func (g *banqiGreedy) near(sq int) bool {
	for _, n := range banqi.Adjacent(sq) {
		if n >= 0 && g.board[n].Up() {
			return true
		}
	}
	for q, p := range g.board {
		if p.Up() && p.Type() == banqi.Cannon && (q%4 == sq%4 || q/4 == sq/4) {
			return true
		}
	}
	return false
}

// threat is the most the opponent (to move on b) can win with one
// capture, net of our recapture of the capturing piece.
func (g *banqiGreedy) threat(b *banqi.Board) float64 {
	best := 0.0
	for f, p := range b {
		if !p.Up() || p.Colour() == g.me {
			continue
		}
		g.buf = b.AppendTargets(g.ranks, f, g.buf[:0])
		for _, t := range g.buf {
			loss := g.val(b[t])
			if loss <= best {
				continue
			}
			c := *b
			c[t], c[f] = p, banqi.Empty
			if g.attacked(&c, t, g.me) {
				loss -= g.val(p)
			}
			best = max(best, loss)
		}
	}
	return best
}

// attacked reports whether a face-up piece of colour by can capture on sq.
func (g *banqiGreedy) attacked(b *banqi.Board, sq int, by banqi.Colour) bool {
	for f, p := range b {
		if p.Up() && p.Colour() == by && b.CanCapture(g.ranks, f, sq) {
			return true
		}
	}
	return false
}

// distance from the piece on sq to the nearest enemy it may take
// (Manhattan; 16 if none, cannons under Taiwanese rules excluded).
func (g *banqiGreedy) distance(b *banqi.Board, sq int) int {
	p := b[sq]
	if !p.Up() || (g.ranks == banqi.Taiwan && p.Type() == banqi.Cannon) {
		return 16
	}
	best := 16
	for q, e := range b {
		if !e.Up() || e.Colour() == p.Colour() || !banqi.CanTake(g.ranks, p.Type(), e.Type()) {
			continue
		}
		d := banqiAbs(q%4-sq%4) + banqiAbs(q/4-sq/4)
		best = min(best, d)
	}
	return best
}

func banqiAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
