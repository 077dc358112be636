package banqi

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/internal/testkit"
)

// The encoding's contract (enginetest.CheckEncoding) under default and
// random rules: ids of the legal actions distinct and mapping back, the
// mask the legal set, the observation a function of the view alone
// (decoded from its JSON, and unchanged when the face-down pieces are
// re-dealt, which in Banqi is re-seeding the state's RNG).
func TestEncoding(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(39, 3))
	for g := range testkit.Pick(6, 60) {
		opts := map[string]string{}
		if g%2 == 1 {
			opts = enginetest.RandomOptions(rng, Game{}, map[string][]string{"no_progress_plies": {"180", "12"}})
		}
		enginetest.CheckEncoding(t, Game{}, enginetest.EncodingCheck{
			Seats: 2, Seed: rng.Uint64(), Opts: opts, MaxPlies: 300,
			ParseView: enginetest.ParseJSON[View],
			Twin: func(st engine.State, _ int, rng *rand.Rand) engine.State {
				c := st.(*State).Clone()
				c.pcg = rand.NewPCG(rng.Uint64(), rng.Uint64())
				c.rng = rand.New(c.pcg)
				return c
			},
		})
	}
}

func TestEncodingSizes(t *testing.T) {
	enc, err := Game{}.Encoding(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 32 flips, 104 moves (2 x (3 x 8 + 4 x 7) neighbouring pairs), 320
	// captures (10 squares in line with each), stop.
	if enc.ObsSize() != 576 || enc.NumActions() != 32+104+320+1 {
		t.Errorf("obs %d, actions %d; want 576, 457", enc.ObsSize(), enc.NumActions())
	}
	if got := enc.ActionName(enc.NumActions() - 2); got != "d1xc1" {
		t.Errorf("the last capture is named %q, want d1xc1", got)
	}
	if _, err := (Game{}).Encoding(3, nil); err == nil {
		t.Error("3 seats encoded")
	}
}
