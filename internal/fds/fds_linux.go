package fds

import (
	"math"
	"strconv"

	"golang.org/x/sys/unix"
)

// closeOnExec marks them with one close_range(2) (Linux 5.11 has the
// flag), else each that /proc/self/fd lists, else every number below the
// descriptor limit.
func closeOnExec(from int) error {
	if unix.CloseRange(uint(from), math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return nil
	}
	if err := markListed(from); err == nil {
		return nil
	}
	return markBelowLimit(from)
}

// markListed marks each descriptor /proc/self/fd lists, read with system
// calls only (the os package would take syscall.ForkLock).
func markListed(from int) error {
	dir, err := unix.Open("/proc/self/fd", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	var buf [4096]byte
	for {
		n, err := unix.Getdents(dir, buf[:])
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		_, _, names := unix.ParseDirent(buf[:n], -1, nil)
		for _, name := range names {
			fd, err := strconv.Atoi(name)
			if err != nil || fd < from || fd == dir {
				continue
			}
			if err := mark(fd); err != nil {
				return err
			}
		}
	}
}
