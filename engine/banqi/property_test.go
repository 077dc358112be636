package banqi

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

// checkConservation: face-down multiset + captured + face-up on the board
// is always the full set of 32, and the face-down count matches the X
// squares.
func checkConservation(t *testing.T, s *State) {
	t.Helper()
	var n [16]int
	xs := 0
	for _, p := range s.board {
		if p.Up() {
			n[p]++
		} else if p == FaceDown {
			xs++
		}
	}
	hidden := 0
	for p := Piece(1); p <= 14; p++ {
		hidden += int(s.hidden[p])
		if got := n[p] + int(s.hidden[p]) + int(s.taken[p]); got != Count[p.Type()] {
			t.Fatalf("%c: %d on board + %d face down + %d captured != %d", p.Letter(), n[p], s.hidden[p], s.taken[p], Count[p.Type()])
		}
	}
	if len(s.hist) != len(s.moves)+1 && !(s.chain >= 0 && len(s.hist) == 0 && len(s.moves) == 0) && !s.over {
		t.Fatalf("history: %d positions for %d moves", len(s.hist), len(s.moves))
	}
	if hidden != xs || hidden != s.nHidden {
		t.Fatalf("face-down count %d, X squares %d, nHidden %d", hidden, xs, s.nHidden)
	}
	for c := range Colour(2) {
		left := 0
		for ty := range Type(7) {
			left += Count[ty] - int(s.taken[MakePiece(c, ty)])
		}
		if left != int(s.alive[c]) {
			t.Fatalf("alive %v = %d, want %d", c, s.alive[c], left)
		}
	}
}

func TestRandomGamesEnd(t *testing.T) {
	games := 3000
	if testkit.Quick() {
		games = 300
	}
	rng := rand.New(rand.NewPCG(11, 12))
	reasons := map[string]int{}
	g := Game{}
	for i := range games {
		r := DefaultRules()
		if i%2 == 1 {
			r = randomRules(rng)
		}
		seed := rng.Uint64()
		s := NewState(seed, r)
		picks := enginetest.PlayOut(t, s, 2, enginetest.Uniform[Action](rng), func([]int) {
			if s.Ply() > r.MaxPlies {
				t.Fatal("game ran past max_plies")
			}
		}, func() { checkConservation(t, s) })
		o := s.Outcome()
		if len(o.Ranks) != 2 || len(o.Scores) != 2 || o.Reason == "" || o.Scores[0]+o.Scores[1] != 1 {
			t.Fatalf("bad outcome %+v", o)
		}
		key := o.Reason
		if strings.HasPrefix(key, "all 16") {
			key = "all 16 captured"
		} else if strings.HasSuffix(key, "no legal move") {
			key = "no legal move"
		} else if strings.Contains(key, "perpetual chase") {
			key = "perpetual chase"
		}
		reasons[key]++

		// Determinism: the registry path, fed the same choices as JSON,
		// reproduces the game exactly.
		if i%10 == 0 {
			opts := engine.Options{"ranks": r.Ranks.String(), "chain_capture": boolStr(r.ChainCapture),
				"capture_facedown": boolStr(r.CaptureFacedown), "repetition": map[bool]string{false: "draw3", true: "chase_loss"}[r.ChaseLoss]}
			enginetest.SameGame(t, enginetest.Replay(t, g, 2, seed, opts, picks, nil), s, engine.Spectator)
		}
	}
	enginetest.LogCounts(t, reasons)
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// Legal and Apply agree with a Clone: cloning mid-game gives an
// independent game that continues identically.
func TestCloneIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := NewState(99, DefaultRules())
	for range 40 {
		l := s.AppendLegal(nil)
		mustPlay(t, s, l[rng.IntN(len(l))])
	}
	c := s.Clone()
	enginetest.CheckClone(t, s, c, enginetest.Uniform[Action](rng), func() bool { return s.board == c.board })
	if !reflect.DeepEqual(s.Outcome(), c.Outcome()) {
		t.Fatal("clone outcome differs")
	}
}
