// Package enginetest checks properties every engine must have, for the
// engines' own tests and fuzz targets (as net/http/httptest serves HTTP
// code): a new game gets the whole contract checked by calling these.
// CheckApply is the contract of actions; CheckTwins the hidden-information
// contract of views, legal lists and of who is asked what, when.
package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
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
	_, st := newGame(t, g, seats, seed, nil)
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

// Observation is what the referee serves a seat at one of its decisions.
type Observation struct {
	// Turn is the seat's own turn count, and so this turn's id: the
	// referee numbers each seat's turns 1, 2, 3, ... over the turns that
	// seat is given, never counting another seat's.
	Turn int
	// View is View(seat) and Legal the legal list, in the referee's
	// encoding (engine.AppendJSON).
	View, Legal []byte
}

func (o Observation) String() string {
	return fmt.Sprintf("turn %d\nview %s\nlegal %s", o.Turn, o.View, o.Legal)
}

func (o Observation) equal(p Observation) bool {
	return o.Turn == p.Turn && bytes.Equal(o.View, p.View) && bytes.Equal(o.Legal, p.Legal)
}

// Observe is seat's observation of st at its turn number turn (st must be
// waiting for seat).
func Observe(t testing.TB, st engine.State, seat, turn int) Observation {
	t.Helper()
	legal := []byte{'['}
	for i, a := range st.Legal() {
		if i > 0 {
			legal = append(legal, ',')
		}
		var err error
		if legal, err = engine.AppendJSON(legal, a); err != nil {
			t.Fatal(err)
		}
	}
	return Observation{Turn: turn, View: viewJSON(t, st, seat), Legal: append(legal, ']')}
}

