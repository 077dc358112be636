package sandbox

import (
	"errors"
	"os"
	"sync/atomic"
)

// RunWrapperIfAsked makes this process the sandbox wrapper when it was
// started as one, `BINARY __sandbox ...`: it then confines itself and
// execs the bot (or, isolated, runs it and exits with its status), and
// never returns (where there is no sandbox, it exits with status 127).
// Otherwise it returns at once.
//
// The sandbox starts every bot process, and its probes, through this same
// executable (os.Executable), so the program that makes a Sandbox must
// call RunWrapperIfAsked first thing in main, before it parses flags or
// does any work; a test binary whose tests start sandboxed bots calls it
// first thing in TestMain. New refuses to make a Sandbox in a process that
// has not called it: the bots would otherwise run a second copy of the
// program instead of the wrapper.
func RunWrapperIfAsked() {
	wrapperReady.Store(true)
	if len(os.Args) > 1 && os.Args[1] == Command {
		os.Exit(Main(os.Args[2:]))
	}
}

// wrapperReady: this process called RunWrapperIfAsked, so the copies of its
// executable that the sandbox starts act as the wrapper.
var wrapperReady atomic.Bool

// errNoWrapper is New's refusal in a program that never called
// RunWrapperIfAsked.
var errNoWrapper = errors.New("sandbox: this program does not act as the sandbox wrapper when re-executed: " +
	"call sandbox.RunWrapperIfAsked() first thing in its main (in TestMain for a test binary)")
