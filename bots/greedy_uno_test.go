package bots

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/uno"
)

func unoPlay(t testing.TB, game string, seats int, seed uint64, opts map[string]string, greedySeat int, rng *rand.Rand) engine.Outcome {
	return playVsRandom(t, game, seats, seed, opts, greedySeat, GreedyUno, rng)
}

// unoGreedyVsRandom plays duplicate deals: every deal once with greedy in
// each seat. It returns greedy's first-place rate and average rank.
func unoGreedyVsRandom(t *testing.T, game string, seats, deals int, opts map[string]string) (float64, float64) {
	wins, rankSum, games := 0.0, 0, 0
	for d := range deals {
		seed := uint64(5000 + d)
		for seat := range seats {
			o := unoPlay(t, game, seats, seed, opts, seat, rand.New(rand.NewPCG(seed, uint64(seat))))
			if o.Ranks[seat] == 1 {
				// a shared first place counts as a share of a win
				n := 0
				for _, r := range o.Ranks {
					if r == 1 {
						n++
					}
				}
				wins += 1 / float64(n)
			}
			rankSum += o.Ranks[seat]
			games++
		}
	}
	rate, avg := wins/float64(games), float64(rankSum)/float64(games)
	t.Logf("greedy vs 3 random (%s %d seats %v): %d games, first-place rate %.3f (chance %.3f), average rank %.2f",
		game, seats, opts, games, rate, 1/float64(seats), avg)
	return rate, avg
}

// Greedy must win clearly more than 1 in 4 four-seat single hands against
// uniform random choosers: 400 games (100 deals x 4 seats).
func TestGreedyUnoBeatsRandom(t *testing.T) {
	deals := 100
	if testing.Short() {
		deals = 25
	}
	rate, _ := unoGreedyVsRandom(t, "uno", 4, deals, map[string]string{"target": "0"})
	if rate <= 0.4 {
		t.Fatalf("greedy first-place rate %.3f, want > 0.4", rate)
	}
}

// The presets and house rules must not break the bot.
func TestGreedyUnoVariants(t *testing.T) {
	for _, tc := range []struct {
		game string
		opts map[string]string
	}{
		{"bounce", nil},
		{"uno", map[string]string{"target": "0", "stack_draws": "true", "seven_zero": "true", "jump_in": "true",
			"reverse_deflects_draw": "true", "uno_call": "catch_window"}},
		{"uno", map[string]string{"target": "0", "wd4_mode": "enforce", "play_to_last": "true", "scoring": "penalty_low_wins"}},
	} {
		rate, _ := unoGreedyVsRandom(t, tc.game, 4, 10, tc.opts)
		if rate <= 0.3 {
			t.Errorf("%s %v: first-place rate %.3f", tc.game, tc.opts, rate)
		}
	}
}

func TestGreedyUnoChoices(t *testing.T) {
	pick := func(view string, legal ...string) string {
		raws := make([]json.RawMessage, len(legal))
		for i, l := range legal {
			raws[i] = json.RawMessage(l)
		}
		k, err := GreedyUno(json.RawMessage(view), raws, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		return legal[k]
	}
	base := `"top":"R5","colour":"red","direction":1,"dealer":0,"hand_no":1,"to_move":0,"counts":[4,6,6,6],"scores":[0,0,0,0],"finished":[],"draw_pile":60,"discard":["R5"],"events":[],"hands":[],"actions":3,"over":false`
	// Sheds the action card, keeps the wild, makes the call.
	v := `{"you":0,"hand":["R2","RS","W","B1"],` + base + `,"decision":{"kind":"play"}}`
	if got := pick(v, `{"type":"play","card":"R2"}`, `{"type":"play","card":"RS"}`, `{"type":"play","card":"W","colour":"blue"}`, `{"type":"draw"}`); got != `{"type":"play","card":"RS"}` {
		t.Fatalf("chose %s", got)
	}
	v = `{"you":0,"hand":["R2","B1"],` + base + `,"decision":{"kind":"play"}}`
	if got := pick(v, `{"type":"play","card":"R2","uno":true}`, `{"type":"play","card":"R2"}`, `{"type":"draw"}`); got != `{"type":"play","card":"R2","uno":true}` {
		t.Fatalf("chose %s", got)
	}
	// A wild names the colour held most.
	v = `{"you":0,"hand":["W","G1","G2","B1"],` + base + `,"decision":{"kind":"play"}}`
	if got := pick(v, `{"type":"play","card":"W","colour":"red"}`, `{"type":"play","card":"W","colour":"yellow"}`, `{"type":"play","card":"W","colour":"green"}`, `{"type":"play","card":"W","colour":"blue"}`, `{"type":"draw"}`); got != `{"type":"play","card":"W","colour":"green"}` {
		t.Fatalf("chose %s", got)
	}
	// Catch first.
	v = `{"you":0,"hand":["R2","B1"],` + base + `,"decision":{"kind":"play","catch":3}}`
	if got := pick(v, `{"type":"catch"}`, `{"type":"play","card":"R2","uno":true}`, `{"type":"draw"}`); got != `{"type":"catch"}` {
		t.Fatalf("chose %s", got)
	}
}
