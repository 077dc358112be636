package transport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/arena-dev/arena/protocol"
)

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
	// StderrCap limits the bytes of stderr kept per log (1 MiB if 0).
	StderrCap int64
}

// Process is a bot running as a child process speaking over stdin/stdout.
// It runs in its own process group, so Close kills everything it started.
type Process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	lines  chan lineResult
	timer  *time.Timer
	stderr *stderrSink

	closeOnce sync.Once
	closed    chan struct{} // closed by Close: nobody reads lines any more
	exited    chan struct{} // closed when the process has been waited for
	drained   chan struct{} // closed when stderr reached EOF
	waitErr   error
}

type lineResult struct {
	line []byte
	err  error
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
		cfg.StderrCap = 1 << 20
	}
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Dir = cfg.Dir
	cmd.Env = cfg.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}

	// stdin: a poller-backed pipe, so writes honour deadlines and a bot that
	// stops reading cannot block the referee.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	// stdout: a plain blocking pipe read by a dedicated goroutine. Blocking
	// reads skip the runtime's network poller, which costs ~25us per round
	// trip on small VMs (shared/notes/perf-anchors.md).
	outR, outW, err := blockingPipe()
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
		return nil, fmt.Errorf("start %q: %w", cfg.Argv[0], startErr)
	}
	p := &Process{
		cmd:     cmd,
		stdin:   inW,
		lines:   make(chan lineResult, 1),
		timer:   time.NewTimer(time.Hour),
		stderr:  &stderrSink{cap: cfg.StderrCap},
		closed:  make(chan struct{}),
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
	}
	p.timer.Stop()
	go p.readLines(outR, cfg.MaxLine)
	go func() {
		p.stderr.drain(errR)
		close(p.drained)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func blockingPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

// readLines turns the bot's stdout into lines on p.lines. The channel holds
// one line, so a bot flooding stdout is held back by the pipe, and memory
// stays bounded by the line limit.
func (p *Process) readLines(r *os.File, maxLine int) {
	defer r.Close()
	lr := protocol.NewLineReader(r, maxLine)
	for {
		line, err := lr.ReadLine()
		if err != nil {
			p.lines <- lineResult{err: err}
			close(p.lines)
			return
		}
		select {
		case p.lines <- lineResult{line: append([]byte(nil), line...)}:
		case <-p.closed:
			// Nobody will read any more; keep draining so the bot is not
			// blocked on a full pipe while it is being killed.
			for {
				if _, err := lr.ReadLine(); err != nil {
					close(p.lines)
					return
				}
			}
		}
	}
}

// Send writes line plus a newline.
func (p *Process) Send(line []byte, deadline time.Time) error {
	select {
	case <-p.exited:
		return fmt.Errorf("%w: %s", ErrClosed, p.exitStatus())
	default:
	}
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	if _, err := p.stdin.Write(buf); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("%w: bot did not read its input", ErrTimeout)
		}
		return fmt.Errorf("%w: write: %v", ErrClosed, err)
	}
	return nil
}

// Receive waits for one line until deadline.
func (p *Process) Receive(deadline time.Time) ([]byte, error) {
	// Fast path: a line already waiting needs no timer.
	select {
	case res, ok := <-p.lines:
		return p.result(res, ok)
	default:
	}
	d := time.Until(deadline)
	if d <= 0 {
		return nil, ErrTimeout
	}
	p.timer.Reset(d)
	select {
	case res, ok := <-p.lines:
		p.timer.Stop()
		return p.result(res, ok)
	case <-p.timer.C:
		return nil, ErrTimeout
	}
}

func (p *Process) result(res lineResult, ok bool) ([]byte, error) {
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrClosed, p.exitStatus())
	}
	if res.err == nil {
		return res.line, nil
	}
	if errors.Is(res.err, protocol.ErrLineTooLong) {
		return nil, res.err
	}
	if errors.Is(res.err, io.EOF) || errors.Is(res.err, io.ErrUnexpectedEOF) || errors.Is(res.err, os.ErrClosed) {
		// Give the process a moment to be reaped so the status is useful.
		select {
		case <-p.exited:
		case <-time.After(50 * time.Millisecond):
		}
		return nil, fmt.Errorf("%w: stdout closed (%v), %s", ErrClosed, res.err, p.exitStatus())
	}
	return nil, fmt.Errorf("%w: read: %v", ErrClosed, res.err)
}

func (p *Process) exitStatus() string {
	select {
	case <-p.exited:
		st := p.cmd.ProcessState
		if st == nil {
			return "process gone"
		}
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("killed by signal %v", ws.Signal())
		}
		return fmt.Sprintf("exited with status %d", st.ExitCode())
	default:
		return "process still running"
	}
}

// Pid is the bot's process id (also its process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed once the bot process has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// SetStderr directs the bot's stderr to w from now on (nil discards it),
// starting a fresh size cap; used for one log file per game.
func (p *Process) SetStderr(w io.Writer) { p.stderr.set(w) }

// StderrTail returns the last bytes the bot wrote to stderr, for error
// messages.
func (p *Process) StderrTail() string { return p.stderr.tailString() }

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
		close(p.closed)
		// Kill the group even if the leader already exited: children it
		// forked may still be running.
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.stdin.Close()
		<-p.exited
		// Let the last stderr bytes reach the log; a descendant that escaped
		// the kill may hold stderr open, so do not wait long for it.
		select {
		case <-p.drained:
		case <-time.After(200 * time.Millisecond):
		}
	})
	return nil
}

// stderrSink copies a bot's stderr to the current log, capped per log, and
// keeps a short tail for error messages. Draining never stops, so a bot
// flooding stderr never blocks on it.
type stderrSink struct {
	mu      sync.Mutex
	w       io.Writer
	cap     int64
	written int64
	capped  bool
	tail    []byte
}

const tailSize = 2048

func (s *stderrSink) set(w io.Writer) {
	s.mu.Lock()
	s.w, s.written, s.capped = w, 0, false
	s.mu.Unlock()
}

func (s *stderrSink) drain(r *os.File) {
	defer r.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			s.write(buf[:n])
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
	if s.w == nil || s.capped {
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
