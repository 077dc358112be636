package transport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arena-dev/arena/internal/fds"
	"github.com/arena-dev/arena/protocol"
)

// DefaultStderrCap is how many bytes of a bot's stderr are kept per log
// when ProcessConfig.StderrCap is not set.
const DefaultStderrCap = 1 << 20

// ProcessConfig describes a bot process.
type ProcessConfig struct {
	// Argv is the command and its arguments (no shell involved).
	Argv []string
	// Dir is the working directory ("" = the arena's).
	Dir string
	// Env is the full environment; nil inherits the arena's.
	Env []string
	// MaxLine limits one line from the bot (protocol.DefaultMaxLine if 0).
	MaxLine int
	// StderrCap limits the bytes of stderr kept per log (DefaultStderrCap
	// if 0).
	StderrCap int64
	// LeaveDescendants keeps the bot's descendants alive when the bot
	// exits by itself, so `arena check` can find and report them; Close
	// still kills them. The referee never sets it.
	LeaveDescendants bool
	// Confine, if set, confines the process (arena/sandbox implements it):
	// Argv and Env are then its wrapper's.
	Confine Confinement
}

// Confinement is what a sandbox adds around one process.
type Confinement interface {
	// Configure sets up how the process starts: its namespaces
	// (cmd.SysProcAttr) and the files it inherits (cmd.ExtraFiles).
	Configure(cmd *exec.Cmd)
	// Started is told the pid once the process runs.
	Started(pid int)
	// Kill kills every process of the bot, even those that left its
	// process group.
	Kill()
	// Release frees what the confinement holds; the process has been reaped.
	Release()
	// Explain names the limit that ended the process, or "".
	Explain() string
	// Status is how the confined program itself ended, once the process
	// has exited, when the process is a wrapper that outlived it (ok
	// false: the process's own status is the program's).
	Status() (ws syscall.WaitStatus, ok bool)
}

// Process is a bot running as a child process speaking over stdin/stdout.
// It runs in its own process group, so Close kills everything it started.
type Process struct {
	confine Confinement
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	// Send's state (one goroutine sends at a time): the line with its
	// newline, and the raw write of writeNow with its result.
	stdinRaw  syscall.RawConn
	pending   []byte
	writeOnce func(fd uintptr)
	sentAt    time.Time // when the last Send's line went out at once (SentAt)
	written   int
	writeErr  error
	lines     *protocol.LineReader
	reader    *stdoutReader // what lines reads
	stderr    *stderrSink
	stderrRaw syscall.RawConn // for what is in the pipe when the log changes

	closeOnce sync.Once
	eofWaited atomic.Bool   // Receive has waited eofWait for the exit once
	exited    chan struct{} // closed when the process has been waited for
	marker    string        // environment marker of its descendants (unconfined)
	// The last reading of the bot's CPU use (Usage) and when it was taken;
	// lastAt is zero before the first.
	lastUsage Usage
	lastAt    time.Time
	drained   chan struct{} // closed when stderr reached EOF
	waitErr   error
}

