package replaytest_test

import (
	"bytes"
	"testing"

	_ "github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/internal/replaytest"
	"github.com/arena-dev/arena/protocol"
)

// TestPlay: the recording is a replay the arena's checks accept, with
// the forfeits and strikes asked for, and the same Game records the same
// bytes.
func TestPlay(t *testing.T) {
	tests := []struct {
		name        string
		g           replaytest.Game
		forfeits    []int // seats, in order
		strikes     int
		forfeitOver bool // the game ended on forfeits, not by its rules
	}{
		{"plain", replaytest.Game{Name: "banqi", Seats: 2, Seed: 1}, nil, 0, false},
		{"strikes", replaytest.Game{Name: "banqi", Seats: 2, Seed: 2, StrikeAt: map[int]bool{1: true, 5: true}}, nil, 2, false},
		{"forfeit", replaytest.Game{Name: "banqi", Seats: 2, Seed: 3, ForfeitAt: map[int][]int{4: {1}}}, []int{1}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, res := replaytest.Play(t, tt.g)
			r, data := replaytest.ReadBack(t, rec)
			var forfeits []int
			strikes := 0
			for _, ev := range r.Events {
				switch {
				case ev.Forfeit != nil:
					forfeits = append(forfeits, ev.Forfeit.Seat)
					if ev.Forfeit.Reason != protocol.ReasonTimeout {
						t.Errorf("forfeit for %s", ev.Forfeit.Reason)
					}
				case ev.Strike != nil:
					strikes++
				}
			}
			if len(forfeits) != len(tt.forfeits) || strikes != tt.strikes || (len(forfeits) > 0 && forfeits[0] != tt.forfeits[0]) {
				t.Fatalf("forfeits %v, strikes %d; want %v, %d", forfeits, strikes, tt.forfeits, tt.strikes)
			}
			if tt.forfeitOver && res.Plies != 4 {
				t.Fatalf("a 2-seat game with a forfeit before ply 4 ended after %d plies", res.Plies)
			}
			again, _ := replaytest.Play(t, tt.g)
			if b, err := again.Compressed(); err != nil || !bytes.Equal(b, data) {
				t.Fatalf("the same game recorded other bytes (%v)", err)
			}
		})
	}
}
