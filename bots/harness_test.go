package bots

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
)

// playVsRandom plays one game in process. The seat played by choose gets
// exactly what the referee would send it: engine.AppendJSON of View(seat)
// and of every legal action. The other seats choose uniformly at random.
func playVsRandom(t testing.TB, game string, seats int, seed uint64, opts map[string]string, seat int, choose strategy, rng *rand.Rand) engine.Outcome {
	t.Helper()
	g, o := testkit.Setup(t, game, seats, opts)
	s, err := g.New(seats, seed, o)
	if err != nil {
		t.Fatal(err)
	}
	for !s.Over() {
		legal := s.Legal()
		k := rng.IntN(len(legal))
		if s.ToMove() == seat {
			view, err := engine.AppendJSON(nil, s.View(seat))
			if err != nil {
				t.Fatal(err)
			}
			raws := make([]json.RawMessage, len(legal))
			for i, a := range legal {
				if raws[i], err = engine.AppendJSON(nil, a); err != nil {
					t.Fatal(err)
				}
			}
			if k, err = choose(view, raws, rng); err != nil {
				t.Fatal(err)
			}
			if k < 0 || k >= len(legal) {
				t.Fatalf("index %d out of %d", k, len(legal))
			}
		}
		if err := s.Apply(legal[k]); err != nil {
			t.Fatal(err)
		}
	}
	return s.Outcome()
}
