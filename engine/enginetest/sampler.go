package enginetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// SamplerCheck is one game CheckSampler plays.
type SamplerCheck struct {
	Seats int
	Seed  uint64
	Opts  map[string]string
	// Seat is the seat whose views the observer follows.
	Seat int
	// Every: a decision of Seat is sampled at with chance 1/Every (1:
	// all); Samples states are drawn each time.
	Every, Samples int
	// MaxPlies bounds the game and each sampled state's playout (0:
	// 1000): the property is about consistency, not about finishing.
	MaxPlies int
	// Pick chooses an action (nil: uniformly at random).
	Pick func(legal []engine.Action, rng *rand.Rand) int
	// At, if set, is called at each decision of Seat after its view is
	// observed, with the true state: for a game's own checks of what its
	// observer knows.
	At func(truth engine.State, o engine.Observer)
	// Sampled, if set, is called with each state sampled, before it is
	// played on.
	Sampled func(sample engine.State, o engine.Observer)
}

// CheckSampler is the contract of engine.Sampler: it plays g from
// c.Seed with c.Pick, gives c.Seat's view (the referee's bytes) to an
// observer at each of its decisions and, at some, samples states. Each
// must show the seat its last view byte for byte, and play on with
// every listed action applying. Once the game is over, Sample must
// return engine.ErrNoDecision. It returns the decisions sampled at.
func CheckSampler(t testing.TB, g engine.Game, c SamplerCheck) int {
	t.Helper()
	sm, ok := g.(engine.Sampler)
	if !ok {
		t.Fatalf("%s is not an engine.Sampler", g.Info().Name)
	}
	opts, st := newGame(t, g, c.Seats, c.Seed, c.Opts)
	o, err := sm.Observer(c.Seat, c.Seats, opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x5a))
	pick := c.Pick
	if pick == nil {
		pick = func(l []engine.Action, rng *rand.Rand) int { return rng.IntN(len(l)) }
	}
	maxPlies := c.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 1000
	}
	sampled := 0
	for ply := 0; !st.Over() && ply < maxPlies; ply++ {
		if st.ToMove() == c.Seat {
			view := ViewBytes(t, st, c.Seat)
			if err := o.Observe(view); err != nil {
				t.Fatalf("seed %d ply %d: observe: %v", c.Seed, ply, err)
			}
			if c.At != nil {
				c.At(st, o)
			}
			if c.Every <= 1 || rng.IntN(c.Every) == 0 {
				sampled++
				checkSamples(t, o, c, view, rng, pick, maxPlies)
			}
		}
		l := st.Legal()
		if err := st.Apply(l[pick(l, rng)]); err != nil {
			t.Fatal(err)
		}
	}
	if st.Over() {
		if err := o.Observe(ViewBytes(t, st, c.Seat)); err != nil {
			t.Fatalf("seed %d: observe the end: %v", c.Seed, err)
		}
		if _, err := o.Sample(rng); !errors.Is(err, engine.ErrNoDecision) {
			t.Fatalf("seed %d: sample after the end: %v, want engine.ErrNoDecision", c.Seed, err)
		}
	}
	return sampled
}

func checkSamples(t testing.TB, o engine.Observer, c SamplerCheck, view []byte, rng *rand.Rand, pick func([]engine.Action, *rand.Rand) int, maxPlies int) {
	t.Helper()
	for range max(c.Samples, 1) {
		s, err := o.Sample(rng)
		if err != nil {
			t.Fatalf("seed %d: sample: %v\nview %s", c.Seed, err, view)
		}
		if got := ViewBytes(t, s, c.Seat); !bytes.Equal(got, view) {
			t.Fatalf("seed %d: the sampled state's view differs:\n got %s\nwant %s", c.Seed, got, view)
		}
		if c.Sampled != nil {
			c.Sampled(s, o)
		}
		for ply := 0; !s.Over() && ply < maxPlies; ply++ {
			l := s.Legal()
			if err := s.Apply(l[pick(l, rng)]); err != nil {
				t.Fatalf("seed %d: playing on a sampled state: %v", c.Seed, err)
			}
		}
	}
}

// ViewBytes is seat's view of st as the referee sends it: AppendView
// when st has it, else the view marshalled.
func ViewBytes(t testing.TB, st engine.State, seat int) []byte {
	t.Helper()
	if va, ok := st.(engine.ViewAppender); ok {
		return va.AppendView(nil, seat)
	}
	b, err := json.Marshal(st.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// SamePlay plays got and want on together for up to plies actions (or
// until want is over), the same actions chosen with rng from want's
// legal list, and fails t unless every seat's view (ViewBytes) is the
// same in both before each action: for a sampler's shortcut checked
// against the state built the long way.
func SamePlay(t testing.TB, got, want engine.State, seats, plies int, rng *rand.Rand) {
	t.Helper()
	for k := 0; k < plies && !want.Over(); k++ {
		for q := range seats {
			if g, w := ViewBytes(t, got, q), ViewBytes(t, want, q); !bytes.Equal(g, w) {
				t.Fatalf("after %d actions seat %d's view differs:\n got %s\nwant %s", k, q, g, w)
			}
		}
		l := want.Legal()
		a := l[rng.IntN(len(l))]
		if err := got.Apply(a); err != nil {
			t.Fatalf("after %d actions: %v", k, err)
		}
		if err := want.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
}
