package banqi

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
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
				for _, seat := range []int{engine.Spectator, 0, 1} {
					v := st.View(seat)
					want, _ := json.Marshal(v)
					if got := v.(engine.JSONAppender).AppendJSON(nil); string(got) != string(want) {
						t.Fatalf("seed %d view %d:\n got %s\nwant %s", seed, seat, got, want)
					}
				}
				legal := st.Legal()
				for _, a := range legal {
					want, _ := json.Marshal(a)
					if got := a.(engine.JSONAppender).AppendJSON(nil); string(got) != string(want) {
						t.Fatalf("action %v: got %s want %s", a, got, want)
					}
				}
				if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
