package usage_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/arena-dev/arena/internal/usage"
)

// said is an error type that decides itself whether it is a mistake.
type said struct {
	mistake bool
	err     error
}

func (s said) Error() string { return "said" }
func (s said) Unwrap() error { return s.err }
func (s said) Usage() bool   { return s.mistake }

var sentinel = usage.New("no such thing")

func TestIs(t *testing.T) {
	plain := errors.New("disk full")
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain", plain, false},
		{"Errorf", usage.Errorf("--games %d: want at least 1", 0), true},
		{"Wrap", usage.Wrap(plain), true},
		{"wrapped further", fmt.Errorf("run: %w", usage.Wrap(plain)), true},
		{"sentinel wrapped", fmt.Errorf("dir: %w", sentinel), true},
		{"joined", errors.Join(plain, usage.Wrap(plain)), true},
		{"joined, none", errors.Join(plain, plain), false},
		{"says no", said{false, plain}, false},
		{"says yes", said{true, plain}, true},
		{"says no, a mistake below", said{false, usage.Wrap(plain)}, true},
		{"Missing, not there", usage.Missing(fmt.Errorf("open x: %w", fs.ErrNotExist)), true},
		{"Missing, other", usage.Missing(fmt.Errorf("open x: %w", fs.ErrPermission)), false},
	} {
		if got := usage.Is(tc.err); got != tc.want {
			t.Errorf("%s: Is(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{usage.Errorf("--seat %d: want 0 to %d", 3, 1), "--seat 3: want 0 to 1"},
		{usage.Wrap(errors.New("bad")), "bad"},
		{sentinel, "no such thing"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
	if usage.Wrap(nil) != nil {
		t.Error("Wrap(nil) is not nil")
	}
	if !errors.Is(fmt.Errorf("x: %w", sentinel), sentinel) {
		t.Error("a sentinel from New is not found by errors.Is")
	}
}
