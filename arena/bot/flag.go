package bot

import (
	"errors"
	"fmt"
	"strings"
)

// SplitFlag splits a bot given as NAME=CMD at its first '=': the one
// splitter of every bot flag (ParseFlag, a tournament's --bot, which
// lays NAME and CMD over its file). ok is false without '='.
func SplitFlag(flag string) (name, cmdline string, ok bool) {
	return strings.Cut(flag, "=")
}

// ErrMissing is a bot flag a command requires that was not given.
var ErrMissing = errors.New("NAME=CMD is required")

// FlagError is a bot given to a command line flag that cannot be used:
// the flag's name (without dashes), the value given, and why (ErrFlag,
// ErrNoCommand, ErrMissing, a *SpecError or a *DuplicateNameError). Its text names
// the flag and the value as the arena's usage errors do.
type FlagError struct {
	Flag, Value string
	Err         error
}

func (e *FlagError) Error() string {
	var se *SpecError
	var dup *DuplicateNameError
	switch {
	case errors.Is(e.Err, ErrMissing):
		return fmt.Sprintf("--%s %v", e.Flag, e.Err)
	case errors.Is(e.Err, ErrFlag), errors.Is(e.Err, ErrNoCommand):
		return fmt.Sprintf("--%s %q: want NAME=CMD", e.Flag, e.Value)
	case errors.As(e.Err, &dup):
		return fmt.Sprintf("--%s %q: name %q is used twice", e.Flag, e.Value, dup.Name)
	case errors.As(e.Err, &se) && se.Field == FieldName:
		return fmt.Sprintf("--%s %q: %v", e.Flag, e.Value, e.Err)
	case errors.As(e.Err, &se):
		return fmt.Sprintf("--%s %s: %v", e.Flag, se.Bot, e.Err)
	}
	return e.Err.Error()
}

func (e *FlagError) Unwrap() error { return e.Err }

// parseFlagOf parses the value of one --flag NAME=CMD (ParseFlag); a
// mistake is a *FlagError.
func parseFlagOf(flag, value string) (Spec, error) {
	s, err := ParseFlag(value)
	if err != nil {
		return s, &FlagError{Flag: flag, Value: value, Err: err}
	}
	return s, nil
}

// ParseRequiredFlag is parseFlagOf for a flag a command cannot do
// without: an empty value is ErrMissing.
func ParseRequiredFlag(flag, value string) (Spec, error) {
	if strings.TrimSpace(value) == "" {
		return Spec{}, &FlagError{Flag: flag, Value: value, Err: ErrMissing}
	}
	return parseFlagOf(flag, value)
}

// ParseFlags parses the values of a repeated --flag NAME=CMD, one bot
// each, in order; a mistake, a name given twice among them too, is a
// *FlagError about the first value at fault.
func ParseFlags(flag string, values []string) ([]Spec, error) {
	var out []Spec
	for _, v := range values {
		s, err := parseFlagOf(flag, v)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if err := CheckNames(out); err != nil {
			return nil, &FlagError{Flag: flag, Value: v, Err: err}
		}
	}
	return out, nil
}
