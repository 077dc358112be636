package replays_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// TestFailureLinesPinned pins how a replay writes failures: the strike
// and forfeit lines (a protocol.Failure with its ply; no detail when
// empty) and the result's forfeit list (no ply). Readers in other
// languages parse these bytes.
func TestFailureLinesPinned(t *testing.T) {
	rec := replays.NewRecorder(replays.Header{Game: "testnim", Match: "m", GameID: "g1"})
	rec.Move(0, 0, json.RawMessage(`{"take":1}`), 0, 0, false)
	rec.Strike(protocol.Failure{Ply: 1, Seat: 1, Reason: protocol.ReasonIllegalAction, Detail: "not a legal action"})
	rec.Move(1, 1, json.RawMessage(`{"take":1}`), 0, 0, true)
	rec.Forfeit(protocol.Failure{Ply: 2, Seat: 0, Reason: protocol.ReasonCrash})
	rec.Forfeit(protocol.Failure{Ply: 2, Seat: 1, Reason: protocol.ReasonTimeout, Detail: "no reply within 100ms"})
	rec.Finish(replays.Result{Ranks: []int{2, 2}, Scores: []float64{0, 0}, Reason: "both forfeited"})
	lines := strings.Split(strings.TrimSuffix(string(decompressed(t, rec)), "\n"), "\n")
	want := []string{
		`{"type":"strike","ply":1,"seat":1,"reason":"illegal_action","detail":"not a legal action"}`,
		`{"type":"forfeit","ply":2,"seat":0,"reason":"crash"}`,
		`{"type":"forfeit","ply":2,"seat":1,"reason":"timeout","detail":"no reply within 100ms"}`,
		`{"type":"result","ranks":[2,2],"scores":[0,0],"reason":"both forfeited","plies":2,` +
			`"forfeits":[{"seat":0,"reason":"crash"},{"seat":1,"reason":"timeout","detail":"no reply within 100ms"}]}`,
	}
	var got []string
	for _, l := range lines {
		if !strings.Contains(l, `"type":"move"`) && !strings.Contains(l, `"type":"header"`) {
			got = append(got, l)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failure lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A replay read back has the forfeit list as written (no ply).
	var res replays.Result
	if err := json.Unmarshal([]byte(want[len(want)-1]), &res); err != nil {
		t.Fatal(err)
	}
	if f := res.Forfeits; len(f) != 2 || f[0].Seat != 0 || f[0].Reason != protocol.ReasonCrash || f[0].Detail != "" ||
		f[1].Seat != 1 || f[1].Reason != protocol.ReasonTimeout || f[1].Detail != "no reply within 100ms" {
		t.Errorf("forfeits read back: %+v", f)
	}
}
