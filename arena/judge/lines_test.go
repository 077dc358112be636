package judge_test

import (
	"encoding/json"
	"testing"

	"github.com/arena-dev/arena/arena/judge"
	"github.com/arena-dev/arena/protocol"
)

// The hello and end lines the referee appends are protocol.Line's bytes
// (encoding/json's), whatever the fields hold.
func TestLinesMatchProtocolLine(t *testing.T) {
	hellos := []protocol.Hello{
		{},
		{Type: protocol.TypeHello, Protocol: protocol.Version, Game: "banqi", Options: map[string]string{"max_plies": "2", "a": "<&>", "z": "ü\u2028"},
			Seat: 1, Seats: 2, Players: []string{"a", `q"uote`}, Match: "m-1", GameID: "g0001", Seed: 1<<64 - 1,
			Clock: protocol.Clock{StartupMs: 10000, MoveMs: 100, MarginMs: 50}},
		{Type: protocol.TypeHello, Options: map[string]string{}, Players: []string{},
			Clock: protocol.Clock{StartupMs: 1, BaseMs: 60000, IncMs: 500}},
	}
	for i, h := range hellos {
		if got, want := judge.AppendHello([]byte("x"), h), "x"+string(protocol.Line(h)); string(got) != want {
			t.Errorf("hello %d:\n got %s\nwant %s", i, got, want)
		}
	}
	views := []json.RawMessage{nil, json.RawMessage(`{"board":["R7","b3"],"n":1}`), json.RawMessage(`{"s":"<b>&"}`),
		json.RawMessage(`{ "spaced" : [1, 2] }`), json.RawMessage(`"\u2028 line"`), json.RawMessage(`{"name":"ü"}`)}
	ends := []protocol.End{{}}
	for _, v := range views {
		ends = append(ends, protocol.End{Type: protocol.TypeEnd, GameID: "g7", Ranks: []int{1, 2}, Scores: []float64{1, 0.5, 1e-7, 2e21},
			Reason: `won by "capture"`, View: v}, protocol.End{Type: protocol.TypeEnd, Ranks: []int{}, Scores: []float64{},
			Forfeit: []string{"seat 0: timeout"}, View: v})
	}
	for i, e := range ends {
		if got, want := judge.AppendEnd(nil, e), string(protocol.Line(e)); string(got) != want {
			t.Errorf("end %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
