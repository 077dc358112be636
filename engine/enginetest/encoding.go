package enginetest

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// EncodingCheck is one game CheckEncoding plays.
type EncodingCheck struct {
	Seats int
	Seed  uint64
	Opts  map[string]string
	// MaxPlies bounds the game (0: 1000).
	MaxPlies int
	// ParseView decodes a seat's view JSON into the game's view type,
	// as a bot would: the observation of the decoded view must equal
	// that of View(seat), so that it is a function of what the referee
	// sends the seat and of nothing else.
	ParseView func(raw []byte) (any, error)
	// Twin, if set, returns a copy of st in which what seat cannot see
	// is dealt again (the game's own view-invariance twin): its
	// observation for seat must be the same.
	Twin func(st engine.State, seat int, rng *rand.Rand) engine.State
}

// CheckEncoding is the contract of engine.Encoder: it plays one random
// game and at every ply checks, for the seat to move, that every legal
// action has an id, distinct from the others', that maps back to an
// action with the same JSON; that the mask (fast path and reference)
// is exactly the legal set; and, for every seat, that the observation
// has ObsSize slots, is what the fast path gives, equals the
// observation of the view decoded from its JSON and of the twin's view.
// It returns the number of (ply, seat) observations checked.
func CheckEncoding(t testing.TB, g engine.Game, c EncodingCheck) int {
	t.Helper()
	enc, st := newEncoded(t, g, c)
	checkNames(t, enc)
	rng := rand.New(rand.NewPCG(c.Seed, 0xe1))
	maxPlies := c.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 1000
	}
	checked := 0
	for ply := 0; ply < maxPlies; ply++ {
		for seat := range c.Seats {
			checkObservation(t, enc, st, seat, c, rng)
			checked++
		}
		if st.Over() {
			break
		}
		legal := checkActionIDs(t, enc, st)
		if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	return checked
}

// checkNames checks that every action has a name of its own.
func checkNames(t testing.TB, enc engine.Encoding) {
	t.Helper()
	seen := make(map[string]int, enc.NumActions())
	for id := range enc.NumActions() {
		name := enc.ActionName(id)
		if prev, dup := seen[name]; dup || name == "" {
			t.Fatalf("actions %d and %d are both named %q", prev, id, name)
		}
		seen[name] = id
	}
}

func newEncoded(t testing.TB, g engine.Game, c EncodingCheck) (engine.Encoding, engine.State) {
	t.Helper()
	e, ok := g.(engine.Encoder)
	if !ok {
		t.Fatalf("%s is not an engine.Encoder", g.Info().Name)
	}
	opts, st := newGame(t, g, c.Seats, c.Seed, c.Opts)
	enc, err := e.Encoding(c.Seats, opts)
	if err != nil {
		t.Fatal(err)
	}
	return enc, st
}

// checkActionIDs checks the action space against the legal list of st
// and returns the list.
func checkActionIDs(t testing.TB, enc engine.Encoding, st engine.State) []engine.Action {
	t.Helper()
	legal := st.Legal()
	want := make([]byte, enc.NumActions())
	for _, a := range legal {
		id, ok := enc.ActionID(a)
		if !ok || id < 0 || id >= enc.NumActions() {
			t.Fatalf("legal action %v has no id (got %d, %t)", a, id, ok)
		}
		if want[id] != 0 {
			t.Fatalf("legal action %v has id %d, as another legal action does", a, id)
		}
		want[id] = 1
		back := enc.Action(id)
		if back == nil || !bytes.Equal(mustJSON(t, back), mustJSON(t, a)) {
			t.Fatalf("action %v: id %d maps back to %v (%q)", a, id, back, enc.ActionName(id))
		}
	}
	for name, mask := range map[string]func(engine.Encoding, engine.State, []byte) error{"Mask": engine.Mask, "MaskOf": engine.MaskOf} {
		got := make([]byte, enc.NumActions())
		got[0] = 9 // a mask must clear what it does not set
		if err := mask(enc, st, got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s is not the legal set %v:\n got %v\nwant %v", name, legal, got, want)
		}
	}
	return legal
}

func checkObservation(t testing.TB, enc engine.Encoding, st engine.State, seat int, c EncodingCheck, rng *rand.Rand) {
	t.Helper()
	obs := func(view any) []float32 {
		t.Helper()
		dst := make([]float32, enc.ObsSize())
		if err := enc.Encode(view, dst); err != nil {
			t.Fatalf("seat %d: encode: %v", seat, err)
		}
		return dst
	}
	want := obs(st.View(seat))
	fast := make([]float32, enc.ObsSize())
	for i := range fast {
		fast[i] = -7 // an observation must set every slot
	}
	if err := engine.EncodeState(enc, st, seat, fast); err != nil {
		t.Fatalf("seat %d: EncodeState: %v", seat, err)
	}
	if !slices.Equal(fast, want) {
		t.Fatalf("seat %d: EncodeState differs from Encode(View):\n got %v\nwant %v", seat, fast, want)
	}
	raw := ViewBytes(t, st, seat)
	parsed, err := c.ParseView(raw)
	if err != nil {
		t.Fatalf("seat %d: parse the view: %v\n%s", seat, err, raw)
	}
	if got := obs(parsed); !slices.Equal(got, want) {
		t.Fatalf("seat %d: the view decoded from its JSON encodes otherwise:\n got %v\nwant %v\nview %s", seat, got, want, raw)
	}
	if c.Twin != nil {
		twin := c.Twin(st, seat, rng)
		if got := obs(twin.View(seat)); !slices.Equal(got, want) {
			t.Fatalf("seat %d: re-dealing what the seat cannot see changed its observation:\n got %v\nwant %v", seat, got, want)
		}
	}
}

func mustJSON(t testing.TB, a engine.Action) []byte {
	t.Helper()
	b, err := engine.AppendJSON(nil, a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ParseJSON is an EncodingCheck.ParseView for a view type V decoded by
// encoding/json.
func ParseJSON[V any](raw []byte) (any, error) {
	var v V
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}