// Start launches the bot.
func Start(cfg ProcessConfig) (*Process, error) {
	if len(cfg.Argv) == 0 {
		return nil, errors.New("empty bot command")
	}
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = protocol.DefaultMaxLine
	}
	if cfg.StderrCap <= 0 {
		cfg.StderrCap = DefaultStderrCap
	}
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Dir = cfg.Dir
	cmd.Env = cfg.Env
	marker := ""
	if cfg.Confine == nil {
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		marker = newMarker()
		cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], marker)
	}
	attr, err := processAttr()
	if err == nil {
		if err = markInherited(); err != nil {
			err = fmt.Errorf("closing inherited descriptors: %w", err)
		}
	}
	if err != nil {
		if cfg.Confine != nil {
			cfg.Confine.Release()
		}
		return nil, err
	}
	cmd.SysProcAttr = attr
	if cfg.Confine != nil {
		cfg.Confine.Configure(cmd)
	}

	// stdin: a poller-backed pipe, so writes honour deadlines and a bot that
	// stops reading cannot block the referee.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	// stdout: read directly by Receive through the runtime poller with a
	// read deadline, so a reply costs no goroutine hand-off, a timeout
	// leaves the bot running (random policy), and a bot that floods stdout
	// is simply held back by the full pipe.
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	stdinRaw, err := inW.SyscallConn()
	var stdoutRaw, stderrRaw syscall.RawConn
	if err == nil {
		stdoutRaw, err = outR.SyscallConn()
	}
	if err == nil {
		stderrRaw, err = errR.SyscallConn()
	}
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		if cfg.Confine != nil {
			cfg.Confine.Release()
		}
		return nil, fmt.Errorf("bot pipes: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	startErr := cmd.Start()
	// The child holds its own copies; ours must go so EOF reaches us.
	inR.Close()
	outW.Close()
	errW.Close()
	if startErr != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		if cfg.Confine != nil {
			cfg.Confine.Release()
		}
		return nil, fmt.Errorf("start %q: %w", cfg.Argv[0], startErr)
	}
	// The child has its own environment: ours (a sandbox spec, or a copy
	// of the arena's) would stay for as long as the bot lives.
	cmd.Env = nil
	if cfg.Confine != nil {
		cfg.Confine.Started(cmd.Process.Pid)
	}
	reader := &stdoutReader{f: outR}
	reader.readOnce, reader.readWait = reader.readOnceFunc, reader.readWaitFunc
	reader.raw = stdoutRaw
	p := &Process{
		confine: cfg.Confine,
		marker:  marker,
		cmd:     cmd,
		stdin:   inW,
		stdout:  outR,
		lines:   protocol.NewLineReader(reader, cfg.MaxLine),
		reader:  reader,
		stderr:  &stderrSink{cap: cfg.StderrCap},
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
	}
	p.writeOnce, p.stdinRaw, p.stderrRaw = p.writeOnceFunc, stdinRaw, stderrRaw
	// A first reading of a metered bot, so that every move has one from
	// before it (LastUsage): one per process, not per move.
	p.Usage()
	go func() {
		p.stderr.drain(errR)
		close(p.drained)
	}()
	go func() {
		// Wait blocks an OS thread in waitid until the bot exits; parked
		// in the runtime poller first, a live bot costs no thread.
		awaitExit(cmd.Process.Pid)
		p.waitErr = cmd.Wait()
		close(p.exited)
		// The bot is gone: nothing it started may outlive it, and a child
		// still holding its stdout must not keep the referee waiting.
		if !cfg.LeaveDescendants {
			p.killDescendants()
		}
		p.stdout.SetReadDeadline(time.Now().Add(exitGrace))
	}()
	return p, nil
}

// Send writes line plus a newline.
func (p *Process) Send(line []byte, deadline time.Time) error {
	select {
	case <-p.exited:
		return closedError(p.ExitStatus().String())
	default:
	}
	p.sentAt = time.Time{}
	if !time.Now().Before(deadline) {
		return ErrDeadlinePast
	}
	p.pending = append(append(p.pending[:0], line...), '\n')
	// One write first, without waiting and without a deadline: a pipe with
	// room takes the line at once, however late the caller ran since the
	// check above (SentAt says when). The deadline is the bot's to meet (it must read its
	// input), so it is armed only if the pipe is full; armed up front, it
	// would also time out a referee that a loaded machine ran late between
	// arming it and writing, and charge the bot for that.
	n, err := p.writeNow()
	if err == nil && n == len(p.pending) {
		p.sentAt = time.Now()
		return nil
	}
	if err != nil && !errors.Is(err, errWouldBlock) {
		return closedError("write: " + err.Error())
	}
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		return closedError(err.Error())
	}
	_, err = p.stdin.Write(p.pending[n:])
	_ = p.stdin.SetWriteDeadline(time.Time{})
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("%w: bot did not read its input", ErrTimeout)
		}
		return closedError("write: " + err.Error())
	}
	return nil
}

// SentAt is when the line of the last Send was written, if it was written
// at once (transport.SendTimer).
func (p *Process) SentAt() (time.Time, bool) { return p.sentAt, !p.sentAt.IsZero() }

// errWouldBlock: a pipe to or from the bot cannot be written (it is full)
// or read (it is empty) without waiting.
var errWouldBlock = errors.New("the pipe would block")

