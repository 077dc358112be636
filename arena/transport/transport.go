// Package transport is how the referee talks to a bot: a duplex channel of
// protocol lines. The stdio implementation runs the bot as a child process;
// a NATS implementation will satisfy the same Conn interface.
package transport

import (
	"errors"
	"time"
)

// Conn is one bot as the referee sees it.
type Conn interface {
	// Send writes one protocol line; the newline is added. It fails if the
	// bot is gone or does not take the line before deadline.
	Send(line []byte, deadline time.Time) error
	// Receive returns the next line from the bot, waiting until deadline.
	// The slice is owned by the caller.
	Receive(deadline time.Time) ([]byte, error)
	// Close ends the bot at once; it is safe to call more than once.
	Close() error
}

// Errors a Conn reports; the referee maps them to failure reasons.
var (
	// ErrTimeout: nothing arrived (or could be written) before the deadline.
	ErrTimeout = errors.New("timed out")
	// ErrClosed: the bot is gone (exited, closed its output, or was killed).
	ErrClosed = errors.New("connection closed")
)
