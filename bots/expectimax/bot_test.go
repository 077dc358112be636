package expectimax_test

import (
	"errors"
	"testing"

	"github.com/arena-dev/arena/bots/expectimax"
	"github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/sdk"
)

func TestConfigBounds(t *testing.T) {
	cases := []struct {
		name string
		cfg  expectimax.Config
		ok   bool
	}{
		{"zero", expectimax.Config{}, true},
		{"depth", expectimax.Config{Depth: 4}, true},
		{"nodes and time", expectimax.Config{Nodes: 1000, TimeFraction: 0.5}, true},
		{"largest fraction", expectimax.Config{TimeFraction: expectimax.MaxTimeFraction}, true},
		{"negative depth", expectimax.Config{Depth: -1}, false},
		{"negative nodes", expectimax.Config{Nodes: -5}, false},
		{"fraction above the bound", expectimax.Config{TimeFraction: 0.95}, false},
		{"negative fraction", expectimax.Config{TimeFraction: -0.1}, false},
	}
	for _, tc := range cases {
		_, err := expectimax.New(tc.cfg)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, expectimax.ErrConfig)) {
			t.Errorf("%s: New(%+v) = %v, want ok %v", tc.name, tc.cfg, err, tc.ok)
		}
	}
}

func TestLevels(t *testing.T) {
	for _, l := range expectimax.Levels {
		cfg, err := expectimax.LevelConfig(l.Name)
		if err != nil || cfg != l.Config {
			t.Errorf("LevelConfig(%q) = %+v, %v", l.Name, cfg, err)
		}
		if err := cfg.Check(); err != nil {
			t.Errorf("level %s: %v", l.Name, err)
		}
	}
	if cfg, _ := expectimax.LevelConfig(""); cfg != expectimax.Levels[len(expectimax.Levels)-1].Config {
		t.Errorf(`LevelConfig("") = %+v, want the strong level`, cfg)
	}
	if _, err := expectimax.LevelConfig("grandmaster"); !errors.Is(err, expectimax.ErrLevel) {
		t.Errorf("unknown level: %v", err)
	}
}

// The bot's repetition window agrees with the engine: after each of its
// turns, the count of the current position in its window is the view's
// repeats, in games that repeat positions (ranks=hk draws by repetition
// often, see TestBeatsGreedyUnderEveryPreset).
func TestRepetitionWindowFollowsTheView(t *testing.T) {
	repeated := 0
	for seed := range uint64(4) {
		for _, opts := range []map[string]string{nil, {"ranks": "hk"}} {
			b := newBot(t, expectimax.Config{Depth: 1})
			game(t, seed, opts, [2]sdk.Bot{b, greedy(t)}, 1000, func(seat int, v *banqi.View) {
				if seat != 0 || v.You.Colour == nil || v.Chain != nil {
					return
				}
				if got := b.Repeats(); got != v.Repeats {
					t.Fatalf("seed %d %v ply %d: window says %d repeats, view %d", seed, opts, v.Ply, got, v.Repeats)
				}
				if v.Repeats > 1 {
					repeated++
				}
			})
		}
	}
	if repeated == 0 {
		t.Fatal("no position repeated: the test checked nothing")
	}
	t.Logf("%d turns on a repeated position", repeated)
}

// With a fixed budget the bot is deterministic: the same seed gives the
// same game, action for action.
func TestFixedBudgetIsDeterministic(t *testing.T) {
	for _, cfg := range []expectimax.Config{{Depth: 2}, {Nodes: 3000}} {
		var runs [2][]string
		for run := range runs {
			b := newBot(t, cfg)
			// A clock the budget never reaches, so only the budget stops it.
			game(t, 3, nil, [2]sdk.Bot{greedy(t), b}, 600_000, func(seat int, v *banqi.View) {
				runs[run] = append(runs[run], v.Last)
			})
		}
		if len(runs[0]) != len(runs[1]) {
			t.Fatalf("%+v: games of %d and %d turns", cfg, len(runs[0]), len(runs[1]))
		}
		for i := range runs[0] {
			if runs[0][i] != runs[1][i] {
				t.Fatalf("%+v: turn %d differs: %q vs %q", cfg, i, runs[0][i], runs[1][i])
			}
		}
	}
}
