package sdk

import (
	"io"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// BenchmarkSessionTurn is the Go SDK's own CPU per turn, in process: a
// Session answers real turn lines of two-seat Uno (a single hand, as
// arena/bench's BenchmarkPerMove plays) for a bot that picks a legal index
// at random, as the bundled random bot does. The pipes and the scheduler
// are BenchmarkPerMove's.
func BenchmarkSessionTurn(b *testing.B) {
	turns := testkit.Turns(b, "uno", 2, map[string]string{"target": "0"}, 0, 400)
	s := NewSession(Func(func(t *protocol.Turn) (int, error) { return len(t.Legal) - 1, nil }), Options{Log: io.Discard})
	now := time.Now()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if reply, _, err := s.Handle(turns[i%len(turns)], now); err != nil || len(reply) == 0 {
			b.Fatal(reply, err)
		}
	}
}
