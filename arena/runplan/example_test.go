package runplan_test

import (
	"fmt"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
)

// A command fills a plan from its flags and opens it once: its bots are
// then confined (and, were one remote, reached), ready for match.Run.
func Example() {
	b, err := bot.ParseFlag("a=sh")
	if err != nil {
		panic(err)
	}
	r, err := runplan.Plan{Bots: []bot.Spec{b}, Limits: sandbox.DefaultLimits, Trace: "a"}.Open()
	if err != nil {
		panic(err)
	}
	defer r.Close()
	fmt.Println(r.Bots[0].Name, r.Bots[0].Launcher != nil, r.SecretNote(""))
	// Output: a true a fresh deal secret, kept in memory only
}
