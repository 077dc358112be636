package transport_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// Pipe(0) takes the protocol's default limit, as ProcessConfig does.
func TestPipeDefaultMaxLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		size    int
		tooLong bool
	}{{protocol.DefaultMaxLine, false}, {protocol.DefaultMaxLine + 1, true}} {
		c, bot := transport.Pipe(0)
		wrote := make(chan struct{})
		go func() { // more than the pipe holds: it waits for Receive
			defer close(wrote)
			fmt.Fprintf(bot, "%s\n", strings.Repeat("a", tc.size))
		}()
		line, err := c.Receive(in(10 * time.Second))
		if got := errors.Is(err, protocol.ErrLineTooLong); got != tc.tooLong || (err == nil && len(line) != tc.size) {
			t.Errorf("a %d-byte line under the default limit: %d bytes, %v", tc.size, len(line), err)
		}
		c.Close() // ends the writer, blocked after an oversize line
		<-wrote
	}
}

// A message through a Pipe starts no goroutine: the referee's move costs
// what the referee does, not a hand-off per line.
func TestPipeNoGoroutines(t *testing.T) {
	c, bot := transport.Pipe(0)
	defer c.Close()
	before := runtime.NumGoroutine()
	for i := range 1000 {
		if err := c.Send([]byte("turn"), in(10*time.Second)); err != nil {
			t.Fatal(err)
		}
		if _, err := bot.Receive(in(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(bot, "action %d\n", i)
		if _, err := c.Receive(in(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		if n := runtime.NumGoroutine(); n > before {
			t.Fatalf("%d goroutines after %d round trips, %d before", n, i+1, before)
		}
	}
}
