package uno_test

import (
	"encoding/json"
	"testing"

	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/uno"
)

// Real turns of Uno and Bounce decode into View and Action, and the
// helpers read what the JSON says.
func TestRealTurns(t *testing.T) {
	for _, g := range []struct {
		game  string
		seats int
		opts  map[string]string
	}{{"uno", 2, nil}, {"uno", 4, map[string]string{"seven_zero": "true", "stack_draws": "true"}}, {"bounce", 3, nil}} {
		plays := 0
		for _, line := range testkit.Turns(t, g.game, g.seats, g.opts, 0, 1500) {
			var turn protocol.Turn
			if err := json.Unmarshal(line, &turn); err != nil {
				t.Fatal(err)
			}
			v, legal, err := sdk.Decode[uno.View, uno.Action](&turn)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			hand := v.HandCards()
			if len(hand) != len(v.Hand) || v.Me() != v.ToMove || v.Counts[v.Me()] != len(hand) {
				t.Fatalf("%s: hand %v, me %d", line, hand, v.Me())
			}
			if v.TopCard().String() != v.Top || len(v.DiscardCards()) != len(v.Discard) {
				t.Fatalf("top %s, view %s", v.TopCard(), v.Top)
			}
			if c := v.ActiveColour(); (v.Colour == nil) != (c < 0) || c >= 0 && uno.ColourNames[c] != *v.Colour {
				t.Fatalf("active colour %d, view %v", c, v.Colour)
			}
			if n := v.Next(); n < 0 || n >= g.seats || n == v.Me() && g.seats > 1 && v.Counts[n] > 0 && len(v.Finished) == 0 {
				t.Fatalf("next %d", n)
			}
			for i, a := range legal {
				b, _ := json.Marshal(a)
				if string(b) != string(turn.Legal[i]) {
					t.Fatalf("legal[%d] %s encodes back as %s", i, turn.Legal[i], b)
				}
				if a.Type == uno.ActPlay && v.Decision != nil && v.Decision.Kind == "play" {
					plays++
					if !v.Matches(a.Card) {
						t.Fatalf("%s: legal play %s does not match top %s colour %d", line, uno.Describe(a), v.Top, v.ActiveColour())
					}
				}
			}
		}
		if plays < 100 {
			t.Fatalf("%s: %d plays", g.game, plays)
		}
	}
}
