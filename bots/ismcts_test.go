package bots

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/sdktest"
)

func mustBot(t testing.TB, name string, o Options) sdk.Bot {
	t.Helper()
	b, err := NewWith(name, o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ISMCTS plays whole games of every game it searches, at every seat
// count, and its moves are legal (sdktest.Play checks).
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
				r := sdktest.Play(t, sdktest.Config{Game: c.game, Seats: n, Options: c.opts, Games: 1, Seed: 3}, players...)
				t.Logf("%v", r[0].Outcome.Ranks)
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
		players := []sdk.Bot{mustBot(t, "ismcts", Options{Iterations: iters})}
		for range c.seats - 1 {
			players = append(players, mustBot(t, "greedy", Options{}))
		}
		// Every rotation replays one deal with the seats rotated.
		score := 0.0
		for _, r := range sdktest.Play(t, sdktest.Config{Game: c.game, Seats: c.seats, Options: c.opts, Games: games}, players...) {
			best, ties := slices.Min(r.Outcome.Ranks), 0
			for _, rank := range r.Outcome.Ranks {
				if rank == best {
					ties++
				}
			}
			if r.Rank(0) == best {
				score += 1 / float64(ties)
			}
		}
		t.Logf("%s %d seats: ismcts(%d) scores %.3f over %d games (fair share %.3f)", c.game, c.seats, iters, score/float64(games), games, 1/float64(c.seats))
	}
}
