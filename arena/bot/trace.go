package bot

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arena-dev/arena/arena/transport"
)

// Traced is l with the protocol lines of every session it launches written
// to w as they pass, like cutechess-cli's -debug: one line each, the time
// since the trace began, the bot's name and session number, ">" for a
// line to the bot and "<" for one from it, and "!" for what went wrong
// instead (a timeout, the bot gone). The sessions behave as l's: what the
// referee and the pool ask of them (their CPU use for the fair clock, a
// game's start, the round trip of a remote bot, the capacity of a remote
// launcher) is passed through, and the writing is done by a goroutine of
// its own, so that a slow w never holds up a move, whose clock runs. Lines
// longer than traceMax are cut in the trace, never on the wire; when w
// falls more than traceQueue lines behind, lines are dropped and counted.
// Call Flush once the sessions are over.
func Traced(l Launcher, w io.Writer) *Tracer {
	t := &Tracer{inner: l, w: w, start: time.Now(), queue: make(chan string, traceQueue), done: make(chan struct{})}
	go t.write()
	return t
}

// traceMax bounds the bytes of one line a trace shows.
const traceMax = 4 << 10

// traceQueue bounds the lines waiting to be written.
const traceQueue = 4096

// Tracer is a Launcher whose sessions' lines are traced (Traced).
type Tracer struct {
	inner    Launcher
	w        io.Writer
	start    time.Time
	sessions atomic.Int64
	queue    chan string
	dropped  atomic.Int64
	mu       sync.RWMutex // closed and the queue's close
	closed   bool
	done     chan struct{}
}

func (t *Tracer) line(name string, session int64, dir string, text []byte) {
	cut := ""
	if len(text) > traceMax {
		text, cut = text[:traceMax], fmt.Sprintf(" ... (%d bytes in all)", len(text))
	}
	l := fmt.Sprintf("[%9.3f] %s #%d %s %s%s\n", time.Since(t.start).Seconds(), name, session, dir, text, cut)
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.closed {
		return
	}
	select {
	case t.queue <- l:
	default:
		t.dropped.Add(1)
	}
}

// write writes the queued lines, saying where lines were dropped.
func (t *Tracer) write() {
	defer close(t.done)
	for l := range t.queue {
		if n := t.dropped.Swap(0); n > 0 {
			fmt.Fprintf(t.w, "[trace] %d lines dropped: the trace's output was slower than the games\n", n)
		}
		io.WriteString(t.w, l)
	}
	if n := t.dropped.Swap(0); n > 0 {
		fmt.Fprintf(t.w, "[trace] %d lines dropped: the trace's output was slower than the games\n", n)
	}
}

// Flush writes what is queued and stops the trace; call it once no
// session is left (lines traced after it are not written).
func (t *Tracer) Flush() {
	t.mu.Lock()
	if !t.closed {
		t.closed = true
		close(t.queue)
	}
	t.mu.Unlock()
	<-t.done
}

// Launch starts a traced session of the inner launcher.
func (t *Tracer) Launch(name string, opt LaunchOptions) (Endpoint, error) {
	n := t.sessions.Add(1)
	e, err := t.inner.Launch(name, opt)
	if err != nil {
		t.line(name, n, "!", []byte("could not start: "+err.Error()))
		return nil, err
	}
	t.line(name, n, "!", []byte("started"))
	return &tracedEndpoint{Endpoint: e, t: t, name: name, n: n}, nil
}

// Capacity is the inner launcher's (0, unknown, if it declares none, which
// the pool reads as it reads a launcher without one).
func (t *Tracer) Capacity() int {
	if c, ok := t.inner.(Capacity); ok {
		return c.Capacity()
	}
	return 0
}

type tracedEndpoint struct {
	Endpoint
	t      *Tracer
	name   string
	n      int64
	closed sync.Once
}

func (e *tracedEndpoint) Close() error {
	e.closed.Do(func() { e.t.line(e.name, e.n, "!", []byte("closed")) })
	return e.Endpoint.Close()
}

func (e *tracedEndpoint) Send(line []byte, deadline time.Time) error {
	e.t.line(e.name, e.n, ">", line)
	err := e.Endpoint.Send(line, deadline)
	if err != nil {
		e.t.line(e.name, e.n, "!", []byte("send: "+err.Error()))
	}
	return err
}

func (e *tracedEndpoint) Receive(deadline time.Time) ([]byte, error) {
	line, err := e.Endpoint.Receive(deadline)
	switch {
	case err == nil:
		e.t.line(e.name, e.n, "<", line)
	case errors.Is(err, transport.ErrTimeout):
		e.t.line(e.name, e.n, "!", []byte("no line by the deadline"))
	default:
		e.t.line(e.name, e.n, "!", []byte("receive: "+err.Error()))
	}
	return line, err
}

// Usage is the inner session's CPU use, where it can tell (transport.Meter).
func (e *tracedEndpoint) Usage() (transport.Usage, bool) {
	if m, ok := e.Endpoint.(transport.Meter); ok {
		return m.Usage()
	}
	return transport.Usage{}, false
}

// LastUsage is the inner session's last reading (transport.Remembered),
// so that a traced bot's clock forgives what an untraced one's does.
func (e *tracedEndpoint) LastUsage() (transport.Usage, time.Time, bool) {
	if r, ok := e.Endpoint.(transport.Remembered); ok {
		return r.LastUsage()
	}
	return transport.Usage{}, time.Time{}, false
}

// NewGame passes a game's start on (GameStarter).
func (e *tracedEndpoint) NewGame() {
	if g, ok := e.Endpoint.(GameStarter); ok {
		g.NewGame()
	}
}

// errNoRoundTrip: the traced session is local, with no round trip to tell.
var errNoRoundTrip = errors.New("not a remote session")

// RoundTrip is the inner session's (RoundTripper).
func (e *tracedEndpoint) RoundTrip() (time.Duration, error) {
	if rt, ok := e.Endpoint.(RoundTripper); ok {
		return rt.RoundTrip()
	}
	return 0, errNoRoundTrip
}

// SentAt is the inner session's (transport.SendTimer).
func (e *tracedEndpoint) SentAt() (time.Time, bool) {
	if st, ok := e.Endpoint.(transport.SendTimer); ok {
		return st.SentAt()
	}
	return time.Time{}, false
}
