//go:build !unix

package ismcts

import (
	"testing"
	"time"
)

// cpuTime: the process's CPU time is read with getrusage, on Unix only;
// elsewhere the benchmarks that compare by it are skipped.
func cpuTime(tb testing.TB) time.Duration {
	tb.Skip("CPU time is read with getrusage, on Unix only")
	return 0
}
