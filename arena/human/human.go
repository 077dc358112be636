// Package human lets a person take a seat: a bot.Launcher whose session
// is the terminal. The referee talks to it as to any bot, over the same
// protocol lines, so the person sees exactly what a bot in that seat
// would (the seat's view, never more) and plays by the same rules; the
// session draws each view (view.go), numbers the legal actions and reads
// the person's choice.
//
// The seat has no clock unless Seat.Timed: its Receive waits for the
// person however long they take (the referee judges a reply the transport
// delivered as in time, and records the think time capped at the move's
// limit).
package human

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// Seat is the Launcher of a person's seat: In is what they type, Out the
// terminal they read. One session at a time (Capacity): the pool keeps no
// spare, and a second game reuses the session. Timed puts the person on
// the bots' clock: a choice not made by the move's deadline is a timeout,
// as a bot's would be.
type Seat struct {
	In    io.Reader
	Out   io.Writer
	Timed bool

	once  sync.Once
	lines chan string // what the person typed, one line each
}

// errQuit is the session's end when the person quits (q, or the end of
// their input): to the referee, the bot has gone (transport.ErrClosed).
var errQuit = fmt.Errorf("%w: the person at the terminal left the game", transport.ErrClosed)

// Capacity is 1: one person, one session.
func (s *Seat) Capacity() int { return 1 }

// Launch starts a session. Typed lines are read by one goroutine for the
// life of the Seat, so that a session's end never loses a line typed for
// the next.
func (s *Seat) Launch(name string, _ bot.LaunchOptions) (bot.Endpoint, error) {
	s.once.Do(func() {
		s.lines = make(chan string)
		go func() {
			sc := bufio.NewScanner(s.In)
			for sc.Scan() {
				s.lines <- sc.Text()
			}
			close(s.lines)
		}()
	})
	sess := &session{seat: s, name: name, ended: make(chan struct{})}
	return bot.ConnSession{Conn: sess, Ended: sess.ended}, nil
}

// session is one person's game(s): what the referee sends is drawn, and
// the answers it waits for are queued or asked for.
type session struct {
	seat  *Seat
	name  string
	ended chan struct{}
	once  sync.Once

	mu      sync.Mutex
	game    string
	me      int
	ready   bool  // a hello is to be answered
	turnID  int64 // the turn to be answered, 0: none
	choices int   // its legal actions
	view    json.RawMessage
}

// message is every field of a referee line the session reads.
type message struct {
	Type    string            `json:"type"`
	ID      int64             `json:"id"`
	Game    string            `json:"game"`
	Seat    int               `json:"seat"`
	Seats   int               `json:"seats"`
	Players []string          `json:"players"`
	GameID  string            `json:"game_id"`
	View    json.RawMessage   `json:"view"`
	Legal   []json.RawMessage `json:"legal"`
	Ranks   []int             `json:"ranks"`
	Scores  []float64         `json:"scores"`
	Reason  string            `json:"reason"`
}

func (s *session) printf(format string, a ...any) { fmt.Fprintf(s.seat.Out, format, a...) }

// Send takes a line from the referee: a hello is to be answered ready, a
// turn is drawn with its numbered choices, the end of a game is shown.
func (s *session) Send(line []byte, _ time.Time) error {
	select {
	case <-s.ended:
		return errQuit
	default:
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		return fmt.Errorf("%w: the human seat cannot read %q: %v", transport.ErrFault, line, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case protocol.TypeHello:
		s.game, s.me, s.ready = m.Game, m.Seat, true
		s.printf("\n=== %s, game %s: you are seat %d of %d (players by seat: %s)\n",
			m.Game, m.GameID, m.Seat, m.Seats, strings.Join(m.Players, ", "))
	case protocol.TypeTurn:
		s.turnID, s.choices, s.view = m.ID, len(m.Legal), m.View
		s.printf("\n%s\n", Render(s.game, m.View))
		s.printf("your move (turn %d):\n", m.ID)
		for i, a := range m.Legal {
			s.printf("  %2d  %s\n", i+1, actionText(s.game, a))
		}
	case protocol.TypeEnd:
		s.printf("\n%s\n", Render(s.game, m.View))
		result := "game over"
		if s.me < len(m.Ranks) {
			result = fmt.Sprintf("game over, you ranked %d of %d", m.Ranks[s.me], len(m.Ranks))
		}
		s.printf("=== %s: %s (ranks %v, scores %v)\n", result, m.Reason, m.Ranks, m.Scores)
	case protocol.TypeBye:
		s.printf("=== the match is over\n")
		s.once.Do(func() { close(s.ended) })
	}
	return nil
}

// Receive answers what the referee waits for: ready to a hello, the
// person's choice to a turn, asked for until they give a valid one. It
// waits however long that takes (the seat has no clock) unless the seat
// is Timed, until the session is closed or the person quits. What was
// typed before the turn was drawn is dropped (and said so), so that an
// extra Enter never answers a turn unseen.
func (s *session) Receive(deadline time.Time) ([]byte, error) {
	s.mu.Lock()
	ready, id, n := s.ready, s.turnID, s.choices
	s.ready = false
	s.mu.Unlock()
	if ready {
		return []byte(`{"type":"ready","name":"human"}`), nil
	}
	if id == 0 {
		// Nothing is asked of the person (the referee's last look after
		// a timeout): nothing comes but the deadline or the end.
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		select {
		case <-s.ended:
			return nil, errQuit
		case <-t.C:
			return nil, transport.ErrTimeout
		}
	}
	for dropped := true; dropped; {
		select {
		case t, ok := <-s.seat.lines:
			if ok {
				s.printf("(dropped %q, typed before this turn was shown)\n", t)
			}
			dropped = ok
		default:
			dropped = false
		}
	}
	var timeout <-chan time.Time
	if s.seat.Timed {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	for {
		s.printf("choose 1-%d (v: the view as JSON, q: leave the game): ", n)
		var text string
		select {
		case <-s.ended:
			return nil, errQuit
		case <-timeout:
			s.printf("\n=== out of time for turn %d\n", id)
			s.mu.Lock()
			s.turnID = 0
			s.mu.Unlock()
			return nil, transport.ErrTimeout
		case t, ok := <-s.seat.lines:
			if !ok {
				s.Close()
				return nil, errQuit
			}
			text = strings.TrimSpace(t)
		}
		switch text {
		case "q", "quit":
			s.printf("=== you left the game: that is a forfeit, and the others play on\n")
			s.Close()
			return nil, errQuit
		case "v":
			s.mu.Lock()
			s.printf("%s\n", s.view)
			s.mu.Unlock()
			continue
		}
		k, err := strconv.Atoi(text)
		if err != nil || k < 1 || k > n {
			s.printf("%q is not a choice\n", text)
			continue
		}
		s.mu.Lock()
		s.turnID = 0
		s.mu.Unlock()
		return protocol.AppendIndexAction(nil, id, k-1), nil
	}
}

// Close ends the session; it is safe to call more than once.
func (s *session) Close() error {
	s.once.Do(func() { close(s.ended) })
	return nil
}
