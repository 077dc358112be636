package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// Pipe connects the referee to a bot inside this process: the Conn is the
// referee's end, the PipeBot the bot's. It keeps the Conn contract as the
// stdio transport does (the same line reader and oversize rule, the same
// 64 KiB held each way before a writer waits), without a process or a
// goroutine per message, so a referee test can play thousands of moves in
// milliseconds. maxLine limits one line from the bot (protocol.DefaultMaxLine
// if 0 or less).
func Pipe(maxLine int) (Conn, *PipeBot) {
	if maxLine <= 0 {
		maxLine = protocol.DefaultMaxLine
	}
	p := &pipe{changed: make(chan struct{})}
	c := &pipeConn{p: p, lines: protocol.NewLineReader(upReader{p}, maxLine)}
	return c, &PipeBot{p: p}
}

// The ends of a Pipe that can no longer be used.
var (
	errClosedByReferee = fmt.Errorf("%w: closed by the referee", ErrClosed)
	errBotExited       = fmt.Errorf("%w: the bot exited", ErrClosed)
)

// pipeBuffer is how many bytes each direction holds before its writer
// waits: a Linux pipe's default capacity, so a bot that stops reading
// blocks Send after as much as it would on stdio.
const pipeBuffer = 64 << 10

// pipe is the state both ends share, under one mutex. A side that must
// wait takes the current changed channel and sleeps on it (and on a timer
// for its deadline); every change closes it and makes a new one.
type pipe struct {
	mu      sync.Mutex
	changed chan struct{}

	up    []byte // bytes the bot wrote that the referee has not read
	upEOF bool   // the bot closed its output (or exited)

	down      [][]byte // lines sent to the bot that it has not read
	downBytes int      // their size, newlines counted

	closed bool // the referee closed the Conn: the bot is ended
	exited bool // the bot exited

	// readDeadline is the deadline of the Receive in progress, for the
	// line reader's calls to upReader.Read.
	readDeadline time.Time
}

// signal wakes every waiter. Call with p.mu held.
func (p *pipe) signal() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// wait releases p.mu until something changes or deadline passes; it
// reports false, without waiting, once deadline has passed. Call with p.mu
// held, and check the condition again after.
func (p *pipe) wait(deadline time.Time) bool {
	d := time.Until(deadline)
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	p.sleep(t.C)
	return true
}

// sleep releases p.mu until something changes or timeout fires (nil: never).
func (p *pipe) sleep(timeout <-chan time.Time) {
	ch := p.changed
	p.mu.Unlock()
	select {
	case <-ch:
	case <-timeout:
	}
	p.mu.Lock()
}

// pipeConn is the referee's end.
type pipeConn struct {
	p *pipe
	// lines reads p.up; only Receive uses it, so it needs no lock.
	lines *protocol.LineReader
}

// upReader is the bot's output as an io.Reader for the line reader. It
// returns what has arrived even after the deadline, so a line already
// there is delivered to a Receive whose deadline has passed.
type upReader struct{ p *pipe }

func (r upReader) Read(b []byte) (int, error) {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		switch {
		case p.closed:
			return 0, errClosedByReferee
		case len(p.up) > 0:
			n := copy(b, p.up)
			p.up = append(p.up[:0], p.up[n:]...)
			p.signal() // room for the bot's Write
			return n, nil
		case p.upEOF:
			return 0, io.EOF
		}
		if !p.wait(p.readDeadline) {
			return 0, os.ErrDeadlineExceeded
		}
	}
}

// Send queues line for the bot, waiting while more than pipeBuffer bytes
// are unread. A line goes in whole, and one longer than pipeBuffer goes
// once the bot has read everything before it.
func (c *pipeConn) Send(line []byte, deadline time.Time) error {
	p := c.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for waited := false; ; waited = true {
		switch {
		case p.closed:
			return errClosedByReferee
		case p.exited:
			return errBotExited
		case !time.Now().Before(deadline):
			if !waited {
				return ErrDeadlinePast
			}
			return fmt.Errorf("%w: bot did not read its input", ErrTimeout)
		case p.downBytes == 0 || p.downBytes+len(line)+1 <= pipeBuffer:
			p.down = append(p.down, bytes.Clone(line))
			p.downBytes += len(line) + 1
			p.signal()
			return nil
		}
		p.wait(deadline)
	}
}

// Receive returns the next line from the bot.
func (c *pipeConn) Receive(deadline time.Time) ([]byte, error) {
	p := c.p
	p.mu.Lock()
	closed := p.closed
	p.readDeadline = deadline
	p.mu.Unlock()
	if closed {
		// Lines the reader already holds are not handed out either.
		return nil, errClosedByReferee
	}
	line, err := c.lines.ReadLine()
	switch {
	case err == nil:
		return bytes.Clone(line), nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, ErrTimeout
	case errors.Is(err, protocol.ErrLineTooLong):
		return nil, err
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%w: the bot's output ended (%v)", ErrClosed, err)
	}
	return nil, err // errClosedByReferee, from a Close during the read
}

// Close ends the bot: its Receive and Write fail with ErrClosed from now
// on, and nothing either side had not read is kept.
func (c *pipeConn) Close() error {
	p := c.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		p.up, p.down, p.downBytes = nil, nil, 0
		p.signal()
	}
	return nil
}

// PipeBot is the bot's end of a Pipe: what a bot process does with its
// stdin and stdout, done with method calls. Receive may run in one
// goroutine while Write runs in another.
type PipeBot struct{ p *pipe }

// Receive returns the next line the referee sent, without its newline,
// waiting until deadline (ErrTimeout). It fails with ErrClosed once the
// referee closed the Conn or the bot exited.
func (b *PipeBot) Receive(deadline time.Time) ([]byte, error) {
	p := b.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		switch {
		case p.closed:
			return nil, errClosedByReferee
		case p.exited:
			return nil, errBotExited
		case len(p.down) > 0:
			line := p.down[0]
			p.down[0] = nil
			p.down = p.down[1:]
			p.downBytes -= len(line) + 1
			p.signal() // room for Send
			return line, nil
		}
		if !p.wait(deadline) {
			return nil, ErrTimeout
		}
	}
}

// Write writes raw bytes to the bot's output: lines, or any part of one
// (the referee's Receive sees a line once its newline is written). It
// waits while more than 64 KiB are unread, and fails with ErrClosed once
// the referee closed the Conn, or the bot closed its output or exited.
func (b *PipeBot) Write(data []byte) (int, error) {
	p := b.p
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for {
		switch {
		case p.closed:
			return n, errClosedByReferee
		case p.upEOF:
			return n, fmt.Errorf("%w: the bot's output is closed", ErrClosed)
		}
		if room := pipeBuffer - len(p.up); room > 0 && n < len(data) {
			k := min(room, len(data)-n)
			p.up = append(p.up, data[n:n+k]...)
			n += k
			p.signal()
		}
		if n == len(data) {
			return n, nil
		}
		p.sleep(nil) // a pipe's write has no deadline either
	}
}

// CloseWrite closes the bot's output, as a process closing its stdout: the
// referee reads what was written, then ErrClosed. The bot can still
// Receive.
func (b *PipeBot) CloseWrite() error {
	p := b.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.upEOF = true
	p.signal()
	return nil
}

// Exit ends the bot as a process exiting does: what it wrote can still be
// read, then the referee's Receive fails with ErrClosed, and Send fails
// with ErrClosed at once. It is safe to call more than once.
func (b *PipeBot) Exit() error {
	p := b.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exited, p.upEOF = true, true
	p.down, p.downBytes = nil, 0
	p.signal()
	return nil
}