// stdoutReader is what the line reader reads the bot's stdout through
// (Read is in rawio_*.go).
type stdoutReader struct {
	f        *os.File
	raw      syscall.RawConn
	readOnce func(fd uintptr)
	readWait func(fd uintptr) bool
	// readFirst: try a read that does not wait before the poller's (the
	// deadline is past or nearly); past: the deadline is past, so do not
	// wait at all. Set by Receive.
	readFirst, past bool
	into            []byte // the buffer of the read in progress
	n               int
	err             error
}

// Usage is the bot's CPU use (Meter), as its confinement reads it (a
// sandbox's cgroup counts every process of the bot). An unconfined bot is
// not metered: its process's threads would miss the processes it starts.
func (p *Process) Usage() (Usage, bool) {
	m, ok := p.confine.(Meter)
	if !ok {
		return Usage{}, false
	}
	select {
	case <-p.exited:
		return Usage{}, false // its pid may be another's by now
	default:
	}
	u, ok := m.Usage()
	if ok {
		p.lastUsage, p.lastAt = u, time.Now()
	}
	return u, ok
}

// LastUsage is the last reading Usage took and when (Remembered); a
// metered bot has one from its start.
func (p *Process) LastUsage() (Usage, time.Time, bool) {
	return p.lastUsage, p.lastAt, !p.lastAt.IsZero()
}

// Receive waits for one line until deadline. A partial line read before a
// timeout is kept, so a late reply can still be read (and skipped) later.
func (p *Process) Receive(deadline time.Time) ([]byte, error) {
	// A deadline already past (seats sharing one startup deadline, a last
	// look after a timeout) still gets a line that is waiting in the pipe:
	// the reader tries a read that does not wait before the poller's,
	// which fails without trying once the deadline has passed, as it may
	// have by the time a loaded machine runs this goroutine.
	now := time.Now()
	p.reader.readFirst = deadline.Before(now.Add(time.Millisecond))
	p.reader.past = !deadline.After(now)
	if p.reader.past {
		deadline = now.Add(time.Millisecond) // only for the exit grace below
	}
	if err := p.stdout.SetReadDeadline(deadline); err != nil {
		return nil, closedError(p.ExitStatus().String())
	}
	// If the bot has exited, only what is already in the pipe counts (the
	// exit watcher shortens the deadline too; whichever runs second wins).
	select {
	case <-p.exited:
		if d := time.Now().Add(exitGrace); d.Before(deadline) {
			p.stdout.SetReadDeadline(d)
		}
	default:
	}
	line, err := p.lines.ReadLine()
	switch {
	case err == nil:
		return append([]byte(nil), line...), nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		select {
		case <-p.exited:
			return nil, closedError(fmt.Sprintf("the bot exited (%s) while a process it started kept its stdout open", p.ExitStatus()))
		default:
		}
		return nil, ErrTimeout
	case errors.Is(err, protocol.ErrLineTooLong):
		return nil, err
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		// Give the process time to be reaped so the status is useful: a
		// bot that closed its stdout has almost always exited, and its
		// status ("exited with status 2", a sandbox limit) is what gets
		// recorded. On a loaded machine reaping a sandboxed process takes
		// more than a few milliseconds, and the record would depend on
		// the load; so wait up to eofWait whatever the read's deadline
		// (a poll, such as arena connect's, has a short one): what is
		// decided, a crash, stays the same, only its words become the
		// same too, over stdio and through arena connect alike. Only a
		// bot that closes its stdout and runs on costs the whole wait,
		// and only once: a later read says at once what is known.
		if p.eofWaited.CompareAndSwap(false, true) {
			select {
			case <-p.exited:
			case <-time.After(eofWait):
			}
		}
		return nil, closedError(fmt.Sprintf("stdout closed (%v), %s", err, p.ExitStatus()))
	}
	if errors.Is(err, os.ErrClosed) {
		return nil, closedError(p.ExitStatus().String())
	}
	return nil, closedError(fmt.Sprintf("read: %v, %s", err, p.ExitStatus()))
}

