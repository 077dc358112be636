package bots

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

func TestDebugBoon4(t *testing.T) {
	if os.Getenv("DEBUG_BOON") == "" {
		t.Skip()
	}
	stats := map[string]float64{}
	for g := range 48 {
		seats := 4
		me := g % seats
		players := make([]sdk.Bot, seats)
		for i := range players {
			players[i] = mustBot(t, "greedy", Options{})
		}
		if os.Getenv("DEBUG_BOON") == "ismcts" { players[me] = mustBot(t, "ismcts", Options{Iterations: 1000}) }
		gm, o := testkit.Setup(t, "boon", seats, nil)
		st, _ := gm.New(seats, uint64(g), o)
		s := st.(*boon.State)
		for i, p := range players {
			p.Start(&protocol.Hello{Game: "boon", Options: o, Seat: i, Seats: seats, Seed: uint64(g)})
		}
		round := 1
		for !s.Over() {
			seat := s.ToMove()
			legal := s.Legal()
			view, _ := engine.AppendJSON(nil, s.View(seat))
			raws := make([]json.RawMessage, len(legal))
			for i, a := range legal {
				raws[i], _ = engine.AppendJSON(nil, a)
			}
			k, _ := players[seat].Act(&protocol.Turn{View: view, Legal: raws})
			s.Apply(legal[k])
			if s.Round() != round || s.Over() {
				round = s.Round()
				v := s.ViewOf(-1)
				lr := v.LastRound
				role := "least"
				if lr.Mode == "picker" {
					role = "defender"
					if lr.Picker == me {
						role = "picker"
					}
				}
				stats[role+" n"]++
				stats[role+" delta"] += float64(lr.VCChange[me])
				if lr.Mode == "picker" {
					stats["greedy-picker pts"] += 0
				}
			}
		}
		t.Logf("game %d me %d ranks %v", g, me, s.Outcome().Ranks)
	}
	t.Logf("%v", stats)
}