func viewJSON(t testing.TB, st engine.State, seat int) []byte {
	v, err := engine.AppendJSON(nil, st.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Twins tells CheckTwins what it needs to know about a game.
type Twins struct {
	// Clone returns an independent copy of a state: CheckTwins tries
	// actions on copies to find the hidden decision one twin has and the
	// other has not.
	Clone func(engine.State) engine.State
	// Diverged reports whether a and b now differ in something the rules
	// let seat learn: a card it drew or was handed, a face-down piece
	// turned up, scores that count hidden cards. From there on the twins
	// may rightly look different to seat, and the comparison stops. It
	// must not look at what decisions were asked or logged, which is what
	// CheckTwins checks. Nil: the twins never diverge.
	Diverged func(a, b engine.State, seat int) bool
	// Steps bounds the number of steps played (0: to the end).
	Steps int
}

// nobody is the mover of a finished game.
const nobody = -2

func mover(st engine.State) int {
	if st.Over() {
		return nobody
	}
	return st.ToMove()
}

// CheckTwins is the view-invariance property over time: hidden
// information decides nothing seat can observe. a and b are twins for
// seat (a real seat, not engine.Spectator): states of one game with the
// same history that differ only in what seat may not know (made by the
// caller, by re-dealing what seat cannot see); turns is the number of
// turns seat has had so far. Both are played on in step, and at every
// point seat must be asked in both twins or in neither, and when asked
// get the same Observation (turn id, view, legal list); at the end the
// same final view and outcome.
//
// seat chooses at random, the same choice in both twins. Another seat
// deciding in both plays the same action in both: any action when its
// legal lists are the same, else one both lists hold. A decision one
// twin asks and the other does not (a seat asked because of its own
// cards) must be hidden: one action of the seat asked (and at most one in
// the other twin) must bring the twins back to the same seat to move and
// the same view for seat; when none does and the twins still agree on
// all seat may learn (Twins.Diverged), the test fails. The comparison
// ends when the twins diverge (Twins.Diverged, asked whenever the same
// seat is to move in both), after Twins.Steps steps,
// at the end of the game, or when a seat other than seat has no action
// in common between the twins (its own cards then rightly decide the
// game). a and b are played on in place. It returns the number of seat's
// decisions compared.
func CheckTwins(t testing.TB, a, b engine.State, seat, turns int, rng *rand.Rand, tw Twins) int {
	t.Helper()
	// (With a hidden decision under way in one twin the views may differ
	// until it is resolved; the loop deals with that.)
	if mover(a) == mover(b) {
		if va, vb := viewJSON(t, a, seat), viewJSON(t, b, seat); !bytes.Equal(va, vb) {
			t.Fatalf("twins: seat %d can tell the twins apart from the start:\n%s\n%s", seat, va, vb)
		}
	}
	compared := 0
	for step := 0; tw.Steps <= 0 || step < tw.Steps; step++ {
		ma, mb := mover(a), mover(b)
		switch {
		case ma == nobody && mb == nobody:
			// The end message carries the final view and the outcome.
			if va, vb := viewJSON(t, a, seat), viewJSON(t, b, seat); !bytes.Equal(va, vb) {
				t.Fatalf("twins: seat %d's final view differs:\n%s\n%s", seat, va, vb)
			}
			if oa, ob := a.Outcome(), b.Outcome(); !reflect.DeepEqual(oa, ob) {
				t.Fatalf("twins: the outcome differs for seat %d: %+v / %+v", seat, oa, ob)
			}
			return compared
		case ma == seat && mb == seat:
			turns++
			if oa, ob := Observe(t, a, seat, turns), Observe(t, b, seat, turns); !oa.equal(ob) {
				t.Fatalf("twins: seat %d's turn %d differs:\n%s\n---\n%s", seat, turns, oa, ob)
			}
			compared++
			la, lb := a.Legal(), b.Legal()
			i := rng.IntN(len(la))
			apply(t, a, la[i])
			apply(t, b, lb[i])
		case ma == mb:
			la, ea := legalJSON(t, a)
			lb, eb := legalJSON(t, b)
			if slices.EqualFunc(ea, eb, bytes.Equal) {
				i := rng.IntN(len(la))
				apply(t, a, la[i])
				apply(t, b, lb[i])
				break
			}
			var common [][2]int
			for i := range ea {
				if j := slices.IndexFunc(eb, func(e []byte) bool { return bytes.Equal(e, ea[i]) }); j >= 0 {
					common = append(common, [2]int{i, j})
				}
			}
			if len(common) > 0 {
				k := common[rng.IntN(len(common))]
				apply(t, a, la[k[0]])
				apply(t, b, lb[k[1]])
				break
			}
			// Nothing in common: a hidden decision in one twin (the
			// same seat is asked something else in the other), or that
			// seat's own cards decide and the twins part here.
			if realign(t, a, b, seat, tw, false) != inStep {
				return compared
			}
		default:
			switch realign(t, a, b, seat, tw, true) {
			case parted:
				return compared
			case noHidden:
				t.Fatalf("twins: hidden information decides who is asked: seat %d in one twin, seat %d in the other "+
					"(-2: the game is over), and no hidden decision reconciles them; seat %d's views:\n%s\n%s",
					ma, mb, seat, viewJSON(t, a, seat), viewJSON(t, b, seat))
			}
		}
		// Twins out of step (a hidden decision under way in one) are
		// compared once realigned: until then what seat may learn can
		// differ in passing (a count of cards not yet drawn).
		if tw.Diverged != nil && mover(a) == mover(b) && tw.Diverged(a, b, seat) {
			return compared
		}
	}
	return compared
}

// realigned is what realign found.
type realigned int

const (
	inStep   realigned = iota // one or two hidden actions brought the twins back in step; played
	parted                    // they part over something seat may learn (Twins.Diverged): no leak
	noHidden                  // no hidden action brings them back, though they agree on all seat may learn
)

// realign looks for one action in one twin, or (pairs) one in each, that
// leaves the twins with the same seat to move and the same view for seat
// (and, if seat is to move, the same legal list), and plays it. seat's
// own decisions are never used: they are what is being compared. When
// none does, the twins have parted if every way of bringing the same seat
// to move (or, if there is none, the twins as they are) differs in what
// seat may learn.
func realign(t testing.TB, a, b engine.State, seat int, tw Twins, pairs bool) realigned {
	t.Helper()
	if tw.Clone == nil {
		t.Fatal("twins: Twins.Clone is nil")
	}
	options := func(st engine.State) []engine.Action {
		if m := mover(st); m == nobody || m == seat {
			return nil
		}
		return st.Legal()
	}
	after := func(st engine.State, x engine.Action) engine.State {
		c := tw.Clone(st)
		apply(t, c, x)
		return c
	}
	diverged := func(x, y engine.State) bool { return tw.Diverged != nil && tw.Diverged(x, y, seat) }
	inStepWith, learnable := false, false // some candidate brings the same seat to move; one agrees on what seat may learn
	same := func(x, y engine.State) bool {
		m := mover(x)
		if m != mover(y) {
			return false
		}
		inStepWith = true
		if !diverged(x, y) {
			learnable = true
		}
		if !bytes.Equal(viewJSON(t, x, seat), viewJSON(t, y, seat)) {
			return false
		}
		if m == seat {
			_, ex := legalJSON(t, x)
			_, ey := legalJSON(t, y)
			return slices.EqualFunc(ex, ey, bytes.Equal)
		}
		return true
	}
	oa, ob := options(a), options(b)
	for _, x := range oa {
		if same(after(a, x), b) {
			apply(t, a, x)
			return inStep
		}
	}
	for _, y := range ob {
		if same(a, after(b, y)) {
			apply(t, b, y)
			return inStep
		}
	}
	if pairs {
		bs := make([]engine.State, len(ob))
		for j, y := range ob {
			bs[j] = after(b, y)
		}
		for _, x := range oa {
			ax := after(a, x)
			for j, y := range ob {
				if same(ax, bs[j]) {
					apply(t, a, x)
					apply(t, b, y)
					return inStep
				}
			}
		}
	}
	if learnable || !inStepWith && !diverged(a, b) {
		return noHidden
	}
	return parted
}

func legalJSON(t testing.TB, st engine.State) ([]engine.Action, [][]byte) {
	l := st.Legal()
	enc := make([][]byte, len(l))
	for i, a := range l {
		var err error
		if enc[i], err = engine.AppendJSON(nil, a); err != nil {
			t.Fatal(err)
		}
	}
	return l, enc
}

func apply(t testing.TB, st engine.State, a engine.Action) {
	if err := st.Apply(a); err != nil {
		t.Fatalf("twins: %s: %v", a, err)
	}
}

// newGame is a new game of g for seats from seed under the options
// given (nil: the defaults), and the options resolved.
func newGame(t testing.TB, g engine.Game, seats int, seed uint64, given map[string]string) (engine.Options, engine.State) {
	t.Helper()
	opts, err := engine.Setup(g, seats, given)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(seats, seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	return opts, st
}
