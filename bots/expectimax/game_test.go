package expectimax_test

import (
	"encoding/json"
	"testing"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/bots/expectimax"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// presets are the option sets the bot must play legal moves under.
var presets = expectimax.Presets

// game plays one Banqi game in process between two sdk.Bots, each given
// what the referee would send it: the hello (with the resolved options),
// the seat's view and the legal list as JSON, and a clock of moveMs.
// onTurn, if set, is called after each of seat's turns with the view.
func game(t testing.TB, seed uint64, opts map[string]string, players [2]sdk.Bot, moveMs int64, onTurn func(seat int, v *banqi.View)) engine.Outcome {
	t.Helper()
	r, err := banqi.RulesFromOptions(engine.Options(opts))
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := engine.Resolve("banqi", banqi.Options, engine.Options(opts))
	if err != nil {
		t.Fatal(err)
	}
	s := banqi.NewState(seed, r)
	for seat, p := range players {
		if err := p.Start(&protocol.Hello{Type: "hello", Protocol: 1, Game: "banqi", Options: resolved, Seat: seat, Seats: 2, Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	ids := [2]int64{}
	for !s.Over() {
		seat := s.ToMove()
		legal := s.Legal()
		turn := &protocol.Turn{Type: "turn", Clock: protocol.TurnClock{MoveMs: moveMs}}
		ids[seat]++
		turn.ID = ids[seat]
		view := s.ViewOf(seat)
		turn.View = view.AppendJSON(nil)
		for _, a := range legal {
			raw, err := engine.AppendJSON(nil, a)
			if err != nil {
				t.Fatal(err)
			}
			turn.Legal = append(turn.Legal, json.RawMessage(raw))
		}
		k, err := players[seat].Act(turn)
		if err != nil {
			t.Fatalf("seed %d ply %d seat %d: %v", seed, s.Ply(), seat, err)
		}
		if k < 0 || k >= len(legal) {
			t.Fatalf("seed %d ply %d: index %d of %d", seed, s.Ply(), k, len(legal))
		}
		if onTurn != nil {
			onTurn(seat, &view)
		}
		if err := s.Apply(legal[k]); err != nil {
			t.Fatal(err)
		}
	}
	return s.Outcome()
}

func newBot(t testing.TB, cfg expectimax.Config) *expectimax.Bot {
	t.Helper()
	b, err := expectimax.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func greedy(t testing.TB) sdk.Bot {
	t.Helper()
	g, err := bots.New("greedy")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// score plays pairs of games (each seed with both seat orders) of a
// against b and returns a's score and the games' end reasons.
func score(t testing.TB, pairs int, opts map[string]string, a, b func() sdk.Bot, moveMs int64) (float64, map[string]int) {
	t.Helper()
	total := 0.0
	reasons := map[string]int{}
	for i := range pairs {
		seed := uint64(7000 + i)
		for seat := range 2 {
			players := [2]sdk.Bot{b(), b()}
			players[seat] = a()
			o := game(t, seed, opts, players, moveMs, nil)
			total += o.Scores[seat]
			reasons[o.Reason]++
		}
	}
	return total / float64(2*pairs), reasons
}

// Under every preset the bot plays whole games against greedy to the
// end, every index legal and no error (game checks both), at the weak
// level and, in the first and last preset, a fixed depth 2.
func TestPlaysEveryPreset(t *testing.T) {
	for i, opts := range presets {
		cfgs := []expectimax.Config{{Depth: 1}}
		if i == 0 || i == len(presets)-1 {
			cfgs = append(cfgs, expectimax.Config{Depth: 2})
		}
		for _, cfg := range cfgs {
			sc, reasons := score(t, 1, opts, func() sdk.Bot { return newBot(t, cfg) }, func() sdk.Bot { return greedy(t) }, 60_000)
			t.Logf("%v %+v: score %.3f %v", opts, cfg, sc, reasons)
		}
	}
}
