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
// (ErrTimeout: a remote bot not served in time) stays one too. A cause's
// hint (HintOf) stays with it either way.
func Broken(cause error) Conn { return broken{cause} }

type broken struct{ cause error }

func (b broken) err() error {
	if errors.Is(b.cause, ErrFault) || errors.Is(b.cause, ErrTimeout) {
		return b.cause // a bot that was not there in time is late, not crashed
	}
	err := fmt.Errorf("%w: %v", ErrClosed, b.cause)
	if h := HintOf(b.cause); h != "" {
		return WithHint(err, h)
	}
	return err
}

func (b broken) Send([]byte, time.Time) error      { return b.err() }
func (b broken) Receive(time.Time) ([]byte, error) { return nil, b.err() }
func (b broken) Close() error                      { return nil }

// Hinter is an error that knows what usually fixes it, when that depends
// on how the bot is reached rather than on the failure's kind alone: a
// remote bot that no one serves needs an arena connect, not a flushed
// ready line (protocol.Reason.Hint, the hint for a bot on stdio).
type Hinter interface {
	error
	Hint() string
}

// WithHint is err with hint (Hinter); err stays in its chain.
func WithHint(err error, hint string) error { return hinted{err, hint} }

type hinted struct {
	err  error
	hint string
}

func (h hinted) Error() string { return h.err.Error() }
func (h hinted) Unwrap() error { return h.err }
func (h hinted) Hint() string  { return h.hint }

// HintOf is the hint of the first Hinter in err's chain, "" if none.
func HintOf(err error) string {
	var h Hinter
	if errors.As(err, &h) {
		return h.Hint()
	}
	return ""
}
