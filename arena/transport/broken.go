package transport

import (
	"fmt"
	"time"
)

// Broken is a Conn for a bot that could not be started: every call fails
// with ErrClosed and the start error, so the referee records a failure for
// that seat instead of the arena giving up on the match.
func Broken(cause error) Conn { return broken{cause} }

type broken struct{ cause error }

func (b broken) Send([]byte, time.Time) error { return fmt.Errorf("%w: %v", ErrClosed, b.cause) }
func (b broken) Receive(time.Time) ([]byte, error) {
	return nil, fmt.Errorf("%w: %v", ErrClosed, b.cause)
}
func (b broken) Close() error { return nil }
