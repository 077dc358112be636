package engineserver

import (
	"errors"
	"fmt"

	"github.com/arena-dev/arena/engine"
)

// Code is the kind of a failed request, the "code" of its error object:
// what a client branches on (the message is for people).
type Code string

// The error codes of docs/engine.md.
const (
	BadRequest   Code = "bad_request"  // not JSON, a missing or mistyped field, an unknown op
	UnknownGame  Code = "unknown_game" // no game by that name
	BadOptions   Code = "bad_options"  // options the referee would refuse
	BadSeats     Code = "bad_seats"    // a seat count or seat out of range
	NoHandle     Code = "no_handle"    // a handle unknown, freed, or of another kind
	Illegal      Code = "illegal"      // an action not legal now
	GameOver     Code = "game_over"    // asked of a finished game where it makes no sense
	NoDecision   Code = "no_decision"  // sample: the last view observed is not the seat's decision
	Inconsistent Code = "inconsistent" // sample: no state fits the views observed
	NoSampler    Code = "no_sampler"   // the game has no hidden information sampler
	Limit        Code = "limit"        // too many live handles
	Internal     Code = "internal"     // a fault of the server or an engine
)

// Error is a failed request: its Code and a message naming what was wrong
// and what to do.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// fail is an *Error of code with a formatted message.
func fail(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// sampleError maps an Observer.Sample error to its code.
func sampleError(err error) *Error {
	switch {
	case errors.Is(err, engine.ErrNoDecision):
		return &Error{Code: NoDecision, Message: err.Error() + ": sample when the observed seat is to act"}
	case errors.Is(err, engine.ErrInconsistent):
		return &Error{Code: Inconsistent, Message: err.Error() + ": feed one seat's views of one game, every one, in order"}
	}
	return &Error{Code: Internal, Message: err.Error()}
}

// codeOf is err's code: Internal for an error that is not an *Error.
func codeOf(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: Internal, Message: err.Error()}
}
