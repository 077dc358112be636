//go:build unix

package rawio

import (
	"syscall"
	"testing"
)

// Over a non-blocking pipe: an empty pipe reads EAGAIN, a write comes back
// whole, and the closed write end reads as the end (0, no error).
func TestPipe(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	r, w := uintptr(fds[0]), uintptr(fds[1])
	buf := make([]byte, 16)
	if n, errno := Read(r, buf); errno != syscall.EAGAIN {
		t.Fatalf("empty pipe: read %d, %v; want EAGAIN", n, errno)
	}
	if n, errno := Write(w, []byte("move\n")); n != 5 || errno != 0 {
		t.Fatalf("write: %d, %v", n, errno)
	}
	if n, errno := Read(r, buf); errno != 0 || string(buf[:n]) != "move\n" {
		t.Fatalf("read: %q, %v", buf[:n], errno)
	}
	syscall.Close(fds[1])
	if n, errno := Read(r, buf); n != 0 || errno != 0 {
		t.Fatalf("after the writer closed: %d, %v; want 0 and no error", n, errno)
	}
}
