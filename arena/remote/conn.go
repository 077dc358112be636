// Package remote carries the bot protocol over NATS, for bots that run on
// another machine. The messages are protocol v1's JSON lines unchanged;
// only the framing differs: one NATS message per line. A session (one
// bot process's life, hello to bye) has two subjects:
//
//	arena.bot.BOT.SESSION   referee -> bot: lines, and the close signal
//	arena.ref.BOT.SESSION   bot -> referee: lines, acknowledgements, end of output
//
// Control messages carry a header and no line: Arena-Ack (the bytes of
// referee lines the bot has taken, so that Send is held back by a bot
// that does not read, as a pipe holds it back), Arena-Eof (the bot's
// output ended; its value says how the bot ended), Arena-Oversize (the
// bot wrote a line over the limit) and Arena-Close (the referee ended
// the session).
//
// Conn is the referee's end, a transport.Conn; BotEnd is the bot's end,
// which a program serving a bot (arena connect) or an SDK speaks.
//
// The rest of what runs over NATS is here too, so that a new transport
// touches one package: the "nats:BOTID" bot scheme, registered with
// arena/bot (Target, Binding, CheckID; scheme.go); a run's connection or
// its embedded server with its port file (Link, DialLink, Embed;
// link.go); serving a bot to the arenas and connecting to them
// (ServeBot, Connect, ServeConfig; serve.go); and the keys and
// permissions of an arena serve (AddBot, AddKey, ReadKeys; keys.go).
package remote

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// Headers of control messages.
const (
	HeaderAck      = "Arena-Ack"
	HeaderEOF      = "Arena-Eof"
	HeaderOversize = "Arena-Oversize"
	HeaderClose    = "Arena-Close"
)

// Window is how many bytes of lines (newlines counted) the referee may
// have sent that the bot has not taken yet: what a pipe holds.
const Window = 64 << 10

// Session names one session of a bot.
type Session struct {
	Bot string // the bot's id
	ID  string // unique per session
}

// ToBot is the subject of the referee's lines to the bot.
func (s Session) ToBot() string { return "arena.bot." + s.Bot + "." + s.ID }

// ToReferee is the subject of the bot's lines to the referee.
func (s Session) ToReferee() string { return "arena.ref." + s.Bot + "." + s.ID }

// Conn is the referee's end of a session.
type Conn struct {
	nc      *nats.Conn
	s       Session
	maxLine int
	sub     *nats.Subscription

	mu       sync.Mutex
	wake     chan struct{} // closed and replaced when anything changes
	lines    [][]byte      // from the bot, not yet received
	queued   int           // bytes in lines
	sent     int64         // bytes of lines sent (newlines counted)
	acked    int64         // of them, taken by the bot
	eof      string        // the bot's output ended: how ("" while it has not)
	oversize bool          // the bot sent a line over maxLine: nothing after it counts
	flooded  bool          // the bot sent far more than was read
	closed   bool
	done     chan struct{} // closed once the session has ended
	timer    *time.Timer   // wait's, reused

	// Grace is how long the bot may be unreachable (its connection lost,
	// reconnecting) before the session ends as a crash; set before use
	// (0: DefaultGrace).
	Grace      time.Duration
	reconnects uint64    // the connection's reconnect count when the session began
	lastSeen   time.Time // when the bot was last heard from
	lostAt     time.Time // when it was first found unreachable (zero: it is not)
}

// DefaultGrace is how long a remote bot may be unreachable before its
// session ends (Conn.Grace).
const DefaultGrace = 2 * time.Second

// probeEvery is how long Receive waits in silence before it asks whether
// the bot is still there; probeWait bounds the answer.
const (
	probeEvery = 500 * time.Millisecond
	probeWait  = time.Second
)

// PingSubject is where the arena asks whether a session's bot is still
// connected (any answer will do).
func (s Session) PingSubject() string { return s.ToBot() + ".ping" }

// maxQueued bounds what a bot may send ahead of the referee's reading:
// a bot that floods is cut off instead of filling the referee's memory.
func maxQueued(maxLine int) int { return 4 * max(maxLine, Window) }

