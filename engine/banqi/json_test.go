package banqi

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
)

// The fast encoders must produce exactly encoding/json's bytes: bots and
// replays see one canonical form whichever path made it.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	for _, opts := range []map[string]string{nil, {"chain_capture": "true", "capture_facedown": "true"}} {
		g := Game{}
		o, err := engine.Setup(g, 2, opts)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 40; seed++ {
			st, _ := g.New(2, seed, o)
			rng := rand.New(rand.NewPCG(seed, 9))
			for !st.Over() {
				legal := enginetest.CheckAppendJSON(t, st, fmt.Sprint("seed ", seed), enginetest.AllSeats(2)...)
				if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
