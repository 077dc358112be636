package stdio_test

import (
	"errors"
	"fmt"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
)

// A command with no registered "scheme:" prefix is a program run here
// over stdio. It is checked before any game: a program that is not there
// is refused at once, as a value, rather than forfeiting every game.
func Example() {
	spec, err := bot.Parse("alice", "sh -c 'exec cat'", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(spec.Target.Scheme(), spec.Target.(stdio.Command).Argv[0])

	_, err = bot.Parse("bob", "no-such-bot-program --fast", "")
	var missing *stdio.ProgramNotFoundError
	fmt.Println(errors.As(err, &missing), missing.Prog)
	// Output:
	// stdio sh
	// true no-such-bot-program
}
