//go:build unix

package transport

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"

	"github.com/arena-dev/arena/internal/rawio"
)

// writeNow makes one write of p.pending to the bot's stdin without waiting
// (the pipe is non-blocking): a pipe with room takes it at once. It
// reports how much went out; errWouldBlock if nothing could. It runs in
// RawConn.Control, which keeps the descriptor valid against a concurrent
// Close but, unlike RawConn.Write, does not fail for a deadline that has
// passed.
func (p *Process) writeNow() (int, error) {
	if err := p.stdinRaw.Control(p.writeOnce); err != nil {
		return 0, err
	}
	return rawResult(p.written, p.writeErr)
}

func (p *Process) writeOnceFunc(fd uintptr) {
	n, errno := rawio.Write(fd, p.pending)
	p.written, p.writeErr = n, errnoErr(errno)
}

// Read is one read of the bot's stdout for the line reader. With
// readFirst, first a read that does not wait, so a reply that is in the
// pipe is taken however late a loaded machine runs the referee (with the
// deadline already past, the poller would fail without trying). Then, or
// else, through the poller, which waits until the read deadline.
func (r *stdoutReader) Read(b []byte) (int, error) {
	r.into = b
	if r.readFirst {
		if err := r.raw.Control(r.readOnce); err == nil {
			n, err := rawResult(r.n, r.err)
			switch {
			case err == nil && n > 0:
				return n, nil
			case errors.Is(err, errWouldBlock) && r.past:
				return 0, os.ErrDeadlineExceeded // a deadline already past never waits
			}
		}
	}
	if err := r.raw.Read(r.readWait); err == nil {
		switch n, err := rawResult(r.n, r.err); {
		case err == nil && n > 0:
			return n, nil
		case err == nil:
			return 0, io.EOF
		}
	} else if errors.Is(err, os.ErrDeadlineExceeded) {
		return 0, err
	}
	// An error, or the file closed: as the os package reports it.
	return r.f.Read(b)
}

func (r *stdoutReader) readOnceFunc(fd uintptr) {
	n, errno := rawio.Read(fd, r.into)
	r.n, r.err = n, errnoErr(errno)
}

// readWaitFunc is readOnceFunc for RawConn.Read: false (wait until
// readable) while the pipe is empty.
func (r *stdoutReader) readWaitFunc(fd uintptr) bool {
	r.readOnceFunc(fd)
	return !errors.Is(r.err, syscall.EAGAIN)
}

// errnoErr is errno as an error: nil for none.
func errnoErr(errno syscall.Errno) error {
	if errno == 0 {
		return nil
	}
	return errno
}

// rawResult maps a raw read or write's result: EAGAIN is errWouldBlock.
func rawResult(n int, err error) (int, error) {
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR) {
		return 0, errWouldBlock
	}
	return max(n, 0), err
}

// drainBuffers lend the stderr drains a buffer for the length of one read.
var drainBuffers = sync.Pool{New: func() any { b := make([]byte, drainBufferSize); return &b }}

// drainFile reads r until its end, handing each read to write. It holds a
// buffer only while there is something to read: it waits for the pipe to
// be readable without one (RawConn.Read), since every live bot process
// has a drain, most with a silent stderr (a 256-game run keeps over a
// thousand, 4 MiB of idle buffers when each held its own).
func drainFile(r *os.File, write func([]byte)) {
	raw, err := r.SyscallConn()
	if err != nil {
		drainBuffered(r, write)
		return
	}
	done := false
	for !done {
		err := raw.Read(func(fd uintptr) bool {
			bp := drainBuffers.Get().(*[]byte)
			defer drainBuffers.Put(bp)
			for {
				n, err := syscall.Read(int(fd), *bp)
				switch {
				case errors.Is(err, syscall.EINTR):
					continue
				case errors.Is(err, syscall.EAGAIN):
					return false // wait until readable
				case n > 0:
					write((*bp)[:n])
				default: // end of file, or an error
					done = true
				}
				return true
			}
		})
		if err != nil {
			return
		}
	}
}

// drainPending moves what is in the bot's stderr pipe now into the
// current log, without waiting for more.
func (p *Process) drainPending() {
	_ = p.stderrRaw.Control(func(fd uintptr) {
		bp := drainBuffers.Get().(*[]byte)
		defer drainBuffers.Put(bp)
		for {
			n, err := syscall.Read(int(fd), *bp)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			if n <= 0 {
				return // empty (EAGAIN), the end, or an error: the drain sees those
			}
			p.stderr.write((*bp)[:n])
		}
	})
}
