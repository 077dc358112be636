package uno

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

// The fast encoders must produce exactly encoding/json's bytes.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	for ci, cf := range configs {
		for seed := uint64(1); seed <= testkit.Pick[uint64](10, 30); seed++ { // 10: every seat count twice
			n := seatsFor(cf.game, seatCounts[int(seed)%len(seatCounts)])
			s := newGame(t, cf.game, n, seed, merge(cf.opts, map[string]string{"target": "0"}))
			rng := rand.New(rand.NewPCG(seed, uint64(ci)))
			for !s.Over() {
				// The fast encoders are checked in enginetest; uno also
				// checks that each canonical action parses back.
				for _, a := range enginetest.CheckAppendJSON(t, s, fmt.Sprint("seed ", seed), enginetest.AllSeats(n)...) {
					want, _ := json.Marshal(a)
					back, err := ParseAction(want)
					if err != nil || back != a.(Action) {
						t.Fatalf("action %s parses back as %v, %v", want, back, err)
					}
				}
				l := s.AppendLegal(nil)
				if err := s.Play(l[choose(l, rng, true)]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
