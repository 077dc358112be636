package sdk_test

import (
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
