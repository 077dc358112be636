package uno

import (
	"math/bits"
	"math/rand/v2"
)

// PlayRandom plays a uniformly random legal action of the seat to move,
// the fast path of random playouts. It plays exactly what this loop
// plays, drawing the same numbers from r:
//
//	l := s.AppendLegal(buf[:0])
//	k := 0
//	if len(l) > 1 {
//		k = RandIndex(r, len(l))
//	}
//	s.PlayListed(&l[k])
//
// but on a turn or a drawn card (most decisions) it counts the legal
// actions and builds only the one drawn, instead of listing them all and
// checking the one picked against the rules again: listing and checking
// were most of a move's cost. The other decisions go through that loop.
// It returns an error only when the game is over.
func (s *State) PlayRandom(r *rand.PCG) error {
	if s.over {
		return errOver
	}
	// Seven-zero plays list a variant per target seat; those rules take
	// the loop. So does an offered catch, which comes first in the list.
	if !s.rules.SevenZero && s.catchSeat < 0 {
		switch s.phase {
		case phTurn:
			s.randomTurn(r)
			return nil
		case phDrawn:
			s.randomDrawn(r)
			return nil
		}
	}
	var buf [128]Action // room for these decisions' lists; a longer one is appended on the heap
	l := s.AppendLegal(buf[:0])
	k := 0
	if len(l) > 1 {
		k = RandIndex(r, len(l))
	}
	return s.PlayListed(&l[k])
}

// variantShift is the log2 of the number of actions AppendLegal lists
// for each colour a play of p names (appendPlays): two (with and without
// the call) when the play leaves one card under a call rule, else one.
func (s *State) variantShift(p int) uint {
	if s.rules.UnoCall != CallOff && s.count[p] == 2 {
		return 1
	}
	return 0
}

// randomTurn is PlayRandom on a turn without seven_zero or a catch. The
// list it draws from (AppendLegal's order) is: the coloured cards
// playable, by kind; then each playable wild, by kind, once per colour
// named; each play with and without the call when it leaves one card;
// then the draw, or the pass.
func (s *State) randomTurn(r *rand.PCG) {
	p := s.cur
	plays := s.turnMask(p)
	sh := s.variantShift(p)
	coloured := plays &^ wildBits
	nCol := bits.OnesCount64(coloured) << sh
	n := nCol + bits.OnesCount64(plays&wildBits)<<(2+sh)
	// The closing action: the draw or the pass when nothing can be
	// played, and the draw beside the plays under voluntary draws.
	canDraw := s.canDraw()
	closing := 0
	if plays == 0 || canDraw && s.rules.VoluntaryDraw {
		closing = 1
	}
	k := 0
	if n+closing > 1 {
		k = RandIndex(r, n+closing)
	}
	if k >= n {
		if !canDraw {
			s.do(&Pass)
			return
		}
		// PlayListed's turn draw, written out as it is there (a shared
		// method is not inlined and cost 7-19% of a playout).
		s.begin(p, false)
		s.catchSeat = -1
		s.turnDraw(p)
		s.checkLimit()
		return
	}
	var a Action
	a.Type, a.Target = ActPlay, -1
	if k < nCol {
		a.Card, a.Colour = nthBit(coloured, k>>sh), -1
	} else {
		k -= nCol
		a.Card = nthBit(plays&wildBits, k>>(2+sh))
		a.Colour = int8(k>>sh) & 3
	}
	a.Uno = sh == 1 && k&1 == 0
	// PlayListed's turn play, written out (as the draw above).
	s.begin(p, false)
	s.catchSeat = -1
	s.playCard(p, &a)
	s.checkLimit()
}

// randomDrawn is PlayRandom on a drawn card that can be played, without
// seven_zero or a catch: its plays (once per colour for a wild, with and
// without the call), then the keep.
func (s *State) randomDrawn(r *rand.PCG) {
	p := s.cur
	c := s.drawn
	sh := s.variantShift(p)
	n := 1 << sh
	if c.IsWild() {
		n <<= 2
	}
	if k := RandIndex(r, n+1); k < n {
		var a Action
		a.Type, a.Card, a.Colour, a.Target = ActPlay, c, -1, -1
		if c.IsWild() {
			a.Colour = int8(k >> sh)
		}
		a.Uno = sh == 1 && k&1 == 0
		s.do(&a)
		return
	}
	s.do(&Keep)
}

// nthBit is the kind of the k-th lowest set bit of m, which has more
// than k.
func nthBit(m uint64, k int) Card {
	for ; k > 0; k-- {
		m &= m - 1
	}
	return Card(bits.TrailingZeros64(m))
}

// RandIndex is a uniformly random int in [0, n), n > 0: Lemire's
// multiply-shift with its rejection step, which makes it exact (the
// method of rand.Rand's IntN, without its separate power-of-two branch,
// which a random number of legal actions made a coin toss; for a power
// of two the threshold is 0 and nothing is rejected). It is the index
// PlayRandom draws; a concrete *rand.PCG, because a rand.Rand calls its
// source through an interface.
func RandIndex(r *rand.PCG, n int) int {
	hi, lo := bits.Mul64(r.Uint64(), uint64(n))
	if lo < uint64(n) {
		thresh := -uint64(n) % uint64(n)
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), uint64(n))
		}
	}
	return int(hi)
}
