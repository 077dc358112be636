package enginetest

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// Typed is the in-process fast path every engine's *State has besides
// engine.State: its own action type A, unboxed. The games' random-play
// tests drive it directly (no boxing, no JSON), so the loop that plays a
// game out lives here once rather than once a game.
type Typed[A any] interface {
	Over() bool
	ToMove() int
	AppendLegal(dst []A) []A
	Play(a A) error
}

// Uniform picks an index of the legal list uniformly with rng.
func Uniform[A any](rng *rand.Rand) func([]A) int {
	return func(l []A) int { return rng.IntN(len(l)) }
}

// PlayOut plays s to the end, each action chosen by pick from the typed
// legal list, and returns the picks (indices into each list, as Replay
// takes). A state that is not over must have a legal action, and each
// chosen one must apply. before, if not nil, is called before every
// action with each of the seats' turns so far (its last turn id, as
// CheckTwins takes; the slice is reused); after, if not nil, after every
// action.
func PlayOut[A any](t testing.TB, s Typed[A], seats int, pick func([]A) int, before func(turns []int), after func()) []int {
	t.Helper()
	var picks []int
	var buf []A
	turns := make([]int, seats)
	for !s.Over() {
		if before != nil {
			before(turns)
		}
		turns[s.ToMove()]++
		buf = s.AppendLegal(buf[:0])
		if len(buf) == 0 {
			t.Fatal("no legal action in a game that is not over")
		}
		k := pick(buf)
		picks = append(picks, k)
		if err := s.Play(buf[k]); err != nil {
			t.Fatalf("play %v: %v", buf[k], err)
		}
		if after != nil {
			after()
		}
	}
	return picks
}

// Seats is the range of seats (from engine.Spectator up) a per-turn check
// looks at: one drawn at random, or one time in every all of them, so
// that every seat is covered often without checking all at every turn.
func Seats(rng *rand.Rand, seats, every int) (from, to int) {
	from = engine.Spectator + rng.IntN(seats+1)
	if rng.IntN(every) == 0 {
		return engine.Spectator, seats - 1
	}
	return from, from
}

// CheckAppendJSON fails the test unless the engine's fast encoders
// (engine.JSONAppender, engine.ViewAppender) give exactly encoding/json's bytes, so that bots
// and replays see one canonical form whichever path made it: for the view
// of every seat in seats and, unless st is over, for every legal action.
// what names the state in failures. It returns the legal list (nil when
// over).
func CheckAppendJSON(t testing.TB, st engine.State, what string, seats ...int) []engine.Action {
	t.Helper()
	for _, seat := range seats {
		v := st.View(seat)
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.(engine.JSONAppender).AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("%s view %d:\n got %s\nwant %s", what, seat, got, want)
		}
		// A state that appends its views itself (the referee's path)
		// appends the same bytes, after what dst holds.
		if va, ok := st.(engine.ViewAppender); ok {
			const before = `{"view":`
			if got := va.AppendView([]byte(before), seat); string(got) != before+string(want) {
				t.Fatalf("%s AppendView %d:\n got %s\nwant %s%s", what, seat, got, before, want)
			}
		}
	}
	if st.Over() {
		return nil
	}
	legal := st.Legal()
	for _, a := range legal {
		want, _ := json.Marshal(a)
		if got := a.(engine.JSONAppender).AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("action %v: got %s want %s", a, got, want)
		}
	}
	return legal
}

// AllSeats is engine.Spectator and seats 0 to seats-1, in that order.
func AllSeats(seats int) []int {
	out := make([]int, 0, seats+1)
	for seat := engine.Spectator; seat < seats; seat++ {
		out = append(out, seat)
	}
	return out
}

// LogCounts logs a tally of what random games did (how they ended, what
// rounds they played), one count a line in key order, so that a run shows
// which paths the games reached.
func LogCounts(t testing.TB, counts map[string]int) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		t.Logf("%8d %s", counts[k], k)
	}
}

// CheckClone plays s and c, a clone of it, on in step to the end with the
// same actions (chosen by pick from s's legal list): the clone must be
// independent of s and continue identically, same(s, c) after every
// action.
func CheckClone[A any](t testing.TB, s, c Typed[A], pick func([]A) int, same func() bool) {
	t.Helper()
	for !s.Over() {
		l := s.AppendLegal(nil)
		a := l[pick(l)]
		for _, st := range []Typed[A]{s, c} {
			if err := st.Play(a); err != nil {
				t.Fatalf("play %v: %v", a, err)
			}
		}
		if !same() {
			t.Fatal("clone diverged")
		}
	}
}
