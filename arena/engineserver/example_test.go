package engineserver_test

import (
	"os"
	"strings"

	"github.com/arena-dev/arena/arena/engineserver"
	_ "github.com/arena-dev/arena/engine/all"
)

// A client creates a Uno state, applies its first legal action by index,
// asks whether the game is over, and makes a mistake: each line gets its
// response line, and the server goes on.
func ExampleServer_Serve() {
	requests := strings.Join([]string{
		`{"id":1,"op":"create","game":"uno","seats":2,"seed":7,"options":{"target":"0"}}`,
		`[{"id":2,"op":"apply","state":1,"index":0},{"id":3,"op":"outcome","state":1}]`,
		`{"id":4,"op":"view","state":99,"seat":0}`,
	}, "\n")
	s := engineserver.New(engineserver.Config{})
	s.Serve(strings.NewReader(requests), os.Stdout)
	// Output:
	// {"id":1,"state":1,"to_move":1,"over":false}
	// [{"id":2,"to_move":0,"over":false},{"id":3,"over":false}]
	// {"id":4,"error":{"code":"no_handle","message":"no state 99: it was never created, or was freed"}}
}
