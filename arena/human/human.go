// Package human lets a person take a seat: a bot.Launcher whose session
// is the terminal. The referee talks to it as to any bot, over the same
// protocol lines, so the person sees exactly what a bot in that seat
// would (the seat's view, never more) and plays by the same rules.
//
// The session draws each turn for a terminal of 80 columns by 24 lines
// (screen.go): the Banqi board, the Uno table and hand, the Boon table
// and trick (banqi.go, uno.go, boon.go), what the others did since, in
// sentences, and the choices; it reads the person's move in the game's
// own notation (b3, b3-b4; r7, wd4 green, draw; au14, take), or a
// number, for scripts; ? shows the legend, v the view as JSON, q leaves.
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
// as a bot's would be. DropTypeahead, for a terminal, drops what was
// typed before a turn was shown, so that an extra Enter never answers a
// turn unseen; piped input (a script) is read in order.
type Seat struct {
	In            io.Reader
	Out           io.Writer
	Timed         bool
	DropTypeahead bool

	once  sync.Once
	lines chan string // what the person typed, one line each
}

// The session's end when the person leaves: to the referee the seat has
// gone of its own accord (transport.ErrLeft), recorded as such, not as a
// crash.
var (
	errQuit = fmt.Errorf("%w (typed q)", transport.ErrLeft)
	errEOF  = fmt.Errorf("%w (their input ended)", transport.ErrLeft)
)

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

	outMu   sync.Mutex
	printed int // lines printed since the person last typed one

	mu     sync.Mutex
	table  game  // the game being played, as drawn and read
	page   page  // the turn as drawn
	ready  bool  // a hello is to be answered
	turnID int64 // the turn to be answered, 0: none
	legal  int   // its number of legal actions
	view   json.RawMessage
	err    error // why the session ended, once it has
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

// printf prints, counting the lines, so that a turn's page is cut to
// what the screen has left.
func (s *session) printf(format string, a ...any) {
	text := fmt.Sprintf(format, a...)
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.printed += strings.Count(text, "\n")
	io.WriteString(s.seat.Out, text)
}

// rows is how many lines are left on the screen for a page and the
// prompt under it.
func (s *session) rows() int {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	return screenRows - 1 - s.printed
}

// freshScreen notes that the screen starts afresh: the person typed a
// line (the screen has scrolled to it), or a game begins.
func (s *session) freshScreen() {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.printed = 0
}

func (s *session) println(lines []string) {
	for _, l := range lines {
		s.printf("%s\n", l)
	}
}

// Send takes a line from the referee: a hello is to be answered ready, a
// turn is drawn with its choices, the end of a game is shown.
func (s *session) Send(line []byte, _ time.Time) error {
	select {
	case <-s.ended:
		return s.err
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
		s.ready = true
		s.table = newGame(m.Game, names{players: m.Players, me: m.Seat})
		s.freshScreen() // a new game: its first turn fits under its banner
		s.printf("\n=== %s, game %s\n", m.Game, m.GameID)
		s.println(say(fmt.Sprintf("You are seat %d of %d. Players by seat: %s. Type ? at any prompt for help.", m.Seat, m.Seats, seatList(m.Players, m.Seat))))
	case protocol.TypeTurn:
		s.turnID, s.legal, s.view = m.ID, len(m.Legal), m.View
		s.page = s.table.show(m.View, m.Legal)
		s.printf("\n")
		s.println(s.page.lines(s.rows(), true))
	case protocol.TypeEnd:
		pg := s.table.show(m.View, nil)
		result := say("=== " + s.table.result(m.Ranks, m.Scores, m.Reason))
		s.printf("\n")
		s.println(pg.lines(s.rows()-len(result), true))
		s.println(result)
	case protocol.TypeBye:
		s.printf("=== the match is over\n")
		s.end(nil)
	}
	return nil
}

// seatList is "0 a, 1 you, 2 b".
func seatList(players []string, me int) string {
	n := names{players: players, me: me}
	parts := make([]string, len(players))
	for i := range players {
		parts[i] = strconv.Itoa(i) + " " + n.of(i)
	}
	return strings.Join(parts, ", ")
}

// Receive answers what the referee waits for: ready to a hello, the
// person's choice to a turn, asked for until they give a valid one. It
// waits however long that takes (the seat has no clock) unless the seat
// is Timed, until the session is closed or the person leaves. On a
// terminal, what was typed before the turn was drawn is dropped (and said
// so), so that an extra Enter never answers a turn unseen.
func (s *session) Receive(deadline time.Time) ([]byte, error) {
	s.mu.Lock()
	ready, id, table := s.ready, s.turnID, s.table
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
			return nil, s.err
		case <-t.C:
			return nil, transport.ErrTimeout
		}
	}
	if s.seat.DropTypeahead {
		s.dropTypeahead()
	}
	var timeout <-chan time.Time
	if s.seat.Timed {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	for {
		s.printf("%s", table.prompt())
		var text string
		select {
		case <-s.ended:
			return nil, s.err
		case <-timeout:
			s.printf("\n=== out of time for turn %d\n", id)
			s.mu.Lock()
			s.turnID = 0
			s.mu.Unlock()
			return nil, transport.ErrTimeout
		case t, ok := <-s.seat.lines:
			if !ok {
				s.printf("\n=== your input ended: you left the game, a forfeit (recorded as %q); the others play on\n", protocol.ReasonLeft)
				s.end(errEOF)
				return nil, errEOF
			}
			text = strings.TrimSpace(t)
		}
		s.freshScreen()
		if reply, done, err := s.entry(id, text); done {
			return reply, err
		}
	}
}

// dropTypeahead drops the lines typed before the turn was shown.
func (s *session) dropTypeahead() {
	for {
		select {
		case t, ok := <-s.seat.lines:
			if !ok {
				return
			}
			s.printf("(dropped %q, typed before this turn was shown)\n", t)
		default:
			return
		}
	}
}

// entry acts on a line the person typed at turn id: a command, or their
// move. done is false while the turn is still to be answered (a command,
// or a move that was refused with a message).
func (s *session) entry(id int64, text string) (reply []byte, done bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch strings.ToLower(text) {
	case "q", "quit", "exit":
		s.printf("=== you left the game: a forfeit (recorded as %q); the others play on\n", protocol.ReasonLeft)
		s.end(errQuit)
		return nil, true, errQuit
	case "?", "h", "help":
		legend := s.table.legend()
		s.println(legend)
		s.println(s.page.lines(s.rows(), false))
		return nil, false, nil
	case "v":
		s.printf("%s\n", s.view)
		return nil, false, nil
	case "":
		s.printf("Type your move (? for help, q to leave).\n")
		return nil, false, nil
	}
	k, err := strconv.Atoi(text)
	switch {
	case err == nil && (k < 1 || k > s.legal):
		s.printf("%d is not a choice: a number picks from 1 to %d.\n", k, s.legal)
		return nil, false, nil
	case err == nil:
		k--
	default:
		k, err = s.table.read(text)
		if err != nil {
			s.println(say(err.Error()))
			return nil, false, nil
		}
	}
	s.turnID = 0
	s.table.chose(k)
	return protocol.AppendIndexAction(nil, id, k), true, nil
}

// end ends the session, for why (nil: the referee ended it).
func (s *session) end(why error) {
	s.once.Do(func() {
		if why == nil {
			why = transport.ErrClosed
		}
		s.err = why
		close(s.ended)
	})
}

// Close ends the session; it is safe to call more than once.
func (s *session) Close() error {
	s.end(nil)
	return nil
}