// NewConn starts the referee's end of session s on nc. maxLine bounds a
// line from the bot (0: protocol.DefaultMaxLine).
func NewConn(nc *nats.Conn, s Session, maxLine int) (*Conn, error) {
	if maxLine <= 0 {
		maxLine = protocol.DefaultMaxLine
	}
	c := &Conn{nc: nc, s: s, maxLine: maxLine, wake: make(chan struct{}), done: make(chan struct{}), lastSeen: time.Now(),
		reconnects: nc.Stats().Reconnects}
	if err := c.faultErr(); err != nil {
		return nil, err // a flush now would wait out its whole timeout
	}
	sub, err := nc.Subscribe(s.ToReferee(), c.deliver)
	if err != nil {
		return nil, fmt.Errorf("remote: subscribing to %s: %w", s.ToReferee(), err)
	}
	// The bot's lines are bounded here (maxQueued), not by NATS's own
	// pending limits, which would drop messages silently.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	c.sub = sub
	// Once NewConn returns the server has the subscription: nothing the
	// bot sends from then on is lost.
	if err := nc.FlushTimeout(closeFlush); err != nil {
		sub.Unsubscribe()
		return nil, fmt.Errorf("%w: remote: %w", transport.ErrFault, err)
	}
	return c, nil
}

// changed wakes every waiter; c.mu is held.
func (c *Conn) changed() {
	close(c.wake)
	c.wake = make(chan struct{})
}

// end marks the session ended; c.mu is held.
func (c *Conn) end() {
	select {
	case <-c.done:
	default:
		close(c.done)
	}
}

func (c *Conn) deliver(m *nats.Msg) {
	if m.Reply != "" {
		// The bot waits to know its end was taken (BotEnd.Exit): answer
		// once it has been.
		defer m.Respond(nil)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.changed()
	c.lastSeen, c.lostAt = time.Now(), time.Time{}
	if c.closed || c.eof != "" || c.oversize || c.flooded {
		return
	}
	if v := m.Header.Get(HeaderAck); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > c.acked && n <= c.sent {
			c.acked = n
		}
	}
	switch {
	case m.Header.Get(HeaderOversize) != "":
		c.oversize = true
		return
	case m.Header.Get(HeaderEOF) != "":
		c.eof = m.Header.Get(HeaderEOF)
		c.end()
		return
	case m.Header.Get(HeaderAck) != "" && len(m.Data) == 0:
		return // an acknowledgement alone
	}
	if len(m.Data) > c.maxLine {
		c.oversize = true
		return
	}
	if c.queued+len(m.Data) > maxQueued(c.maxLine) {
		c.flooded = true
		c.end()
		return
	}
	c.lines = append(c.lines, m.Data) // NATS gives each message its own bytes
	c.queued += len(m.Data)
}

// wait waits for a change until deadline; false: the deadline passed.
// Send and Receive, its callers, are used by one goroutine at a time
// (transport.Conn), so they share one timer instead of making one per
// wait: the wait is on every move's path.
func (c *Conn) wait(wake <-chan struct{}, deadline time.Time) bool {
	if c.timer == nil {
		c.timer = time.NewTimer(time.Until(deadline))
	} else {
		c.timer.Reset(time.Until(deadline)) // since Go 1.23 no stale fire is left to drain
	}
	defer c.timer.Stop()
	select {
	case <-wake:
		return true
	case <-c.timer.C:
		return false
	}
}

// faultErr is the arena's own connection failing (lost, or lost and
// found again: what was sent meanwhile may be gone), which is no fault
// of the bot's (transport.ErrFault).
func (c *Conn) faultErr() error {
	if st := c.nc.Status(); st != nats.CONNECTED {
		return fmt.Errorf("%w: the arena's NATS connection is %v", transport.ErrFault, st)
	}
	if c.nc.Stats().Reconnects != c.reconnects {
		return fmt.Errorf("%w: the arena's NATS connection was lost during the session", transport.ErrFault)
	}
	return nil
}

// closedErr is the error of a session that cannot carry lines; c.mu is
// held.
func (c *Conn) closedErr() error {
	switch {
	case c.closed:
		return transport.ErrClosed
	case c.flooded:
		return &transport.ClosedError{Detail: fmt.Sprintf("the bot sent more than %d bytes ahead of the referee (cut off)", maxQueued(c.maxLine))}
	case c.eof != "":
		return &transport.ClosedError{Detail: c.eof}
	}
	return nil
}

