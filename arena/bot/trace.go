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
// instead (a timeout, the bot gone). The sessions behave exactly as l's:
// what the referee and the pool ask of them (their CPU use for the fair
// clock, a game's start, the round trip of a remote bot, the capacity of
// a remote launcher) is passed through. Lines longer than traceMax are cut
// in the trace, never on the wire.
func Traced(l Launcher, w io.Writer) Launcher {
	return &tracedLauncher{inner: l, t: &tracer{w: w, start: time.Now()}}
}

// traceMax bounds the bytes of one line a trace shows.
const traceMax = 4 << 10

// tracer writes trace lines from every session of one bot, one at a time.
type tracer struct {
	mu       sync.Mutex
	w        io.Writer
	start    time.Time
	sessions atomic.Int64
}

func (t *tracer) line(name string, session int64, dir string, text []byte) {
	cut := ""
	if len(text) > traceMax {
		text, cut = text[:traceMax], fmt.Sprintf(" ... (%d bytes in all)", len(text))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "[%9.3f] %s #%d %s %s%s\n", time.Since(t.start).Seconds(), name, session, dir, text, cut)
}

type tracedLauncher struct {
	inner Launcher
	t     *tracer
}

func (l *tracedLauncher) Launch(name string, opt LaunchOptions) (Endpoint, error) {
	n := l.t.sessions.Add(1)
	e, err := l.inner.Launch(name, opt)
	if err != nil {
		l.t.line(name, n, "!", []byte("could not start: "+err.Error()))
		return nil, err
	}
	l.t.line(name, n, "!", []byte("started"))
	return &tracedEndpoint{Endpoint: e, t: l.t, name: name, n: n}, nil
}

// Capacity is the inner launcher's (0, unknown, if it declares none, which
// the pool reads as it reads a launcher without one).
func (l *tracedLauncher) Capacity() int {
	if c, ok := l.inner.(Capacity); ok {
		return c.Capacity()
	}
	return 0
}

type tracedEndpoint struct {
	Endpoint
	t      *tracer
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
