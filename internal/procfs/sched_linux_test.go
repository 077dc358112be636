package procfs

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// ReadSched's readings enclose a spin of this process: the CPU time they
// count between them is at least what getrusage counted for the process
// within (the test binary's threads do not exit, so none is missed).
func TestReadSchedCountsThisProcess(t *testing.T) {
	before, err := ReadSched(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	start := selfCPU(t)
	for selfCPU(t)-start < 20*time.Millisecond {
	}
	spent := selfCPU(t) - start
	after, err := ReadSched(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	d := after.Sub(before)
	// getrusage rounds to microseconds.
	if d.Run < spent-time.Millisecond || d.Slices < 1 || d.Wait < 0 {
		t.Errorf("ReadSched: %+v over a spin of %v CPU", d, spent)
	}
	if _, err := ReadSched(-1); err == nil {
		t.Error("ReadSched(-1): no error")
	}
}

// selfCPU is this process's CPU time, by getrusage.
func selfCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
