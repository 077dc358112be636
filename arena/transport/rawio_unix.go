//go:build unix

package transport

import (
	"errors"
	"os"
	"syscall"
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
	p.written, p.writeErr = syscall.Write(int(fd), p.pending)
}

// Read is one read of the bot's stdout for the line reader. With
// readFirst, first a read that does not wait, so a reply that is in the
// pipe is taken however late a loaded machine runs the referee (with the
// deadline already past, the poller would fail without trying). Then, or
// else, through the poller, which waits until the read deadline.
func (r *stdoutReader) Read(b []byte) (int, error) {
	if !r.readFirst {
		return r.f.Read(b)
	}
	r.into = b
	if err := r.raw.Control(r.readOnce); err == nil {
		n, err := rawResult(r.n, r.err)
		switch {
		case err == nil && n > 0:
			return n, nil
		case errors.Is(err, errWouldBlock) && r.past:
			return 0, os.ErrDeadlineExceeded // a deadline already past never waits
		}
	}
	// End of file, an error, or a deadline not yet past: as the os package
	// reports and waits.
	return r.f.Read(b)
}

func (r *stdoutReader) readOnceFunc(fd uintptr) {
	r.n, r.err = syscall.Read(int(fd), r.into)
}

// rawResult maps a raw read or write's result: EAGAIN is errWouldBlock.
func rawResult(n int, err error) (int, error) {
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR) {
		return 0, errWouldBlock
	}
	return max(n, 0), err
}
