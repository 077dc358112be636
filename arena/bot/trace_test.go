package bot_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
)

// stuckWriter blocks every write until released: a terminal nobody reads.
type stuckWriter struct {
	release chan struct{}
	mu      sync.Mutex
	b       strings.Builder
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// A trace whose output does not keep up never holds up the session it
// traces (whose move clock runs meanwhile): lines beyond its queue are
// dropped and counted, and what was queued is written by Flush.
func TestTraceNeverHoldsUpTheSession(t *testing.T) {
	w := &stuckWriter{release: make(chan struct{})}
	tr := bot.Traced(&membot.Launcher{Policy: membot.First}, w)
	e, err := tr.Launch("a", bot.LaunchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hello := []byte(`{"type":"hello","protocol":1,"game":"banqi","options":{},"seat":0,"seats":2,"players":["a","b"],"match":"m","game_id":"m-g0000","seed":1,"clock":{"startup_ms":1000,"margin_ms":50}}`)
	const rounds = 5000 // 10,000 lines: more than the queue holds
	done := make(chan error, 1)
	go func() {
		for range rounds {
			deadline := time.Now().Add(10 * time.Second)
			if err := e.Send(hello, deadline); err != nil {
				done <- err
				return
			}
			if _, err := e.Receive(deadline); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the session waits for the trace's writer")
	}
	close(w.release)
	e.Close()
	tr.Flush()
	out := w.b.String()
	if !strings.Contains(out, "a #1 > {\"type\":\"hello\"") || !strings.Contains(out, "a #1 < {\"type\":\"ready\"") {
		t.Fatalf("the queued lines are not written:\n%.500s", out)
	}
	if !strings.Contains(out, "lines dropped: the trace's output was slower than the games") {
		t.Errorf("no word of the lines dropped")
	}
}
