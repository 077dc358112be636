package uno

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// positionOf is the Position of a live state, read from its fields (what
// a seat that saw everything would know).
func positionOf(s *State, seed uint64) Position {
	s.finishShuffle()
	p := Position{Rules: s.rules, Seats: s.n, Draw: slices.Clone(s.draw), Discard: slices.Clone(s.discard),
		Colour: int(s.colour), Direction: s.dir, ToMove: s.cur, Dealer: s.dealer, HandNo: s.handNo,
		Actions: s.public, Catch: s.catchSeat, Seed: seed, Scores: make([]int, s.n)}
	for q := range s.n {
		p.Hands = append(p.Hands, s.Hand(q))
		p.Scores[q] = s.scores[q]
	}
	for _, q := range s.finish[:s.nFinish] {
		p.Finished = append(p.Finished, int(q))
	}
	p.Decision = phaseNames[s.phase]
	switch s.phase {
	case phDrawn:
		p.Drawn = s.drawn
	case phPending:
		p.Pending, p.PendingWD4, p.PendingFrom = s.pending, s.pendWD4, s.pendFrom
		p.Challenge, p.WD4From, p.WD4Prev = s.challengeable, s.wd4Player, int(s.wd4Prev)
	case phJump:
		p.JumpCard, p.JumpNext = s.jumpCard, s.jumpNext
	}
	return p
}

// A state built from a live game's position offers the same legal
// actions and plays on identically (until the next reshuffle, which
// draws from the position's own seed), for every rule set and seat count.
func TestFromPositionPlaysOn(t *testing.T) {
	checked := 0
	for ci, cf := range configs {
		for _, n := range []int{2, 3, 4, 7} {
			n := seatsFor(cf.game, n)
			rng := rand.New(rand.NewPCG(uint64(ci), uint64(n)))
			for g := range 20 {
				s := newGame(t, cf.game, n, uint64(g), cf.opts)
				for ply := 0; !s.Over() && ply < 400; ply++ {
					legal := s.AppendLegal(nil)
					if ply%7 == 3 && (s.phase != phJump || s.nJump == 1) && s.nFinish == 0 {
						c, err := FromPosition(positionOf(s, 9))
						if err != nil {
							t.Fatalf("%s %d seats game %d ply %d: %v", cf.name, n, g, ply, err)
						}
						checkConservation(t, c)
						a, b := s.Clone(), c
						for k := 0; k < 30 && !a.Over(); k++ {
							la, lb := a.AppendLegal(nil), b.AppendLegal(nil)
							if !slices.Equal(la, lb) || a.cur != b.cur || a.Over() != b.Over() {
								t.Fatalf("%s %d seats game %d ply %d+%d: legal %v / %v", cf.name, n, g, ply, k, la, lb)
							}
							if len(a.draw) < 12 { // a reshuffle could come in this action
								break
							}
							x := la[rng.IntN(len(la))]
							if err := a.Play(x); err != nil {
								t.Fatal(err)
							}
							if err := b.Play(x); err != nil {
								t.Fatal(err)
							}
							if a.handNo != s.handNo {
								break
							}
						}
						checked++
					}
					// prefer plays so that hands end
					k := rng.IntN(len(legal))
					if legal[k].Type == ActDraw && len(legal) > 1 && rng.IntN(4) != 0 {
						k = rng.IntN(len(legal) - 1)
					}
					if err := s.Play(legal[k]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d positions checked", checked)
	}
}

func TestFromPositionRefusesBadPositions(t *testing.T) {
	s := NewState(2, 1, DefaultRules())
	good := positionOf(s, 1)
	if _, err := FromPosition(good); err != nil {
		t.Fatal(err)
	}
	bad := good
	bad.Hands = [][]Card{good.Hands[0], good.Hands[1][1:]}
	if _, err := FromPosition(bad); err == nil {
		t.Error("a card missing: no error")
	}
	bad = good
	bad.Seats = 3
	if _, err := FromPosition(bad); err == nil {
		t.Error("3 seats, 2 hands: no error")
	}
	bad = good
	bad.Decision = "drawn"
	bad.Drawn = NoCard
	if _, err := FromPosition(bad); err == nil {
		t.Error("drawn without a card: no error")
	}
}
