package boon

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// positionOf is the Position of a live state, read from its fields.
func positionOf(s *State, seed uint64) Position {
	p := Position{Rules: s.rules, Seats: s.n, Round: s.round, Dealer: s.dealer, VC: slices.Clone(s.vc[:s.n]),
		Hands: slices.Clone(s.hands[:s.n]), Boon: s.boon, Picker: s.picker, Buried: s.buried, Passed: s.nPassed,
		Least: s.mode == ModeLeast, Seed: seed}
	for _, t := range s.tricks[:s.nTricks] {
		p.Tricks = append(p.Tricks, PlayedTrick{Leader: int(t.leader), Cards: slices.Clone(t.cards[:t.n])})
	}
	p.Trick = PlayedTrick{Leader: int(s.cur.leader), Cards: slices.Clone(s.cur.cards[:s.cur.n])}
	return p
}

// A state built from a live game's position offers the same legal
// actions, the same view (but the log) and plays on identically to the
// end of the round, for every seat count and option mix.
func TestFromPositionPlaysOn(t *testing.T) {
	optSets := []Rules{DefaultRules(), {MustTrump: true, Tiers: TiersSheepshead, NoPick: NoPickLeast, LeastTie: LeastTieSplit}}
	checked := 0
	for n := MinSeats; n <= MaxSeats; n++ {
		for ri, r := range optSets {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(ri)))
			for g := range 30 {
				s := NewState(n, uint64(g), r)
				for !s.Over() {
					legal := s.AppendLegal(nil)
					if rng.IntN(3) == 0 {
						c, err := FromPosition(positionOf(s, 5))
						if err != nil {
							t.Fatalf("%d seats game %d ply %d: %v", n, g, s.ply, err)
						}
						a := s.Clone()
						round := a.round
						for !a.Over() && a.round == round {
							la, lb := a.AppendLegal(nil), c.AppendLegal(nil)
							if !slices.Equal(la, lb) || a.toMove != c.toMove || a.phase != c.phase {
								t.Fatalf("%d seats game %d: legal %v / %v", n, g, la, lb)
							}
							va, vb := a.ViewOf(a.toMove), c.ViewOf(c.toMove)
							va.Events, vb.Events, va.LastRound, vb.LastRound = nil, nil, nil, nil
							if !slices.Equal(va.AppendJSON(nil), vb.AppendJSON(nil)) {
								t.Fatalf("%d seats game %d: views differ\n%s\n%s", n, g, va.AppendJSON(nil), vb.AppendJSON(nil))
							}
							x := la[rng.IntN(len(la))]
							if err := a.Play(x); err != nil {
								t.Fatal(err)
							}
							if err := c.Play(x); err != nil {
								t.Fatal(err)
							}
						}
						if a.round != round && !a.Over() && a.last.delta != c.last.delta {
							t.Fatalf("%d seats game %d: round deltas %v / %v", n, g, a.last.delta, c.last.delta)
						}
						checked++
					}
					if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
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
	s := NewState(4, 1, DefaultRules())
	good := positionOf(s, 1)
	if _, err := FromPosition(good); err != nil {
		t.Fatal(err)
	}
	bad := good
	bad.Hands = slices.Clone(good.Hands)
	bad.Hands[0] = bad.Hands[1]
	if _, err := FromPosition(bad); err == nil {
		t.Error("a hand twice: no error")
	}
	bad = good
	bad.Boon = 0
	if _, err := FromPosition(bad); err == nil {
		t.Error("no Boon: no error")
	}
}
