//go:build !linux

package uno

import (
	"testing"
	"time"
)

// threadCPU: a thread's CPU time is read on Linux only; elsewhere the
// benchmarks that compare by it are skipped.
func threadCPU(b *testing.B) time.Duration {
	b.Skip("a thread's CPU time is read on Linux only")
	return 0
}
