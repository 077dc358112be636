package boon_test

import (
	"encoding/json"
	"testing"

	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/boon"
)

// Real turns of Boon decode into View and Action, and the helpers read
// what the JSON says.
func TestRealTurns(t *testing.T) {
	for _, seats := range []int{3, 4, 5} {
		plays := 0
		for _, line := range testkit.Turns(t, "boon", seats, nil, 0, 1500) {
			var turn protocol.Turn
			if err := json.Unmarshal(line, &turn); err != nil {
				t.Fatal(err)
			}
			v, legal, err := sdk.Decode[boon.View, boon.Action](&turn)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if len(v.HandCards()) != len(v.Hand) || v.HandSet().Len() != len(v.Hand) || len(v.TrickCards()) != len(v.Trick.Cards) {
				t.Fatalf("%s: hand %v, trick %v", line, v.HandCards(), v.TrickCards())
			}
			win := v.Winning()
			if v.Leading() != (win == boon.NoCard) {
				t.Fatalf("leading %v, winning %v", v.Leading(), win)
			}
			for i, a := range legal {
				b, _ := json.Marshal(a)
				if string(b) != string(turn.Legal[i]) {
					t.Fatalf("legal[%d] %s encodes back as %s", i, turn.Legal[i], b)
				}
				if a.Kind != boon.KindPlay {
					continue
				}
				plays++
				if !v.HandSet().Has(a.Card) || v.Played().Has(a.Card) {
					t.Fatalf("%s: plays %s, not in the hand or played before", line, a.Card)
				}
				// Every card that beats the winning card wins the trick so far.
				if win != boon.NoCard && boon.Beats(a.Card, win) {
					for _, c := range v.TrickCards() {
						if boon.Beats(c, a.Card) {
							t.Fatalf("%s beats %s, which beats %s", a.Card, win, c)
						}
					}
				}
			}
		}
		if plays < 200 {
			t.Fatalf("%d seats: %d plays", seats, plays)
		}
	}
}
