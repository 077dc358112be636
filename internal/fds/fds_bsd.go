//go:build unix && !linux

package fds

// closeOnExec marks every descriptor number below the descriptor limit:
// there is no close_range with a close-on-exec flag here, and /dev/fd
// lists only 0 to 2 where fdescfs is not mounted.
func closeOnExec(from int) error { return markBelowLimit(from) }
