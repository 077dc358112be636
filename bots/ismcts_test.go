package bots

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// playGame plays one game in process between bots (one per seat), each
// sent what the referee would send it: hello with the resolved options,
// then at each of its decisions the JSON of its view and legal actions.
func playGame(t testing.TB, game string, seed uint64, opts map[string]string, players []sdk.Bot) engine.Outcome {
	t.Helper()
	seats := len(players)
	g, o := testkit.Setup(t, game, seats, opts)
	s, err := g.New(seats, seed, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range players {
		if err := p.Start(&protocol.Hello{Type: "hello", Protocol: protocol.Version, Game: game, Options: o, Seat: i, Seats: seats, Seed: seed + uint64(i)*7919}); err != nil {
			t.Fatal(err)
		}
	}
	for id := int64(1); !s.Over(); id++ {
		seat := s.ToMove()
		legal := s.Legal()
		view, err := engine.AppendJSON(nil, s.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		raws := make([]json.RawMessage, len(legal))
		for i, a := range legal {
			if raws[i], err = engine.AppendJSON(nil, a); err != nil {
				t.Fatal(err)
			}
		}
		k, err := players[seat].Act(&protocol.Turn{Type: "turn", ID: id, View: view, Legal: raws})
		if err != nil {
			t.Fatal(err)
		}
		if k < 0 || k >= len(legal) {
			t.Fatalf("index %d of %d", k, len(legal))
		}
		if err := s.Apply(legal[k]); err != nil {
			t.Fatal(err)
		}
	}
	return s.Outcome()
}

func mustBot(t testing.TB, name string, o Options) sdk.Bot {
	t.Helper()
	b, err := NewWith(name, o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ISMCTS plays whole games of every game it searches, at every seat
// count, and its moves are legal (playGame checks).
func TestISMCTSPlaysEveryGame(t *testing.T) {
	cases := []struct {
		game  string
		seats []int
		opts  map[string]string
	}{
		{"uno", []int{2, 3, 4, 10}, map[string]string{"target": "0"}},
		{"bounce", []int{2, 5, 8}, nil},
		{"uno", []int{3}, map[string]string{"target": "0", "stack_draws": "true", "seven_zero": "true", "jump_in": "true",
			"uno_call": "catch_window", "reverse_deflects_draw": "true", "play_to_last": "true"}},
		{"boon", []int{3, 4, 5}, nil},
		{"boon", []int{4}, map[string]string{"must_trump": "true", "tiers": "sheepshead"}},
		{"banqi", []int{2}, map[string]string{"max_plies": "40"}},
	}
	for _, c := range cases {
		for _, n := range c.seats {
			t.Run(fmt.Sprintf("%s/%d/%v", c.game, n, c.opts), func(t *testing.T) {
				players := []sdk.Bot{mustBot(t, "ismcts", Options{Iterations: 30})}
				for range n - 1 {
					players = append(players, mustBot(t, "greedy", Options{}))
				}
				o := playGame(t, c.game, 3, c.opts, players)
				t.Logf("%v", o.Ranks)
			})
		}
	}
}

// ISMCTS_STRENGTH=N plays N in-process games per config of ismcts at a
// fixed budget (ISMCTS_ITERS, default 500) against greedy, the seats
// rotated, and logs its mean score (1 a win, ties shared, by rank).
// ISMCTS_CONFIGS (e.g. "uno4,boon3") picks some of the configs.
func TestISMCTSStrengthInProcess(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ISMCTS_STRENGTH"))
	if games == 0 {
		t.Skip("set ISMCTS_STRENGTH=games to run")
	}
	iters := 500
	if v, err := strconv.Atoi(os.Getenv("ISMCTS_ITERS")); err == nil {
		iters = v
	}
	for _, c := range []struct {
		game  string
		seats int
		opts  map[string]string
	}{{"uno", 2, map[string]string{"target": "0"}}, {"uno", 4, map[string]string{"target": "0"}}, {"boon", 3, nil}, {"boon", 4, nil}} {
		if only := os.Getenv("ISMCTS_CONFIGS"); only != "" && !slices.Contains(strings.Split(only, ","), fmt.Sprintf("%s%d", c.game, c.seats)) {
			continue
		}
		score := 0.0
		for g := range games {
			players := make([]sdk.Bot, c.seats)
			me := g % c.seats
			for i := range players {
				players[i] = mustBot(t, "greedy", Options{})
			}
			players[me] = mustBot(t, "ismcts", Options{Iterations: iters})
			o := playGame(t, c.game, uint64(g/c.seats), c.opts, players)
			best, ties := 1<<30, 0
			for _, r := range o.Ranks {
				best = min(best, r)
			}
			for _, r := range o.Ranks {
				if r == best {
					ties++
				}
			}
			if o.Ranks[me] == best {
				score += 1 / float64(ties)
			}
		}
		t.Logf("%s %d seats: ismcts(%d) scores %.3f over %d games (fair share %.3f)", c.game, c.seats, iters, score/float64(games), games, 1/float64(c.seats))
	}
}
