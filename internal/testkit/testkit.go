// Package testkit holds small helpers that tests in several of the
// arena's packages need alike, so that each is written (and fixed) once.
package testkit

import (
	"bytes"
	"sync"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// SyncBuffer is a bytes.Buffer safe for concurrent use: a warning or log
// sink written by the code's goroutines while the test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Setup looks up the registered game by name and sets up its options for
// seats seats (engine.Setup), failing the test on any error: the first
// step of every test that plays a game by name.
func Setup(t testing.TB, game string, seats int, options map[string]string) (engine.Game, engine.Options) {
	t.Helper()
	g, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := engine.Setup(g, seats, options)
	if err != nil {
		t.Fatal(err)
	}
	return g, opts
}
