package sdk

import (
	"io"
	"os"
	"syscall"

	"github.com/arena-dev/arena/internal/rawio"
)

// pollPipes gives Run, for an in or out that is one end of a pipe (as a
// bot's stdin and stdout are), a reader or writer that waits in the Go
// runtime's poller and reads and writes with raw system calls; restore
// puts the pipes back as they were. Anything else is served as it is.
//
// Why: a Go program blocked in read(2) on its stdin, as a bot is between
// its moves, is in a system call, and the runtime's monitor thread keeps
// watch on it (at GOMAXPROCS=1, as the bundled bots run, it takes the
// processor back after 20 us and is woken again when the read returns);
// a read or write of a non-blocking descriptor that went through the
// runtime's system call entry would wake that monitor too. Waiting in the
// poller, with every processor idle, leaves the monitor asleep, and a
// raw call on a descriptor that never blocks keeps it so: the bot's threads
// are given a CPU about once a move instead of twice or three times, and
// a move costs it about half the CPU time (arena/bench BenchmarkPerMove,
// docs/sdk-go.md).
//
// The monitor also preempts a goroutine that runs for over 10 ms; asleep,
// it wakes for the next timer, a collection or a system call. So at
// GOMAXPROCS=1 a timer due while the bot's goroutine computes fires some
// 10 ms late, as it may anyway (the bundled bots read the clock instead).
//
// The pipe is made non-blocking for as long as Run serves it: the flag
// belongs to the pipe, which a child process the bot started with the
// same stdin or stdout shares (a bot's stdio is the protocol's alone).
func pollPipes(in io.Reader, out io.Writer) (io.Reader, io.Writer, func()) {
	var opened []*pollPipe
	if p := openPollPipe(in); p != nil {
		in = p
		opened = append(opened, p)
	}
	if p := openPollPipe(out); p != nil {
		out = p
		opened = append(opened, p)
	}
	return in, out, func() {
		for _, p := range opened {
			p.close()
		}
	}
}

// pollPipe is one end of a pipe read or written through the poller.
type pollPipe struct {
	orig  *os.File // the file Run was given
	dup   *os.File // a duplicate of its descriptor, registered with the poller
	raw   syscall.RawConn
	fd    int // the duplicate's descriptor
	flags int // the pipe's file status flags before, to restore
	// The call in progress (the RawConn takes a func of the descriptor).
	buf       []byte
	n         int
	errno     syscall.Errno
	readOnce  func(fd uintptr) bool
	writeOnce func(fd uintptr) bool
}

// openPollPipe is a pollPipe on f's descriptor if f is an *os.File on a
// pipe, or nil (then f is served as it is).
func openPollPipe(f any) *pollPipe {
	file, ok := f.(*os.File)
	if !ok {
		return nil
	}
	conn, err := file.SyscallConn() // not Fd, which would make a pollable file blocking
	if err != nil {
		return nil
	}
	dupFd := -1
	_ = conn.Control(func(fd uintptr) {
		var st syscall.Stat_t
		if syscall.Fstat(int(fd), &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
			return
		}
		if d, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, 0); errno == 0 {
			dupFd = int(d)
		}
	})
	if dupFd < 0 {
		return nil
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(dupFd), syscall.F_GETFL, 0)
	if errno != 0 || syscall.SetNonblock(dupFd, true) != nil {
		syscall.Close(dupFd)
		return nil
	}
	// Non-blocking now, the duplicate is registered with the poller.
	p := &pollPipe{orig: file, dup: os.NewFile(uintptr(dupFd), file.Name()), fd: dupFd, flags: int(flags)}
	if p.raw, err = p.dup.SyscallConn(); err != nil {
		p.close()
		return nil
	}
	p.readOnce, p.writeOnce = p.readOnceFunc, p.writeOnceFunc
	return p
}

// close restores the pipe's flags and closes the duplicate.
func (p *pollPipe) close() {
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, uintptr(p.fd), syscall.F_SETFL, uintptr(p.flags))
	p.dup.Close()
}

func (p *pollPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.buf = b
	if err := p.raw.Read(p.readOnce); err != nil {
		return 0, err
	}
	switch {
	case p.errno != 0:
		return 0, &os.PathError{Op: "read", Path: p.dup.Name(), Err: p.errno}
	case p.n == 0:
		return 0, io.EOF
	}
	return p.n, nil
}

// readOnceFunc is one read that does not wait: false (wait until the
// pipe is readable) if there is nothing to read yet.
func (p *pollPipe) readOnceFunc(fd uintptr) bool {
	return p.result(rawio.Read(fd, p.buf))
}

func (p *pollPipe) Write(b []byte) (int, error) {
	written := 0
	for written < len(b) {
		p.buf = b[written:]
		if err := p.raw.Write(p.writeOnce); err != nil {
			return written, err
		}
		if p.errno == syscall.EPIPE {
			// The reader is gone: as the os package has it, stdout and
			// stderr end the program by SIGPIPE, other files fail.
			n, err := p.orig.Write(b[written:])
			return written + n, err
		}
		if p.errno != 0 {
			return written, &os.PathError{Op: "write", Path: p.dup.Name(), Err: p.errno}
		}
		written += p.n
	}
	return written, nil
}

// writeOnceFunc is one write that does not wait: false (wait until the
// pipe has room) if it has none.
func (p *pollPipe) writeOnceFunc(fd uintptr) bool {
	return p.result(rawio.Write(fd, p.buf))
}

// result keeps one raw read or write's outcome (internal/rawio: the
// descriptor never blocks, so the call needs none of the runtime's system
// call entry): false (wait) for EAGAIN.
func (p *pollPipe) result(n int, errno syscall.Errno) bool {
	if errno == syscall.EAGAIN {
		return false
	}
	p.n, p.errno = n, errno
	return true
}