// ClosedError is the ErrClosed a Process reports, with what it saw: how
// the process had ended, or what failed. Detail lets a caller quote that
// without taking the text of Error apart.
type ClosedError struct {
	Detail string
}

func (e *ClosedError) Error() string { return ErrClosed.Error() + ": " + e.Detail }

// Unwrap makes errors.Is(err, ErrClosed) hold.
func (e *ClosedError) Unwrap() error { return ErrClosed }

func closedError(detail string) error { return &ClosedError{Detail: detail} }

// ExitStatus is how a bot process ended, as a value, so that a caller
// decides on it without reading an error's text.
type ExitStatus struct {
	// Exited is false while the process runs; the rest is then zero.
	Exited bool
	// Code is the status of a process that exited by itself, -1 for one
	// killed by a signal or whose status is unknown.
	Code int
	// Signal is the signal that killed the process, 0 if none did.
	Signal syscall.Signal
	// Limit names the sandbox limit that ended it, "" if none did.
	Limit string
}

// Success reports a process that exited by itself with status 0.
func (s ExitStatus) Success() bool { return s.Exited && s.Signal == 0 && s.Code == 0 }

// String words the status as the transport's errors do: "exited with
// status 3", "killed by signal killed (memory limit)".
func (s ExitStatus) String() string {
	var d string
	switch {
	case !s.Exited:
		return "process still running"
	case s.Signal != 0:
		d = fmt.Sprintf("killed by signal %v", s.Signal)
	case s.Code < 0: // reaped, but the status was lost
		d = "process gone"
	default:
		d = fmt.Sprintf("exited with status %d", s.Code)
	}
	if s.Limit != "" {
		d += " (" + s.Limit + ")"
	}
	return d
}

func exitOf(ws syscall.WaitStatus) ExitStatus {
	if ws.Signaled() {
		return ExitStatus{Exited: true, Code: -1, Signal: ws.Signal()}
	}
	return ExitStatus{Exited: true, Code: ws.ExitStatus()}
}

// ExitStatus is how the bot ended, once it has: that of the confined
// program itself when a sandbox's wrapper outlived it, with the limit that
// ended it if one did.
func (p *Process) ExitStatus() ExitStatus {
	select {
	case <-p.exited:
	default:
		return ExitStatus{}
	}
	st := p.cmd.ProcessState
	if st == nil {
		return ExitStatus{Exited: true, Code: -1}
	}
	s := ExitStatus{Exited: true, Code: st.ExitCode()}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok {
		s = exitOf(ws)
	}
	if p.confine != nil {
		if own, known := p.confine.Status(); known {
			s = exitOf(own)
		}
		s.Limit = p.confine.Explain()
	}
	return s
}

// DescribeExit words a wait status as the transport reports a bot's end:
// "exited with status 3", "killed by signal killed".
func DescribeExit(ws syscall.WaitStatus) string { return exitOf(ws).String() }

// Pid is the bot's process id (also its process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed once the bot process has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// SetStderr directs the bot's stderr to w from now on (nil discards it),
// starting a fresh size cap; used for one log file per game.
//
// What the bot wrote before and is still in the pipe goes to the log it
// was written for (a line a bot writes as a game ends, read only once the
// next has begun, would otherwise land in the next game's log).
func (p *Process) SetStderr(w io.Writer) {
	p.drainPending()
	p.stderr.set(w)
}

// StderrTail returns the last bytes the bot wrote to stderr, for error
// messages.
func (p *Process) StderrTail() string { return p.stderr.tailString() }

// CloseInput closes the bot's stdin: it reads end of file.
func (p *Process) CloseInput() { p.stdin.Close() }

// Shutdown waits up to grace for the bot to exit by itself (after a bye),
// then kills its process group.
func (p *Process) Shutdown(grace time.Duration) error {
	p.stdin.Close()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	return p.Close()
}

// Close kills the bot's whole process group and reaps the bot.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.killDescendants()
		p.stdin.Close()
		p.stdout.Close()
		<-p.exited
		// Let the last stderr bytes reach the log; a descendant that escaped
		// the kill may hold stderr open, so do not wait long for it.
		select {
		case <-p.drained:
		case <-time.After(200 * time.Millisecond):
		}
		if p.confine != nil {
			p.confine.Release()
		}
	})
	return nil
}

