package bot_test

import (
	"errors"
	"fmt"

	"github.com/arena-dev/arena/arena/bot"
	_ "github.com/arena-dev/arena/arena/bot/membot" // registers "mem:"
)

// A bot flag is parsed by the one parser every command and tournament
// file uses; the scheme its prefix names ("mem:") parses the rest. The
// Spec has no Launcher until the run binds it.
func ExampleParseFlag() {
	spec, err := bot.ParseFlag("alice=mem:random")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(spec.Name, spec.Target.Scheme(), spec.Launcher == nil)
	// Output: alice mem true
}

// Bind gives each spec its launcher when a run opens. A scheme that
// needs nothing of the run (mem:) binds itself; one that needs a
// sandbox or a NATS connection is bound by what the run passes in
// Bindings, and without it is an *UnboundError.
func ExampleBind() {
	specs, err := bot.ParseFlags("bot", []string{"a=mem:random", "b=mem:first"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := bot.Bind(specs, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(specs[0].Launcher != nil, specs[1].Launcher != nil)
	// Output: true true
}

// A mistake in a bot flag is a value: the flag, what was given and why,
// said as the arena's usage errors say it.
func ExampleParseFlags() {
	_, err := bot.ParseFlags("bot", []string{"a=mem:random", "a=mem:first"})
	var dup *bot.DuplicateNameError
	fmt.Println(errors.As(err, &dup), err)
	// Output: true --bot "a=mem:first": name "a" is used twice
}
