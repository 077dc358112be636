package boon

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// FuzzApply parses an action from arbitrary bytes and applies it to a
// state reached by random play (up to 255 random actions from the fuzzed
// seed): ParseAction never panics and what it accepts round-trips through
// its canonical JSON; an action the legal list holds (by canonical JSON,
// as the referee compares) applies; any other is refused and leaves every
// view, the seat to move and the legal list byte-for-byte unchanged.
func FuzzApply(f *testing.F) {
	for i, s := range []string{
		`{"type":"take"}`,
		`{"type":"pass"}`,
		`{"type":"bury","card":"B5"}`,
		`{"type":"play","card":"B5"}`,
		`{"type":"play","card":"XX"}`,
		`{"type":"play"}`,
		`{}`,
		`null`,
		`{"type":"bury","cards":["B5"]}`,
	} {
		f.Add(uint64(i), uint8(i*9), []byte(s))
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps uint8, raw []byte) {
		g := Game{}
		seats := 3 + int(seed%3)
		opts, err := engine.Setup(g, seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, err := g.New(seats, seed, opts)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for range steps {
			if st.Over() {
				break
			}
			l := st.Legal()
			if err := st.Apply(l[rng.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
		a, err := g.ParseAction(json.RawMessage(raw))
		if err != nil {
			return
		}
		canon, err := engine.AppendJSON(nil, a)
		if err != nil {
			t.Fatalf("%s parses to %v, which does not encode: %v", raw, a, err)
		}
		if b, err := g.ParseAction(canon); err != nil {
			t.Fatalf("%s -> %s does not parse: %v", raw, canon, err)
		} else if again, _ := engine.AppendJSON(nil, b); !bytes.Equal(again, canon) {
			t.Fatalf("%s -> %s -> %s", raw, canon, again)
		}
		legal := false
		if !st.Over() {
			for _, l := range st.Legal() {
				if j, _ := engine.AppendJSON(nil, l); bytes.Equal(j, canon) {
					legal = true
				}
			}
		}
		before := fuzzObserved(t, st, seats)
		err = st.Apply(a)
		switch {
		case legal && err != nil:
			t.Fatalf("legal %s refused: %v", canon, err)
		case !legal && err == nil:
			t.Fatalf("%s is not in the legal list, yet it applied", canon)
		case !legal:
			if after := fuzzObserved(t, st, seats); after != before {
				t.Fatalf("refused %s changed the state:\n%s\n%s", canon, before, after)
			}
		}
	})
}

// fuzzObserved is every seat's view, the spectator's, the seat to move
// and the legal list, as JSON.
func fuzzObserved(t *testing.T, st engine.State, seats int) string {
	var b []byte
	for seat := engine.Spectator; seat < seats; seat++ {
		v, err := json.Marshal(st.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, v...), '\n')
	}
	if st.Over() {
		return string(b) + "over"
	}
	l, err := json.Marshal(st.Legal())
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + string(rune('0'+st.ToMove())) + string(l)
}
