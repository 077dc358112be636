package boon

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/internal/testkit"
)

// The encoding's contract (enginetest.CheckEncoding) at every seat
// count, default and random rules: ids of the legal actions distinct and
// mapping back, the mask the legal set, the observation a function of
// the view alone (decoded from its JSON, and unchanged when everything
// the seat cannot see is re-dealt).
func TestEncoding(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(39, 2))
	for g := range testkit.Pick(6, 60) {
		seats := MinSeats + g%(MaxSeats-MinSeats+1)
		r := DefaultRules()
		if g%2 == 1 {
			r = randomRules(rng)
		}
		r.Rounds = 2
		enginetest.CheckEncoding(t, Game{}, enginetest.EncodingCheck{
			Seats: seats, Seed: rng.Uint64(), Opts: r.Options(), MaxPlies: 200,
			ParseView: enginetest.ParseJSON[View],
			Twin: func(st engine.State, seat int, rng *rand.Rand) engine.State {
				return permuteUnknown(st.(*State), seat, rng)
			},
		})
	}
}

func TestEncodingSizes(t *testing.T) {
	for seats, want := range map[int]int{3: 213, 4: 222, 5: 231} {
		enc, err := Game{}.Encoding(seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		if enc.ObsSize() != want || enc.NumActions() != 66 {
			t.Errorf("%d seats: obs %d, actions %d; want %d, 66", seats, enc.ObsSize(), enc.NumActions(), want)
		}
	}
	if _, err := (Game{}).Encoding(6, nil); err == nil {
		t.Error("6 seats encoded")
	}
}
