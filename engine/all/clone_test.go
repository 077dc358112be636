package all

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// Every game's states copy themselves (engine.Cloner): the engine server's
// clone and playouts rely on it. A copy taken mid-game must play on
// exactly as the original (the same legal lists and views, its randomness
// to come included) and be independent of it: playing the copy ahead
// leaves the original's view unchanged.
func TestEveryGameClones(t *testing.T) {
	for _, g := range engine.Games() {
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) {
			opts, err := engine.Setup(g, info.MinSeats, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, err := g.New(info.MinSeats, 7, opts)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < 10 && !st.Over(); i++ {
				l := st.Legal()
				if err := st.Apply(l[rng.IntN(len(l))]); err != nil {
					t.Fatal(err)
				}
			}
			c, ok := st.(engine.Cloner)
			if !ok {
				t.Fatalf("%T is not an engine.Cloner", st)
			}
			cp := c.CloneState()
			before := viewOf(t, st, 0)
			ahead := cp.(engine.Cloner).CloneState()
			for !ahead.Over() {
				l := ahead.Legal()
				if err := ahead.Apply(l[rng.IntN(len(l))]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(before, viewOf(t, st, 0)) {
				t.Fatal("playing a copy changed the original")
			}
			for !st.Over() {
				if !bytes.Equal(viewOf(t, st, st.ToMove()), viewOf(t, cp, cp.ToMove())) {
					t.Fatal("the copy diverged from the original")
				}
				l := st.Legal()
				i := rng.IntN(len(l))
				if err := st.Apply(l[i]); err != nil {
					t.Fatal(err)
				}
				if err := cp.Apply(cp.Legal()[i]); err != nil {
					t.Fatal(err)
				}
			}
			if !cp.Over() {
				t.Fatal("the original ended, its copy did not")
			}
		})
	}
}

func viewOf(t *testing.T, st engine.State, seat int) []byte {
	t.Helper()
	b, err := engine.AppendJSON(nil, st.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
