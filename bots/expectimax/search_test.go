package expectimax

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine/banqi"
)

// board is a position from 8 rows (row 8 first), no face-down pieces,
// side to move, alive counts from the pieces on it.
func board(t *testing.T, side banqi.Colour, rows ...string) position {
	t.Helper()
	b, err := banqi.ParseBoard(rows...)
	if err != nil {
		t.Fatal(err)
	}
	p := position{board: b, side: side, chain: -1}
	for _, pc := range b {
		if pc.Up() {
			p.alive[pc.Colour()]++
		}
	}
	p.computeHash()
	return p
}

// A move back into a position of the repetition window scores as a draw
// (draw3), or as a risk for the mover (chase_loss), whoever is ahead;
// the same move without that history scores for the side ahead.
func TestRepetitionScoring(t *testing.T) {
	// Red's Rook against a black Pawn: red is well ahead.
	root := board(t, banqi.Red, "---p", "----", "----", "----", "----", "----", "----", "R---")
	move := banqi.Move(28, 24) // a1-a2
	after := root
	after.play(&rules{}, move, banqi.Empty)
	cases := []struct {
		name   string
		chase  bool
		window []uint64
		want   func(v int) bool
		says   string
	}{
		{"fresh", false, []uint64{root.hash}, func(v int) bool { return v > 200 }, "red's material edge"},
		{"repeat, draw3", false, []uint64{after.hash, root.hash}, func(v int) bool { return v == 0 }, "a draw (0)"},
		{"repeat, chase_loss", true, []uint64{after.hash, root.hash}, func(v int) bool { return v == -chaseRisk }, "-chaseRisk"},
	}
	for _, tc := range cases {
		r := banqi.DefaultRules()
		r.ChaseLoss = tc.chase
		s := newSearcher(r)
		s.hist = append(s.hist[:0], tc.window...)
		if v := s.actionValue(&root, move, 1, -infinity, infinity, 0, 0); !tc.want(v) {
			t.Errorf("%s: a1-a2 scores %d, want %s", tc.name, v, tc.says)
		}
	}
}

// The search takes a free piece and keeps away from a losing exchange:
// red's Guard can take a black Rook that nothing guards, or a black Pawn
// the black King would avenge (the King cannot take a Pawn, but can take
// a Guard).
func TestSearchTakesTheFreePiece(t *testing.T) {
	root := board(t, banqi.Red, "----", "----", "----", "-r--", "-Gp-", "--k-", "----", "----")
	s := newSearcher(banqi.DefaultRules())
	acts := root.legal(&s.r, nil)
	for depth := 1; depth <= 4; depth++ {
		res := s.run(&root, []uint64{root.hash}, acts, Limits{Depth: depth}, rand.New(rand.NewPCG(1, 1)))
		if got := acts[res.Best]; got != banqi.Capture(17, 13) {
			t.Errorf("depth %d: plays %v (score %d), want b4-b5 taking the Rook", depth, got, res.Score)
		}
	}
}
