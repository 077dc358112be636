// Package membot runs bots in memory, for tests and benchmarks of the
// arena itself: each session is a goroutine on a transport.Pipe that
// speaks the protocol (ready to hello, a reply to each turn, exit on bye)
// and answers turns with a Go function. A whole game then costs only the
// referee's and the engine's work, with no process to start.
package membot

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// Policy answers one turn with a line (no newline), or nil for no
// answer. rng is seeded from the session's hello (its seed and seat), so
// a game replayed with the same seed is played the same way.
type Policy func(turn *protocol.Turn, rng *rand.Rand) []byte

// First answers with the first legal action.
func First(turn *protocol.Turn, _ *rand.Rand) []byte {
	return fmt.Appendf(nil, `{"type":"action","id":%d,"index":0}`, turn.ID)
}

// Random answers with a legal action drawn from rng.
func Random(turn *protocol.Turn, rng *rand.Rand) []byte {
	return fmt.Appendf(nil, `{"type":"action","id":%d,"index":%d}`, turn.ID, rng.IntN(len(turn.Legal)))
}

// idle is how long a session waits for its next line before it gives up
// (a referee that forgot it).
const idle = time.Minute

// Session is one running in-memory bot: a bot.Endpoint.
type Session struct {
	bot.ConnSession
	done chan struct{}
	// Byes is set once the session got bye (and so exited as a bot must).
	Byes atomic.Bool
}

// Start runs a session playing policy; hold, if not nil, is received from
// before each answer (a bot the caller lets move one turn at a time).
// maxLine bounds the lines it may send, as transport.Pipe does.
func Start(policy Policy, hold <-chan struct{}, maxLine int) *Session {
	conn, end := transport.Pipe(maxLine)
	s := &Session{done: make(chan struct{})}
	s.ConnSession = bot.ConnSession{Conn: conn, Ended: s.done}
	go func() {
		defer close(s.done)
		defer end.Exit()
		var rng *rand.Rand
		for {
			line, err := end.Receive(time.Now().Add(idle))
			if err != nil {
				return
			}
			var reply []byte
			switch typ, _ := protocol.PeekType(line); typ {
			case protocol.TypeHello:
				var h protocol.Hello
				if json.Unmarshal(line, &h) != nil {
					return
				}
				rng = rand.New(rand.NewPCG(h.Seed, uint64(h.Seat)))
				reply = protocol.Line(protocol.Ready{Type: protocol.TypeReady})
			case protocol.TypeTurn:
				var turn protocol.Turn
				if json.Unmarshal(line, &turn) != nil || rng == nil {
					return
				}
				if hold != nil {
					if _, ok := <-hold; !ok {
						return
					}
				}
				reply = policy(&turn, rng)
			case protocol.TypeBye:
				s.Byes.Store(true)
				return
			}
			if reply != nil {
				if _, err := end.Write(append(reply, '\n')); err != nil {
					return
				}
			}
		}
	}()
	return s
}

// Launcher is a bot.Launcher of in-memory sessions playing Policy.
type Launcher struct {
	Policy Policy
	// Hold, if not nil, is received from before every answer of every
	// session; closing it lets all go.
	Hold chan struct{}

	mu       sync.Mutex
	sessions []*Session // those that may still be running
	// ended counts the sessions dropped from sessions once ended, and
	// endedByes those of them that got bye: a launcher of a long run
	// (a ladder's million games) keeps no ended session.
	ended, endedByes int
}

// Launch starts a session.
func (l *Launcher) Launch(_ string, opt bot.LaunchOptions) (bot.Endpoint, error) {
	s := Start(l.Policy, l.Hold, opt.MaxLine)
	l.mu.Lock()
	l.sessions = slices.DeleteFunc(l.sessions, func(s *Session) bool {
		select {
		case <-s.done:
			l.ended++
			if s.Byes.Load() {
				l.endedByes++
			}
			return true
		default:
			return false
		}
	})
	l.sessions = append(l.sessions, s)
	l.mu.Unlock()
	return s, nil
}

// Launched counts the sessions started, and Byes those that got bye.
func (l *Launcher) Launched() (launched, byes int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	byes = l.endedByes
	for _, s := range l.sessions {
		if s.Byes.Load() {
			byes++
		}
	}
	return l.ended + len(l.sessions), byes
}

var _ bot.Endpoint = (*Session)(nil)
