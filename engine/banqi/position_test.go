package banqi

import (
	"strings"
	"testing"
)

// FromPosition refuses a position that cannot be, naming what is wrong.
func TestFromPositionErrors(t *testing.T) {
	start := func() Position {
		s := NewState(1, DefaultRules())
		for _, a := range []Action{Flip(13), Flip(18)} {
			if err := s.Play(a); err != nil {
				t.Fatal(err)
			}
		}
		p := Position{Rules: s.rules, Board: s.board, Colours: s.colourOf, ToMove: s.toMove, Chain: -1, Ply: s.ply, Captured: s.taken}
		if _, err := FromPosition(p); err != nil {
			t.Fatalf("the game's own position: %v", err)
		}
		return p
	}
	cases := []struct {
		name, want string
		edit       func(p *Position)
	}{
		{"a piece too many", "more than", func(p *Position) { p.Captured[p.Board[13]] = 5 }},
		{"face-down count", "face down", func(p *Position) { p.Board[0] = Empty }},
		{"bad square", "piece code", func(p *Position) { p.Board[0] = 20 }},
		{"to move", "to_move", func(p *Position) { p.ToMove = 2 }},
		{"colours", "colours", func(p *Position) { p.Colours[1] = p.Colours[0] }},
		{"chain", "chain", func(p *Position) { p.Chain = 0 }},
		{"move not undone", "cannot be undone", func(p *Position) { p.Moves = [][2]int{{0, 1}} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := start()
			c.edit(&p)
			if _, err := FromPosition(p); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}