// killDescendants kills the bot's process group even if the leader already
// exited (children it forked may still run), and those that left the
// group: through the sandbox's cgroup, or else by environment marker.
func (p *Process) killDescendants() {
	p.killGroup()
	if p.confine != nil {
		p.confine.Kill()
	} else if p.marker != "" {
		killMarked(p.marker)
	}
}

// markInherited marks every descriptor above stderr close-on-exec before
// a bot starts: os/exec gives a child stdin, stdout, stderr and
// ExtraFiles, but the kernel gives it every descriptor not so marked:
// those this process was started with (a shell's 7<>notes.txt, a CI
// runner's log pipe), and any a library opened without the flag. Before
// every start, not once: on Linux it is one close_range call (or a read
// of /proc/self/fd); only where neither exists (macOS, where bots run
// unconfined anyway) does it walk every descriptor number.
func markInherited() error { return fds.CloseOnExec(3) }

// exitGrace is how long Receive still reads after the bot exited: long
// enough for lines already in the pipe, short enough that a descendant
// holding the pipe open cannot turn a crash into a timeout.
const exitGrace = 50 * time.Millisecond

// eofWait bounds how long Receive waits, after the bot closed its stdout,
// for the process to exit, so the failure can say how it ended: far more
// than reaping takes on a quiet machine (well under a millisecond), and
// enough for it on a 2-core machine at load 30 (seen to take most of a
// second there).
const eofWait = 2 * time.Second

// Confinement returns the process's confinement (nil without one).
func (p *Process) Confinement() Confinement { return p.confine }

// stderrSink copies a bot's stderr to the current log, capped per log, and
// keeps a short tail for error messages. Draining never stops, so a bot
// flooding stderr never blocks on it. What the bot writes before the
// first log is set (between its start and SetStderr) is held, up to
// earlySize, and goes to that log: a bot that writes as it starts loses
// none of it to the moment its log is set.
type stderrSink struct {
	mu       sync.Mutex
	w        io.Writer
	cap      int64
	written  int64
	capped   bool
	tail     []byte
	directed bool   // a log has been set (nil included)
	early    []byte // written before that
}

const tailSize = 2048

// earlySize bounds what is held of a bot's stderr before its first log is
// set: enough for what it writes as it starts (the moment between its
// start and SetStderr), and little for a process whose stderr no log
// ever takes (a run that keeps no logs).
const earlySize = 8 << 10

func (s *stderrSink) set(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w, s.written, s.capped = w, 0, false
	if !s.directed {
		s.directed = true
		early := s.early
		s.early = nil
		s.copyLocked(early)
	}
}

// drain copies the bot's stderr into the sink until its end, then closes r.
func (s *stderrSink) drain(r *os.File) {
	defer r.Close()
	drainFile(r, s.write)
}

// drainBufferSize is the most of a bot's stderr one read takes. Small:
// stderr is diagnostics.
const drainBufferSize = 4 << 10

// drainBuffered reads r until its end through a buffer of its own.
func drainBuffered(r *os.File, write func([]byte)) {
	buf := make([]byte, drainBufferSize)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

func (s *stderrSink) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tail = append(s.tail, b...)
	if len(s.tail) > tailSize {
		s.tail = append(s.tail[:0], s.tail[len(s.tail)-tailSize:]...)
	}
	if !s.directed {
		s.early = append(s.early, b[:min(len(b), max(0, earlySize-len(s.early)))]...)
		return
	}
	s.copyLocked(b)
}

// copyLocked copies b to the current log, within its cap.
func (s *stderrSink) copyLocked(b []byte) {
	if s.w == nil || s.capped || len(b) == 0 {
		return
	}
	room := s.cap - s.written
	if int64(len(b)) > room {
		b = b[:room]
		s.capped = true
	}
	n, _ := s.w.Write(b)
	s.written += int64(n)
	if s.capped {
		fmt.Fprintf(s.w, "\n[arena: stderr truncated at %d bytes]\n", s.cap)
	}
}

func (s *stderrSink) tailString() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.tail)
}