// Send sends one line to the bot, waiting until deadline while the bot
// has Window bytes or more not taken yet.
func (c *Conn) Send(line []byte, deadline time.Time) error {
	c.mu.Lock()
	for waited := false; ; waited = true {
		if err := c.closedErr(); err != nil {
			c.mu.Unlock()
			return err
		}
		if err := c.faultErr(); err != nil {
			c.mu.Unlock()
			return err
		}
		if !time.Now().Before(deadline) {
			c.mu.Unlock()
			if !waited {
				return transport.ErrDeadlinePast
			}
			return transport.ErrTimeout
		}
		if c.sent-c.acked+int64(len(line)+1) <= Window || c.sent == c.acked {
			break
		}
		wake := c.wake
		c.mu.Unlock()
		c.wait(wake, deadline)
		c.mu.Lock()
	}
	c.sent += int64(len(line) + 1)
	c.mu.Unlock()
	if err := c.nc.Publish(c.s.ToBot(), line); err != nil { // Publish copies line
		return &transport.ClosedError{Detail: "publishing: " + err.Error()}
	}
	return nil
}

// pastDeadlineGrace is how long Receive waits with a deadline already
// past: seats that share one startup deadline are read one after the
// other, and a line the bot sent in time may still be on its way from
// the server (a pipe has it at once).
const pastDeadlineGrace = 5 * time.Millisecond

// Receive returns the bot's next line, waiting until deadline.
func (c *Conn) Receive(deadline time.Time) ([]byte, error) {
	if min := time.Now().Add(pastDeadlineGrace); deadline.Before(min) {
		deadline = min
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if c.closed {
			return nil, transport.ErrClosed
		}
		if len(c.lines) > 0 {
			line := c.lines[0]
			c.lines = c.lines[1:]
			c.queued -= len(line)
			return line, nil
		}
		if c.oversize {
			return nil, protocol.ErrLineTooLong
		}
		if err := c.closedErr(); err != nil {
			return nil, err
		}
		if err := c.faultErr(); err != nil {
			return nil, err
		}
		now := time.Now()
		if !now.Before(deadline) {
			return nil, transport.ErrTimeout
		}
		wake, until := c.wake, deadline
		if probe := c.lastSeen.Add(probeEvery); probe.Before(until) {
			until = probe
		}
		c.mu.Unlock()
		if !c.wait(wake, until) && until.Before(deadline) {
			c.probe()
		}
		c.mu.Lock()
	}
}

// probe asks whether the bot is still connected, and ends the session
// as a crash once it has been unreachable for Grace. A bot that answers
// slowly is there; only no responders (its subscription gone with its
// connection) counts.
func (c *Conn) probe() {
	if c.faultErr() != nil {
		return // the arena's connection, not the bot (Receive reports it)
	}
	_, err := c.nc.Request(c.s.PingSubject(), nil, probeWait)
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if !errors.Is(err, nats.ErrNoResponders) {
		c.lastSeen, c.lostAt = now, time.Time{}
		return
	}
	if c.lostAt.IsZero() {
		c.lostAt = now
	}
	c.lastSeen = now // probe again probeEvery from now
	grace := c.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	if now.Sub(c.lostAt) >= grace && c.eof == "" && !c.closed {
		c.eof = fmt.Sprintf("the remote bot disconnected (unreachable for %v)", grace)
		c.end()
		c.changed()
	}
}

// Close ends the session: the bot is told to end, and nothing more is
// sent or delivered.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.lines, c.queued = nil, 0
	c.end()
	c.changed()
	c.mu.Unlock()
	c.sub.Unsubscribe()
	m := nats.NewMsg(c.s.ToBot())
	m.Header.Set(HeaderClose, "1")
	if err := c.nc.PublishMsg(m); err != nil {
		if errors.Is(err, nats.ErrConnectionClosed) {
			return nil
		}
		return err
	}
	// The server drops the subscription before Close returns: a bot that
	// ends its session now gets no responders at once (BotEnd.Exit)
	// instead of waiting for an answer that cannot come.
	if c.nc.Status() == nats.CONNECTED { // else nothing would answer
		_ = c.nc.FlushTimeout(closeFlush)
	}
	return nil
}

// closeFlush bounds how long Close waits for the server.
const closeFlush = time.Second

// Done is closed once the session has ended: the bot's output ended, it
// was cut off, or Close was called.
func (c *Conn) Done() <-chan struct{} { return c.done }

var _ transport.Conn = (*Conn)(nil)
