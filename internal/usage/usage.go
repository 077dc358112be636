// Package usage marks the errors that are the command line's mistake (a
// flag's value, an argument, a file named that is not there) rather than
// a failure of what was asked: arena exits 2 for those, 1 for the
// others. Error is the one type that marks them; an error type whose
// package decides case by case (a replay FILE that may be missing or
// damaged) says so itself with a Usage method. Is is the one rule.
package usage

import (
	"errors"
	"fmt"
	"io/fs"
)

// Error is an error that is the command line's mistake.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Usage says e is the command line's mistake.
func (e *Error) Usage() bool { return true }

// New is a sentinel error (for errors.Is) that is the command line's
// mistake wherever it is found.
func New(text string) error { return &Error{errors.New(text)} }

// Errorf is fmt.Errorf's error as the command line's mistake.
func Errorf(format string, args ...any) error { return &Error{fmt.Errorf(format, args...)} }

// Wrap is err as the command line's mistake; nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return &Error{err}
}

// Missing is err as the command line's mistake if it says a file does
// not exist (the file named is the mistake); any other error (a file
// that is there but cannot be read, or is damaged) stays as it is.
func Missing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{err}
	}
	return err
}

// Is says whether err is the command line's mistake: whether any error
// in its tree says so (an Error, or a type whose Usage method says true).
func Is(err error) bool {
	switch e := err.(type) {
	case nil:
		return false
	case interface{ Usage() bool }:
		if e.Usage() {
			return true
		}
	}
	switch e := err.(type) {
	case interface{ Unwrap() error }:
		return Is(e.Unwrap())
	case interface{ Unwrap() []error }:
		for _, w := range e.Unwrap() {
			if Is(w) {
				return true
			}
		}
	}
	return false
}
