package ismcts

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/protocol"
)

func TestDebugSearch(t *testing.T) {
	for _, game := range []string{"uno", "boon"} {
		var s engine.State
		var opts map[string]string
		if game == "uno" {
			s = uno.NewState(4, 5, uno.DefaultRules())
			r := uno.DefaultRules()
			opts = r.Options()
		} else {
			s = boon.NewState(4, 5, boon.DefaultRules())
			opts = map[string]string{}
		}
		b := New(Config{Iterations: 200}, nil)
		errs := 0
		b.Start(&protocol.Hello{Game: game, Seat: 0, Seats: 4, Options: opts})
		rng := rand.New(rand.NewPCG(1, 1))
		for k := 0; !s.Over() && k < 300; k++ {
			legal := s.Legal()
			i := rng.IntN(len(legal))
			if s.ToMove() == 0 {
				view, _ := engine.AppendJSON(nil, s.View(0))
				raws := make([]json.RawMessage, len(legal))
				for j, a := range legal {
					raws[j], _ = engine.AppendJSON(nil, a)
				}
				b.Stats = func(r Result) {
					if k < 40 {
						t.Logf("%s ply %d: %d legal, %d iters, %d nodes, visits %v", game, k, len(legal), r.Iterations, r.Nodes, r.Visits)
					}
				}
				var err error
				i, err = b.search(&protocol.Turn{View: view, Legal: raws}, Limits{Iterations: 200})
				if err != nil {
					errs++
					t.Logf("%s ply %d: %v", game, k, err)
				}
			}
			s.Apply(legal[i])
		}
		t.Logf("%s: %d errors", game, errs)
	}
}
