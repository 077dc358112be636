package testkit

import (
	"os"
	"os/exec"
	"testing"
)

// CopyExecutable copies the program src to dst (mode 0755) for a test to
// run from there. The copy is written by a cp(1) of its own, not by this
// process: while a file is open for writing here, any child a parallel
// test forks meanwhile holds that descriptor until its exec, and running
// the copy then fails with ETXTBSY ("text file busy"; golang/go#22315),
// now and then, as busy as the package's other tests are.
func CopyExecutable(tb testing.TB, src, dst string) {
	tb.Helper()
	if out, err := exec.Command("cp", src, dst).CombinedOutput(); err != nil {
		tb.Fatalf("copying %s to %s: %v: %s", src, dst, err, out)
	}
	if err := os.Chmod(dst, 0o755); err != nil { // opens nothing
		tb.Fatal(err)
	}
}
