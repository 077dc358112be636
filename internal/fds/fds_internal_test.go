//go:build linux

package fds

import (
	"testing"

	"golang.org/x/sys/unix"
)

// Each way of marking (close_range, the /proc listing, the descriptor
// limit) leaves every descriptor from 3 up close-on-exec, and those below
// as they were: descriptors made without the flag, as a process inherits
// them (dup gives none), come out with it.
func TestEveryWayMarksEveryDescriptor(t *testing.T) {
	for _, tc := range []struct {
		name string
		mark func(from int) error
	}{
		{"CloseOnExec", CloseOnExec},
		{"the /proc listing", markListed},
		{"the descriptor limit", markBelowLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var inherited []int
			for range 3 {
				fd, err := unix.Dup(2) // no close-on-exec, as inherited
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { unix.Close(fd) })
				inherited = append(inherited, fd)
			}
			stderrFlags := flags(t, 2)
			if flags(t, inherited[0])&unix.FD_CLOEXEC != 0 {
				t.Fatal("dup made a close-on-exec descriptor: nothing to test")
			}
			if err := tc.mark(3); err != nil {
				t.Fatal(err)
			}
			for _, fd := range inherited {
				if flags(t, fd)&unix.FD_CLOEXEC == 0 {
					t.Errorf("descriptor %d is not close-on-exec", fd)
				}
			}
			if got := flags(t, 2); got != stderrFlags {
				t.Errorf("stderr's flags changed: %#x, were %#x", got, stderrFlags)
			}
		})
	}
}

func flags(t *testing.T, fd int) int {
	t.Helper()
	f, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
