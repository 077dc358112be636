//go:build unix

package ismcts

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's CPU time so far (user and system): unlike
// the wall clock, other jobs on the machine do not stretch it.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
