package transport

import (
	"errors"
	"fmt"
	"time"
)

// Broken is a Conn for a bot that could not be started: every call fails
// with ErrClosed and the start error, so the referee records a failure for
// that seat instead of the arena giving up on the match. A cause that is
// the transport's own failure (ErrFault) stays one: the game is then the
// arena's to replay, not the bot's failure; one that is a timeout
// (ErrTimeout: a remote bot not served in time) stays one too.
func Broken(cause error) Conn { return broken{cause} }

type broken struct{ cause error }

func (b broken) err() error {
	if errors.Is(b.cause, ErrFault) || errors.Is(b.cause, ErrTimeout) {
		return b.cause // a bot that was not there in time is late, not crashed
	}
	return fmt.Errorf("%w: %v", ErrClosed, b.cause)
}

func (b broken) Send([]byte, time.Time) error      { return b.err() }
func (b broken) Receive(time.Time) ([]byte, error) { return nil, b.err() }
func (b broken) Close() error                      { return nil }
