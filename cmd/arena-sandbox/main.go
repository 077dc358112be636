// Command arena-sandbox is the sandbox wrapper on its own: the program an
// arena beside it starts each bot process through, which confines itself
// and then execs the bot (package sandbox). It is the arena's own wrapper
// code in a program a ninth the size, linked without the C library (the
// sandbox package needs no cgo; TestWrapperIsStatic keeps it so), so a bot
// process starts sooner: it matters most with --restart-bots, where every
// game starts fresh processes. Build it with the arena, from the same tree:
//
//	go build -o bin/ ./cmd/arena ./cmd/arena-sandbox
//
// An arena uses it only if it was built from the same sandbox code
// (sandbox.Fingerprint), and otherwise starts bots through itself, as it
// does when there is no arena-sandbox beside it. It is not run by hand.
package main

import (
	"fmt"
	"os"

	"github.com/arena-dev/arena/arena/sandbox"
)

func main() {
	sandbox.RunWrapperIfAsked()
	fmt.Fprintln(os.Stderr, "arena-sandbox: the arena starts bot processes through this program; it is not run by hand (docs/security.md)")
	os.Exit(2)
}
