package replays_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// BenchmarkRecorder records a 200-move game with Banqi-like actions and
// writes it; it reports the compressed size per move.
func BenchmarkRecorder(b *testing.B) {
	const plies = 200
	rng := rand.New(rand.NewPCG(1, 2))
	sq := func() string { return fmt.Sprintf("%c%d", 'a'+rng.IntN(4), 1+rng.IntN(8)) }
	actions := make([]json.RawMessage, plies)
	thinks := make([]time.Duration, plies)
	for i := range actions {
		if rng.IntN(3) == 0 {
			actions[i] = json.RawMessage(fmt.Sprintf(`{"kind":"flip","at":"%s"}`, sq()))
		} else {
			actions[i] = json.RawMessage(fmt.Sprintf(`{"kind":"move","from":"%s","to":"%s"}`, sq(), sq()))
		}
		thinks[i] = time.Duration(rng.IntN(100_000)) * time.Microsecond
	}
	h := replays.Header{
		Arena: "v1.0.0", Game: "banqi", Options: map[string]string{"variant": "standard"},
		Seed: 123456789, Match: "m-bench", GameID: "g-1",
		Seats:   []replays.SeatInfo{{Seat: 0, Bot: "alice"}, {Seat: 1, Bot: "bob"}},
		Clock:   protocol.Clock{StartupMs: 2000, MoveMs: 100, MarginMs: 20},
		Started: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
	}
	path := filepath.Join(b.TempDir(), "g"+replays.Ext)
	b.ReportAllocs()
	for b.Loop() {
		rec := replays.NewRecorder(h)
		for i := range plies {
			rec.Move(i, i%2, actions[i], thinks[i], 0, false)
		}
		rec.Finish(replays.Result{Ranks: []int{1, 2}, Scores: []float64{16, 9}, Reason: "black has no legal move"})
		if err := rec.WriteFile(path); err != nil {
			b.Fatal(err)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/plies, "bytes/move")
}
