package testkit

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// LastCPU is the highest-numbered CPU this process may run on, to pin a
// loaded bot to while the referee keeps the others; it skips the test on
// a machine with fewer than two.
func LastCPU(tb testing.TB) int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		tb.Fatal(err)
	}
	if set.Count() < 2 {
		tb.Skip("needs two CPUs: one for the loaded bot, one for the referee")
	}
	cpu := -1
	for i := range 1024 {
		if set.IsSet(i) {
			cpu = i
		}
	}
	return cpu
}

// Pinned runs start on a thread pinned to cpu, so that the processes it
// starts inherit that CPU, then gives the thread its CPUs back. (The
// thread must live on: a child dies with the thread that started it, by
// its parent-death signal.)
func Pinned(tb testing.TB, cpu int, start func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var all, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		tb.Fatal(err)
	}
	one.Set(cpu)
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		tb.Fatal(err)
	}
	defer func() {
		if err := unix.SchedSetaffinity(0, &all); err != nil {
			tb.Fatal(err)
		}
	}()
	start()
}
