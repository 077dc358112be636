// Package enginetest checks properties every engine must have, for the
// engines' own tests and fuzz targets (as net/http/httptest serves HTTP
// code): a new game gets the whole contract checked by calling these.
package enginetest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// CheckApply is the fuzz property of action decoding and Apply. It reaches
// a state by up to steps random actions from seed, then parses raw as an
// action: ParseAction must never panic, and what it accepts must
// round-trip through its canonical JSON; an action the legal list holds
// (by canonical JSON, as the referee compares) must apply; any other must
// be refused and leave every view, the seat to move and the legal list
// byte-for-byte unchanged.
func CheckApply(t testing.TB, g engine.Game, seats int, seed uint64, steps uint8, raw []byte) {
	t.Helper()
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
	before := Observed(t, st, seats)
	err = st.Apply(a)
	switch {
	case legal && err != nil:
		t.Fatalf("legal %s refused: %v", canon, err)
	case !legal && err == nil:
		t.Fatalf("%s is not in the legal list, yet it applied", canon)
	case !legal:
		if after := Observed(t, st, seats); after != before {
			t.Fatalf("refused %s changed the state:\n%s\n%s", canon, before, after)
		}
	}
}

// Observed is everything anyone can observe of a state, as JSON: every
// seat's view, the spectator's, the seat to move and the legal list.
func Observed(t testing.TB, st engine.State, seats int) string {
	t.Helper()
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
	return string(b) + strconv.Itoa(st.ToMove()) + " " + string(l)
}

// Replay starts a new game of g and plays picks (indices into each legal
// list) the way a referee would: each chosen action goes through its JSON
// and ParseAction. each, if not nil, sees every move before it is applied.
func Replay(t testing.TB, g engine.Game, seats int, seed uint64, opts engine.Options, picks []int, each func(ply, seat int, raw json.RawMessage)) engine.State {
	t.Helper()
	st, err := g.New(seats, seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	for ply, k := range picks {
		raw, err := json.Marshal(st.Legal()[k])
		if err != nil {
			t.Fatal(err)
		}
		a, err := g.ParseAction(raw)
		if err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each(ply, st.ToMove(), raw)
		}
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// SameGame fails the test unless got is over with want's outcome and shows
// seat (or engine.Spectator) the same view, byte for byte.
func SameGame(t testing.TB, got, want engine.State, seat int) {
	t.Helper()
	if !got.Over() || !reflect.DeepEqual(got.Outcome(), want.Outcome()) {
		t.Fatalf("replay differs: %+v vs %+v", got.Outcome(), want.Outcome())
	}
	v1, _ := engine.AppendJSON(nil, want.View(seat))
	v2, _ := engine.AppendJSON(nil, got.View(seat))
	if !bytes.Equal(v1, v2) {
		t.Fatalf("replay view differs:\n%s\n%s", v1, v2)
	}
}
