//go:build unix

package fds

import (
	"errors"

	"golang.org/x/sys/unix"
)

// maxDescriptors bounds markBelowLimit where the descriptor limit is
// unlimited or larger: it is Linux's default bound on any process's
// descriptors (fs.nr_open), and above the BSDs' and macOS's.
const maxDescriptors = 1 << 20

// markBelowLimit marks every descriptor number from from up to the
// process's descriptor limit, open or not: where the open ones cannot be
// listed.
func markBelowLimit(from int) error {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	limit := uint64(maxDescriptors)
	if cur := uint64(lim.Cur); cur < limit {
		limit = cur
	}
	for fd := from; uint64(fd) < limit; fd++ {
		if err := mark(fd); err != nil {
			return err
		}
	}
	return nil
}

// mark sets close-on-exec on fd (its only flag); one not open (closed
// meanwhile, or never) is no matter.
func mark(fd int) error {
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && !errors.Is(err, unix.EBADF) {
		return err
	}
	return nil
}
