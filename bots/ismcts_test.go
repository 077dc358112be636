package bots

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/bots/ismcts"
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
// fixed budget (ISMCTS_ITERS, default 500) against greedy (or the bot
// ISMCTS_OPPONENT names, e.g. random), the seats rotated, and logs its
// mean score (1 a win, ties shared, by rank).
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
	opponent := "greedy"
	if v := os.Getenv("ISMCTS_OPPONENT"); v != "" {
		opponent = v
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
			players = append(players, mustBot(t, opponent, Options{}))
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
		t.Logf("%s %d seats: ismcts(%d) scores %.3f over %d games against %s (fair share %.3f)", c.game, c.seats, iters, score/float64(games), games, opponent, 1/float64(c.seats))
	}
}

// ISMCTS_VS=N plays N in-process games per config of a fixed-budget
// strong ismcts (500 iterations, 1500 in Boon; ISMCTS_STRONG_ITERS,
// _PAIRED, _CANDS, _CONF, _GREEDY=0/1 and _INFER=DEALS change its search)
// against medium, greedy in the other seats,
// the seats rotated, and logs the pairs' results (W: strong ranked above
// medium, L: below, D: level) with the Elo difference and its 95%
// interval. ISMCTS_CONFIGS as for TestISMCTSStrengthInProcess (also
// "uno4d": four-seat Uno to 500 points, one hand searched at a time).
// ISMCTS_SEED (default 11) is the first deal's seed: the games deal
// seeds SEED to SEED + N/seats - 1, so runs on new deals want seeds that
// far apart.
func TestISMCTSStrongVsMediumInProcess(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ISMCTS_VS"))
	if games == 0 {
		t.Skip("set ISMCTS_VS=games to run")
	}
	for _, c := range []struct {
		name  string
		game  string
		seats int
		opts  map[string]string
	}{{"uno2", "uno", 2, map[string]string{"target": "0"}}, {"uno4", "uno", 4, map[string]string{"target": "0"}},
		{"uno4d", "uno", 4, nil}, {"boon3", "boon", 3, nil}, {"boon4", "boon", 4, nil}} {
		if only := os.Getenv("ISMCTS_CONFIGS"); only != "" && !slices.Contains(strings.Split(only, ","), c.name) {
			continue
		}
		strong, err := ismcts.Level("strong")
		if err != nil {
			t.Fatal(err)
		}
		// 500 iterations and 300 paired deals cost about what strong
		// searches at 100 ms a move (a third of it for the tree).
		strong.TimeFraction, strong.Iterations = 0, 500
		if c.game == "boon" {
			strong.Iterations = 1500
		}
		if v, err := strconv.Atoi(os.Getenv("ISMCTS_STRONG_ITERS")); err == nil {
			strong.Iterations = v
		}
		if v, err := strconv.ParseFloat(os.Getenv("ISMCTS_STRONG_CONF"), 64); err == nil {
			strong.Confidence = v
		}
		if v, err := strconv.Atoi(os.Getenv("ISMCTS_STRONG_PAIRED")); err == nil {
			strong.Paired = v
		}
		if v, err := strconv.Atoi(os.Getenv("ISMCTS_STRONG_CANDS")); err == nil {
			strong.PairedCands = v
		}
		if v, err := strconv.Atoi(os.Getenv("ISMCTS_STRONG_INFER")); err == nil {
			strong.Boon.Infer, strong.Boon.InferDeals = v > 0, v
		}
		if os.Getenv("ISMCTS_STRONG_GREEDY") != "" {
			strong.GreedyPlayouts = os.Getenv("ISMCTS_STRONG_GREEDY") == "1"
		}
		players := []sdk.Bot{ismcts.New(strong, greedyFallback), mustBot(t, "ismcts", Options{Level: "medium"})}
		for range c.seats - 2 {
			players = append(players, mustBot(t, "greedy", Options{}))
		}
		seed := uint64(11)
		if v, err := strconv.ParseUint(os.Getenv("ISMCTS_SEED"), 10, 64); err == nil {
			seed = v
		}
		var w, d, l int
		for _, r := range sdktest.Play(t, sdktest.Config{Game: c.game, Seats: c.seats, Options: c.opts, Games: games, Seed: seed}, players...) {
			switch rs, rm := r.Rank(0), r.Rank(1); {
			case rs < rm:
				w++
			case rs > rm:
				l++
			default:
				d++
			}
		}
		n := float64(w + d + l)
		s := (float64(w) + float64(d)/2) / n
		sd := math.Sqrt((float64(w)*(1-s)*(1-s)+float64(d)*(0.5-s)*(0.5-s)+float64(l)*s*s)/n) / math.Sqrt(n)
		elo := func(p float64) float64 { p = min(max(p, 1e-6), 1-1e-6); return -400 * math.Log10(1/p-1) }
		t.Logf("%s: strong(%+v) vs medium: W %d D %d L %d, %.3f, Elo %+.1f [%+.1f, %+.1f]", c.name, strong, w, d, l, s, elo(s), elo(s-1.96*sd), elo(s+1.96*sd))
	}
}
