package uno

import (
	"testing"

	"github.com/arena-dev/arena/engine"
)

// The presets: "uno" defaults to official, "bounce" to the Bounce rules;
// either name takes either preset, and explicit options win.
func TestPresets(t *testing.T) {
	cases := []struct {
		game  Game
		given map[string]string
		want  map[string]string
	}{
		{Uno, nil, map[string]string{"rules": "official", "start_card": "official", "voluntary_draw": "true",
			"wd4_mode": "challenge", "uno_call": "autocatch", "call": "uno", "target": "500", "max_actions": "100000"}},
		{Bounce, nil, map[string]string{"rules": "bounce", "start_card": "number_only", "voluntary_draw": "false",
			"wd4_mode": "enforce", "uno_call": "catch_window", "call": "bounce", "target": "0"}},
		{Bounce, map[string]string{"rules": "official"}, map[string]string{"start_card": "official", "call": "uno", "target": "500"}},
		{Uno, map[string]string{"rules": "bounce", "target": "500"}, map[string]string{"start_card": "number_only", "call": "bounce", "target": "500"}},
	}
	for _, tc := range cases {
		o, err := engine.Setup(tc.game, 4, tc.given)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.want {
			if o[k] != v {
				t.Errorf("%s %v: %s=%q, want %q", tc.game.name, tc.given, k, o[k], v)
			}
		}
		if got := rulesOf(o).Options(); len(got) != len(o) {
			t.Errorf("Options() has %d keys, want %d", len(got), len(o))
		} else {
			for k, v := range o {
				if got[k] != v {
					t.Errorf("%s: Rules.Options()[%s]=%q, resolved %q", tc.game.name, k, got[k], v)
				}
			}
		}
	}
	for name, maxSeats := range map[string]int{"uno": 10, "bounce": 8} {
		g, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if i := g.Info(); i.MinSeats != 2 || i.MaxSeats != maxSeats || len(i.Options) != 15 {
			t.Errorf("%s info %+v", name, i)
		}
		for _, o := range g.Info().Options {
			if o.Doc == "" {
				t.Errorf("%s option %s undocumented", name, o.Name)
			}
		}
	}
	if _, err := engine.Setup(Uno, 11, nil); err == nil {
		t.Error("11 seats accepted")
	}
	if _, err := engine.Setup(Uno, 4, map[string]string{"wd4_mode": "sometimes"}); err == nil {
		t.Error("bad wd4_mode accepted")
	}
}
