package testkit

import (
	"os"
	"testing"
)

// The default suite (`go test ./...`, the README's command and .ci/run's)
// must pass on a busy 2-core machine in a few minutes. Two kinds of test
// do not fit that, and run only when asked:
const (
	// EnvThorough=1 runs the long forms of the property tests (thousands
	// of random games per rule set instead of a few hundred) and the
	// walkthroughs with the game counts the documents give. Without it
	// each test still covers every rule set, seat count and command, at
	// fewer games. .ci/run runs the engines' thorough forms after the
	// default suite.
	EnvThorough = "ARENA_THOROUGH"
	// EnvRealClocks=1 runs the tests that assert a bot keeps a tight
	// real-time clock (25-100 ms a move with no margin): on a machine
	// that other work keeps busy no such clock is fair, so they measure
	// the machine as much as the bot.
	EnvRealClocks = "ARENA_REAL_CLOCKS"
)

// Quick reports whether a test should take its quick form: unless
// ARENA_THOROUGH=1, and always under -short.
func Quick() bool {
	return testing.Short() || os.Getenv(EnvThorough) != "1"
}

// Pick is quick in the quick form (Quick), thorough otherwise: the
// number of games a property test plays, say.
func Pick[T any](quick, thorough T) T {
	if Quick() {
		return quick
	}
	return thorough
}

// RealClocks skips the test unless ARENA_REAL_CLOCKS=1 (EnvRealClocks).
func RealClocks(tb testing.TB) {
	tb.Helper()
	if os.Getenv(EnvRealClocks) != "1" {
		tb.Skipf("asserts tight real-time clocks, which a busy machine breaks: set %s=1 to run it", EnvRealClocks)
	}
}
