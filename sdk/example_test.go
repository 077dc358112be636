package sdk_test

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// A bot that always takes the first legal action. Run reads the referee's
// lines (here a scripted game) and writes the bot's answers.
func ExampleRun() {
	first := sdk.Func(func(t *protocol.Turn) (int, error) { return 0, nil })
	referee := strings.NewReader(`{"type":"hello","protocol":1,"game":"banqi","seat":0,"seats":2,"seed":7}
{"type":"turn","id":1,"view":{},"legal":[{"type":"flip","square":"a8"},{"type":"flip","square":"b8"}],"clock":{"move_ms":1000}}
{"type":"end","game_id":"g1","ranks":[1,2],"scores":[1,0],"reason":"all 16 black pieces captured","view":{}}
{"type":"bye"}
`)
	if err := sdk.Run(referee, os.Stdout, first, sdk.Options{Name: "first"}); err != nil {
		panic(err)
	}
	// Output:
	// {"type":"ready","name":"first"}
	// {"type":"action","id":1,"index":0}
}

// A Player: Move gets the view and the legal actions decoded into the
// types it names (here a struct of its own and json.RawMessage, which is
// not decoded), and the context: the hello, a seeded Rand, the options,
// the deadline. Here it plays a scripted game of two turns.
func ExampleNewPlayer() {
	type view struct {
		Ply int `json:"ply"`
	}
	bot := sdk.NewPlayer(func(v *view, legal []json.RawMessage, c *sdk.Context) (int, error) {
		c.Logf("ply %d, %d actions, %v left", v.Ply, len(legal), c.TimeLeft() > 0)
		return len(legal) - 1, nil
	})
	bot.OnEnd = func(e *protocol.End, c *sdk.Context) { c.Logf("over: %s", e.Reason) }
	referee := strings.NewReader(`{"type":"hello","protocol":1,"game":"banqi","seat":0,"seats":2,"seed":7}
{"type":"turn","id":1,"view":{"ply":0},"legal":[{"type":"flip","square":"a8"},{"type":"flip","square":"b8"}],"clock":{"move_ms":1000}}
{"type":"turn","id":2,"view":{"ply":2},"legal":[{"type":"flip","square":"a8"}],"clock":{"move_ms":1000}}
{"type":"end","game_id":"g1","ranks":[1,2],"scores":[1,0],"reason":"all 16 black pieces captured","view":{}}
{"type":"bye"}
`)
	if err := sdk.Run(referee, os.Stdout, bot, sdk.Options{Name: "last", Log: os.Stdout}); err != nil {
		panic(err)
	}
	// Output:
	// {"type":"ready","name":"last"}
	// ply 0, 2 actions, true left
	// {"type":"action","id":1,"index":1}
	// ply 2, 1 actions, true left
	// {"type":"action","id":2,"index":0}
	// over: all 16 black pieces captured
}
