package bots

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/banqi"
)

func banqiPlay(t testing.TB, seed uint64, opts map[string]string, greedySeat int, rng *rand.Rand) engine.Outcome {
	return playVsRandom(t, "banqi", 2, seed, opts, greedySeat, GreedyBanqi, rng)
}

type banqiWDL struct{ w, d, l int }

func (r banqiWDL) score() float64 { return (float64(r.w) + 0.5*float64(r.d)) / float64(r.w+r.d+r.l) }

func banqiGreedyVsRandom(t *testing.T, pairs int, opts map[string]string) banqiWDL {
	var r banqiWDL
	reasons := map[string]int{}
	for i := range pairs {
		seed := uint64(1000 + i)
		for seat := range 2 {
			o := banqiPlay(t, seed, opts, seat, rand.New(rand.NewPCG(seed, uint64(seat))))
			switch {
			case o.Ranks[0] == o.Ranks[1]:
				r.d++
			case o.Ranks[seat] == 1:
				r.w++
			default:
				r.l++
			}
			reasons[o.Reason]++
		}
	}
	t.Logf("greedy vs random %v: W/D/L %d/%d/%d, score %.3f", opts, r.w, r.d, r.l, r.score())
	for why, n := range reasons {
		if n >= pairs/50 {
			t.Logf("  %4d %s", n, why)
		}
	}
	return r
}

// Greedy must clearly beat a uniform random chooser: 400 games, both seat
// orders on every seed.
func TestGreedyBanqiBeatsRandom(t *testing.T) {
	pairs := 200
	if testing.Short() {
		pairs = 50
	}
	r := banqiGreedyVsRandom(t, pairs, nil)
	if r.score() <= 0.9 {
		t.Fatalf("greedy score %.3f, want > 0.9", r.score())
	}
}

// The variants must not break the bot (legal indices, parsing).
func TestGreedyBanqiVariants(t *testing.T) {
	for _, opts := range []map[string]string{
		{"ranks": "hk"},
		{"chain_capture": "true", "capture_facedown": "true", "repetition": "chase_loss"},
	} {
		r := banqiGreedyVsRandom(t, 20, opts)
		if r.score() <= 0.6 {
			t.Errorf("greedy score %.3f under %v", r.score(), opts)
		}
	}
}

func TestGreedyBanqiTakesSafely(t *testing.T) {
	// Red's Rook on b4 can take the black Knight on b5 (safe) or the
	// black Pawn on c4 (recaptured by the Guard on d4): it takes the
	// Knight.
	view := banqi.View{
		You:      &banqi.You{Seat: 0, Colour: banqiStrPtr("red")},
		Board:    [8]string{"----", "----", "----", "-n--", "-Rpg", "----", "----", "----"},
		Colours:  [2]*string{banqiStrPtr("red"), banqiStrPtr("black")},
		FaceDown: banqi.ByColour{},
		Ranks:    "taiwan",
	}
	vb, _ := json.Marshal(view)
	legal := []json.RawMessage{
		json.RawMessage(`{"type":"move","from":"b4","to":"a4"}`),
		json.RawMessage(`{"type":"capture","from":"b4","to":"c4"}`),
		json.RawMessage(`{"type":"capture","from":"b4","to":"b5"}`),
	}
	for i := range 20 {
		k, err := GreedyBanqi(vb, legal, rand.New(rand.NewPCG(uint64(i), 0)))
		if err != nil {
			t.Fatal(err)
		}
		if k != 2 {
			t.Fatalf("chose %s", legal[k])
		}
	}
	// A threatened piece runs: the black Guard on c4 attacks the red
	// Knight on b4; moving the Pawn on d8 would leave the Knight hanging.
	view.Board = [8]string{"---P", "----", "----", "----", "-Ng-", "----", "----", "---p"}
	vb, _ = json.Marshal(view)
	legal = []json.RawMessage{
		json.RawMessage(`{"type":"move","from":"d8","to":"c8"}`),
		json.RawMessage(`{"type":"move","from":"d8","to":"d7"}`),
		json.RawMessage(`{"type":"move","from":"b4","to":"a4"}`),
		json.RawMessage(`{"type":"move","from":"b4","to":"b5"}`),
		json.RawMessage(`{"type":"move","from":"b4","to":"b3"}`),
	}
	for i := range 20 {
		k, err := GreedyBanqi(vb, legal, rand.New(rand.NewPCG(uint64(i), 0)))
		if err != nil {
			t.Fatal(err)
		}
		if k < 2 {
			t.Fatalf("left the Knight en prise: %s", legal[k])
		}
	}
}

func banqiStrPtr(s string) *string { return &s }
