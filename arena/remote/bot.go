package remote

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// BotEnd is the bot's end of a session: what the bot writes is cut into
// lines, one message each; what the referee sends is read line by line,
// and taking a line acknowledges it, so the referee's Send is held back
// by a bot that does not read.
type BotEnd struct {
	nc      *nats.Conn
	s       Session
	maxLine int
	sub     *nats.Subscription
	ping    *nats.Subscription // answers the referee's probes while the session lives

	mu      sync.Mutex // guards what Write and the acknowledgements share
	partial []byte     // the start of a line not yet ended
	taken   int64      // bytes of the referee's lines taken (newlines counted)
	told    int64      // of them, acknowledged to the referee
	broken  bool       // an oversize line was written: nothing more is sent
	ended   bool       // the referee closed the session, or the bot ended
}

// NewBotEnd starts the bot's end of session s on nc. maxLine is the
// referee's bound on a line (0: protocol.DefaultMaxLine).
func NewBotEnd(nc *nats.Conn, s Session, maxLine int) (*BotEnd, error) {
	if maxLine <= 0 {
		maxLine = protocol.DefaultMaxLine
	}
	sub, err := nc.SubscribeSync(s.ToBot())
	if err != nil {
		return nil, fmt.Errorf("remote: subscribing to %s: %w", s.ToBot(), err)
	}
	// Flow control (Window) bounds what is pending here.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	ping, err := nc.Subscribe(s.PingSubject(), func(m *nats.Msg) { m.Respond(nil) })
	if err != nil {
		sub.Unsubscribe()
		return nil, fmt.Errorf("remote: subscribing to %s: %w", s.PingSubject(), err)
	}
	// Once NewBotEnd returns the server has the subscription: nothing the
	// referee sends from then on is lost.
	if err := nc.Flush(); err != nil {
		sub.Unsubscribe()
		ping.Unsubscribe()
		return nil, fmt.Errorf("remote: %w", err)
	}
	return &BotEnd{nc: nc, s: s, maxLine: maxLine, sub: sub, ping: ping}, nil
}

// Receive returns the referee's next line, waiting until deadline.
func (b *BotEnd) Receive(deadline time.Time) ([]byte, error) {
	b.mu.Lock()
	ended := b.ended
	b.mu.Unlock()
	if ended {
		return nil, transport.ErrClosed
	}
	m, err := b.sub.NextMsg(max(time.Until(deadline), time.Millisecond))
	switch {
	case err == nats.ErrTimeout:
		return nil, transport.ErrTimeout
	case err != nil:
		return nil, &transport.ClosedError{Detail: err.Error()}
	case m.Header.Get(HeaderClose) != "":
		b.mu.Lock()
		b.ended = true
		b.mu.Unlock()
		b.sub.Unsubscribe()
		b.ping.Unsubscribe()
		return nil, transport.ErrClosed
	}
	b.mu.Lock()
	b.taken += int64(len(m.Data) + 1)
	// Acknowledge once a quarter of the window is taken: the referee's
	// Send waits only when a whole window is not.
	if b.taken-b.told >= Window/4 {
		b.sendLocked(nil, nil)
	}
	b.mu.Unlock()
	return m.Data, nil
}

// sendLocked publishes one message to the referee with the
// acknowledgement and the given control header; b.mu is held.
func (b *BotEnd) sendLocked(line []byte, header nats.Header) error {
	if header == nil && b.taken-b.told < Window/4 {
		// A line alone, with no header to parse: the acknowledgement
		// waits until it matters (Receive sends it at a quarter window).
		return b.nc.Publish(b.s.ToReferee(), line)
	}
	m := nats.NewMsg(b.s.ToReferee())
	m.Data = line
	for k, v := range header {
		m.Header[k] = v
	}
	if b.taken > b.told {
		m.Header.Set(HeaderAck, strconv.FormatInt(b.taken, 10))
		b.told = b.taken
	}
	return b.nc.PublishMsg(m)
}

// Write takes the bot's output as it comes, whole lines or parts of one,
// and sends each line once its newline has arrived (a \r before the
// newline is dropped; it counts toward the limit, as over stdio). A line
// over the limit is reported, and nothing after it is sent.
func (b *BotEnd) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return 0, transport.ErrClosed
	}
	n := len(p)
	for len(p) > 0 && !b.broken {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.partial = append(b.partial, p...)
			if len(b.partial) > b.maxLine {
				return n, b.oversizeLocked()
			}
			break
		}
		line := append(b.partial, p[:i]...)
		b.partial, p = nil, p[i+1:]
		if len(line) > b.maxLine {
			return n, b.oversizeLocked()
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if err := b.sendLocked(line, nil); err != nil {
			return n, err
		}
	}
	return n, nil
}

// Flush returns once the server has every line written so far. Write
// does not wait for that: the lines go out as they come, and a bot that
// needs to know they arrived (a test) flushes.
func (b *BotEnd) Flush() error { return b.nc.Flush() }

// oversize reports a line over the limit that the bot wrote (found by
// whoever reads its output): nothing more is sent.
func (b *BotEnd) oversize() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.ended && !b.broken {
		b.oversizeLocked()
	}
}

func (b *BotEnd) oversizeLocked() error {
	b.broken, b.partial = true, nil
	return b.sendLocked(nil, nats.Header{HeaderOversize: {strconv.Itoa(b.maxLine)}})
}

// CloseWrite ends the bot's output while the bot runs on. A line not
// ended by then is no line.
func (b *BotEnd) CloseWrite() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return nil
	}
	b.partial = nil
	return b.sendLocked(nil, nats.Header{HeaderEOF: {"stdout closed (EOF), the remote bot still running"}})
}

// exitWait bounds how long Exit waits for the referee to take the end of
// the session.
const exitWait = 2 * time.Second

// Exit ends the session from the bot's side, as a process exiting does;
// how says how the bot ended ("exited with status 0"; "": its session
// ended). It returns once the referee has taken it (or is gone), so that
// from then on the referee's Send and Receive fail, as they do once a
// process has been reaped.
func (b *BotEnd) Exit() error { return b.ExitWith("") }

// ExitWith is Exit saying how the bot ended.
func (b *BotEnd) ExitWith(how string) error {
	if how == "" {
		how = "the remote bot ended its session"
	}
	return b.exitDetail("stdout closed (EOF), " + how)
}

// exitDetail is Exit with the referee told detail as it is.
func (b *BotEnd) exitDetail(detail string) error {
	b.mu.Lock()
	if b.ended {
		b.mu.Unlock()
		return nil
	}
	b.ended, b.partial = true, nil
	m := nats.NewMsg(b.s.ToReferee())
	m.Header.Set(HeaderEOF, detail)
	if b.taken > b.told {
		m.Header.Set(HeaderAck, strconv.FormatInt(b.taken, 10))
	}
	b.mu.Unlock()
	b.sub.Unsubscribe()
	b.ping.Unsubscribe()
	_, err := b.nc.RequestMsg(m, exitWait)
	if err == nats.ErrNoResponders {
		return nil // the referee's end is gone already
	}
	return err
}
