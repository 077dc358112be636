package sandbox

import (
	"errors"
	"strings"
	"testing"
)

// TestNewNeedsRunWrapperIfAsked: a program that never called
// RunWrapperIfAsked gets no Sandbox, and an error naming the call, instead
// of bots that run a second copy of the program.
func TestNewNeedsRunWrapperIfAsked(t *testing.T) {
	ready := wrapperReady.Load()
	defer wrapperReady.Store(ready)
	wrapperReady.Store(false)
	_, err := New(DefaultLimits, Options{})
	if !errors.Is(err, errNoWrapper) || !strings.Contains(err.Error(), "sandbox.RunWrapperIfAsked()") {
		t.Fatalf("New in a program that did not call RunWrapperIfAsked: %v, want %v", err, errNoWrapper)
	}
	RunWrapperIfAsked() // not started as the wrapper: it returns
	if !wrapperReady.Load() {
		t.Fatal("RunWrapperIfAsked did not record the call")
	}
}
