//go:build unix

// Package rawio makes one read or write on a descriptor that never blocks
// (a non-blocking pipe end) with a raw system call. Such a call needs none
// of the Go runtime's system call entry, which wakes the runtime's monitor
// thread: on every move of a bot, that wake-up cost the referee 4% of its
// CPU in a match, and a Go bot one more thread woken per move. The caller
// waits for readiness in the runtime's poller (syscall.RawConn).
package rawio

import (
	"syscall"
	"unsafe"
)

// Read is one read(2) of fd into b, retried on EINTR; EAGAIN when the
// pipe is empty, n 0 and no error at its end.
func Read(fd uintptr, b []byte) (int, syscall.Errno) { return call(syscall.SYS_READ, fd, b) }

// Write is one write(2) of b to fd, retried on EINTR; EAGAIN when the pipe
// is full.
func Write(fd uintptr, b []byte) (int, syscall.Errno) { return call(syscall.SYS_WRITE, fd, b) }

func call(trap, fd uintptr, b []byte) (int, syscall.Errno) {
	for {
		n, _, errno := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
		if errno != syscall.EINTR {
			if errno != 0 {
				return 0, errno
			}
			return int(n), 0
		}
	}
}
