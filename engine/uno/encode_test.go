package uno

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/internal/testkit"
)

// The encoding's contract (enginetest.CheckEncoding) over every rule set
// and seat count: ids of the legal actions distinct and mapping back,
// the mask the legal set, the observation a function of the view alone
// (decoded from its JSON, and unchanged when everything the seat cannot
// see is re-dealt).
func TestEncoding(t *testing.T) {
	t.Parallel()
	games := testkit.Pick(1, 6)
	seeds := rand.New(rand.NewPCG(39, 1))
	for _, cf := range configs {
		for _, n := range seatCounts {
			n = seatsFor(cf.game, n)
			for range games {
				opts := map[string]string{"target": "0"}
				for k, v := range cf.opts {
					opts[k] = v
				}
				checked := enginetest.CheckEncoding(t, cf.game, enginetest.EncodingCheck{
					Seats: n, Seed: seeds.Uint64(), Opts: opts, MaxPlies: 150,
					ParseView: enginetest.ParseJSON[View],
					Twin: func(st engine.State, seat int, rng *rand.Rand) engine.State {
						return redeal(st.(*State), seat, rng)
					},
				})
				if checked == 0 {
					t.Fatalf("%s, %d seats: nothing checked", cf.name, n)
				}
			}
		}
	}
}

// The action space's size is what docs/games/uno.md says for each rule
// set: 54 cards' plays (wilds once per colour, 60), doubled by the call
// flag when there is a call, a seven_zero 7 once per target seat too,
// jump-ins like the coloured plays, and 10 actions without a card.
func TestEncodingSizes(t *testing.T) {
	cases := []struct {
		name       string
		game       Game
		seats      int
		opts       map[string]string
		obs, space int
	}{
		{"official 4", Uno, 4, nil, 242, 130},
		{"bounce 2", Bounce, 2, nil, 236, 130},
		{"no call", Uno, 4, map[string]string{"uno_call": "off"}, 242, 70},
		{"seven_zero 3", Uno, 3, map[string]string{"seven_zero": "true"}, 239, 130 + 4*3*2},
		{"jump_in 4", Uno, 4, map[string]string{"jump_in": "true"}, 242, 130 + 52*2},
	}
	for _, c := range cases {
		opts, err := engine.Setup(c.game, c.seats, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := c.game.Encoding(c.seats, opts)
		if err != nil {
			t.Fatal(err)
		}
		if enc.ObsSize() != c.obs || enc.NumActions() != c.space {
			t.Errorf("%s: obs %d, actions %d; want %d, %d", c.name, enc.ObsSize(), enc.NumActions(), c.obs, c.space)
		}
	}
	if _, err := Uno.Encoding(11, nil); err == nil {
		t.Error("11 seats encoded")
	}
}

// What an encoding cannot encode is refused with engine.ErrNotEncodable:
// the spectator's view, a view of another seat count, another game's.
func TestEncodeRefuses(t *testing.T) {
	enc := NewEncoding(4, DefaultRules())
	four, three := NewState(4, 1, DefaultRules()), NewState(3, 1, DefaultRules())
	dst := make([]float32, enc.ObsSize())
	for name, v := range map[string]any{
		"spectator": four.View(engine.Spectator), "3 seats": three.View(0), "not a view": "R7", "nil": (*View)(nil),
	} {
		if err := enc.Encode(v, dst); !errors.Is(err, engine.ErrNotEncodable) {
			t.Errorf("%s: %v, want engine.ErrNotEncodable", name, err)
		}
	}
	if err := enc.Encode(four.View(0), dst[:10]); !errors.Is(err, engine.ErrNotEncodable) {
		t.Errorf("short dst: %v", err)
	}
}

// ParseCard reads the notation rather than search it: it must accept
// exactly the names String gives, every string of up to three of their
// letters tried.
func TestParseCardIsString(t *testing.T) {
	names := map[string]Card{}
	for k := range Card(NumKinds) {
		names[k.String()] = k
	}
	const letters = "RYGBWDS0123456789x"
	var try func(s string)
	try = func(s string) {
		c, err := ParseCard(s)
		if want, ok := names[s]; ok != (err == nil) || ok && c != want {
			t.Fatalf("ParseCard(%q) = %v, %v; want %v, %t", s, c, err, want, ok)
		}
		if len(s) < 3 {
			for i := range len(letters) {
				try(s + letters[i:i+1])
			}
		}
	}
	try("")
}
