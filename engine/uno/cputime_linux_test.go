package uno

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time of the calling thread (the goroutine must be
// locked to it).
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}
