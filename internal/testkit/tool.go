package testkit

import (
	"os"
	"os/exec"
	"testing"
)

// Tool is the path of a program a test needs that Go does not provide
// (python3, node, tmux): found on PATH, or the test is skipped with a
// message naming it. Under CI (the CI variable set, as .ci/run does, which
// installs these programs) a missing one fails the test instead: CI never
// skips a test for want of a tool.
func Tool(tb testing.TB, name string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("%s is not installed, and CI is set: .ci/run installs it (%v)", name, err)
	}
	tb.Skipf("%s is not installed: skipped (CI installs it and never skips)", name)
	return ""
}
