package ledger_test

import (
	"encoding/json"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/protocol"
)

// TestFailuresPinned pins how results.jsonl writes forfeits and strikes:
// seat, bot, reason and detail (empty or not), never the ply nor what
// is for progress output only; and that a line reads back as written.
func TestFailuresPinned(t *testing.T) {
	crash := ledger.FailureOf(protocol.Failure{Ply: 7, Seat: 0, Reason: protocol.ReasonCrash, Detail: "exited with status 1"}, "alice")
	crash.StderrLast, crash.Log, crash.Advice = "boom", "logs/alice.log", "serve it"
	strike := ledger.FailureOf(protocol.Failure{Ply: 3, Seat: 1, Reason: protocol.ReasonTimeout}, "bob")
	rec := ledger.Record{Index: 2, GameID: "m-g0002", Seed: 9, Bots: []string{"alice", "bob"}, Ranks: []int{2, 1}, Scores: []float64{0, 1},
		Reason: "alice forfeited", Plies: 7, Forfeits: []ledger.SeatFailure{crash}, Strikes: []ledger.SeatFailure{strike}}
	got, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"index":2,"game_id":"m-g0002","seed":9,"bots":["alice","bob"],"ranks":[2,1],"scores":[0,1],"reason":"alice forfeited","plies":7,` +
		`"forfeits":[{"seat":0,"bot":"alice","reason":"crash","detail":"exited with status 1"}],` +
		`"strikes":[{"seat":1,"bot":"bob","reason":"timeout","detail":""}]}`
	if string(got) != want {
		t.Errorf("record:\n%s\nwant:\n%s", got, want)
	}
	var back ledger.Record
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	f, s := back.Forfeits[0], back.Strikes[0]
	if f.Seat != 0 || f.Bot != "alice" || f.Reason != protocol.ReasonCrash || f.Detail != "exited with status 1" || f.StderrLast != "" ||
		s.Seat != 1 || s.Bot != "bob" || s.Reason != protocol.ReasonTimeout || s.Detail != "" {
		t.Errorf("read back: %+v, %+v", f, s)
	}
}
