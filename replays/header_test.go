package replays

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// The header line a Recorder writes is encoding/json's bytes for the
// header (its type first), whatever its fields hold: a field added to
// Header and not to appendLine fails here.
func TestHeaderLineIsEncodingJSONs(t *testing.T) {
	full := Header{Format: FormatVersion, Arena: "0.1.0", Game: "uno", Options: map[string]string{"target": "0", "a<": "&"},
		Seed: 1<<64 - 1, Rules: 3, Match: "m", GameID: `g"1`,
		Seats:   []SeatInfo{{Seat: 0, Bot: "a"}, {Seat: 1, Bot: "ü", RoundTripUS: 120}},
		Clock:   protocol.Clock{StartupMs: 10000, MoveMs: 1000, MarginMs: 50},
		Started: time.Date(2026, 12, 5, 11, 55, 1, 123456000, time.UTC)}
	for i, h := range []Header{{}, full, {Seats: []SeatInfo{}, Options: map[string]string{}, Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))}} {
		want, err := json.Marshal(struct {
			Type string `json:"type"`
			Header
		}{TypeHeader, h})
		if err != nil {
			t.Fatal(err)
		}
		if got := h.appendLine(nil); string(got) != string(want) {
			t.Errorf("header %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
