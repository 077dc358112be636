package boon

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine/enginetest"
)

// The fast encoders must produce exactly encoding/json's bytes: bots and
// replays see one canonical form whichever path made it.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 150 {
		seats := 3 + i%3
		r := DefaultRules()
		if i%2 == 1 {
			r = randomRules(rng)
		}
		st, err := Game{}.New(seats, uint64(i), r.Options())
		if err != nil {
			t.Fatal(err)
		}
		for !st.Over() {
			legal := enginetest.CheckAppendJSON(t, st, fmt.Sprint("game ", i), enginetest.AllSeats(seats)...)
			if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		enginetest.CheckAppendJSON(t, st, "final", 0)
	}
}

func TestActionJSON(t *testing.T) {
	cases := map[Action]string{
		Take():                 `{"type":"take"}`,
		Pass():                 `{"type":"pass"}`,
		Bury(card("Au14")):     `{"type":"bury","card":"Au14"}`,
		Play(card("B5")):       `{"type":"play","card":"B5"}`,
		Play(card("G1")):       `{"type":"play","card":"G1"}`,
		Bury(MakeCard(Red, 6)): `{"type":"bury","card":"R6"}`,
	}
	for a, want := range cases {
		b, err := json.Marshal(a)
		if err != nil || string(b) != want {
			t.Fatalf("%v: %s %v", a, b, err)
		}
		back, err := ParseAction(b)
		if err != nil || back != a {
			t.Fatalf("%s: %v %v", b, back, err)
		}
	}
	bad := map[string]string{
		`[]`:                          "want a JSON object",
		`{}`:                          `missing "type"`,
		`{"type":"jump"}`:             "unknown type",
		`{"type":"play"}`:             `missing "card"`,
		`{"type":"bury","card":"G9"}`: "bad card",
		`{"type":"play","card":7}`:    "want a JSON object",
	}
	for raw, want := range bad {
		if _, err := ParseAction([]byte(raw)); err == nil || !contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
	// Unknown fields are ignored, case of the card is not significant; the
	// canonical form is what json.Marshal gives.
	a, err := ParseAction([]byte(`{"type":"play","card":"au3","why":"x"}`))
	if err != nil || a != Play(MakeCard(Gold, 3)) {
		t.Fatal(a, err)
	}
	if _, err := json.Marshal(Action{Kind: 7}); err == nil {
		t.Fatal("invalid action marshalled")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// FuzzParseAction: ParseAction never panics, and whatever it accepts
// marshals to a canonical form that parses back to the same action.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{`{"type":"take"}`, `{"type":"pass"}`, `{"type":"bury","card":"Au14"}`,
		`{"type":"play","card":"B5"}`, `{"type":"play","card":"g1"}`, `{}`, `[]`, `{"type":"play","card":"Au0"}`,
		`{"type":"bury","card":""}`, `{"type":"play","card":"R6","x":[1,2]}`, `null`, `{"type":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := ParseAction(raw)
		if err != nil {
			return
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("%q parsed to %v, which does not marshal: %v", raw, a, err)
		}
		back, err := ParseAction(b)
		if err != nil || back != a {
			t.Fatalf("%s: round trip %v -> %v (%v)", raw, a, back, err)
		}
	})
}
