package remote

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// violationLog writes the server's permission violations (a bot trying
// another's subjects) to w, at most burst per interval: a hostile bot
// makes one per attempt, and could otherwise flood the arena's log. What
// was held back is counted in the next line written. Everything else the
// server says is dropped, as an embedded server says nothing by default.
type violationLog struct {
	w        io.Writer
	burst    int
	interval time.Duration
	names    *strings.Replacer // public key -> the key's name

	mu         sync.Mutex
	windowFrom time.Time
	written    int // in this window
	held       int // not written since the last line
}

// Violation limits: a few lines, then one a while.
const (
	violationBurst    = 5
	violationInterval = 10 * time.Second
)

func newViolationLog(w io.Writer, keys map[string]string) *violationLog {
	var pairs []string
	for name, pub := range keys {
		pairs = append(pairs, "nkey:"+pub, "key "+name)
	}
	return &violationLog{w: w, burst: violationBurst, interval: violationInterval, names: strings.NewReplacer(pairs...)}
}

func (l *violationLog) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	if !strings.Contains(msg, "Violation") {
		return
	}
	msg = l.names.Replace(msg) // name the bot, not its public key
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.windowFrom) >= l.interval {
		l.windowFrom, l.written = now, 0
	}
	if l.written >= l.burst {
		l.held++
		return
	}
	l.written++
	if l.held > 0 {
		msg += fmt.Sprintf(" (and %d more held back)", l.held)
		l.held = 0
	}
	fmt.Fprintf(l.w, "arena: nats: %s\n", msg)
}

func (l *violationLog) Noticef(string, ...any) {}
func (l *violationLog) Warnf(string, ...any)   {}
func (l *violationLog) Fatalf(string, ...any)  {}
func (l *violationLog) Debugf(string, ...any)  {}
func (l *violationLog) Tracef(string, ...any)  {}
