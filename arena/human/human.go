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
	"unicode/utf8"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// Seat is the Launcher of a person's seat: In is what they type, Out the
// terminal they read. One session at a time (Capacity): the pool keeps no
// spare, and a second game reuses the session. Timed puts the person on
// the bots' clock: a choice not made by the move's deadline is a timeout,
// as a bot's would be. DropTypeahead, for a terminal, drops what was
// typed before a turn was shown, so that an extra Enter never answers a
// turn unseen; piped input (a script) is read in order. Results says
// that the end of each game is told with GameOver (arena play tells it
// from the game's record): a game's first screen then waits for the
// games before it to be told, so that the person reads how one game
// ended before the next begins.
type Seat struct {
	In            io.Reader
	Out           io.Writer
	Timed         bool
	DropTypeahead bool
	Results       bool

	once  sync.Once
	lines chan string // what the person typed, one line each
	outMu sync.Mutex  // one writer on Out at a time: the sessions, GameOver

	// The game begun last, while its end is still to be told (one at a
	// time: every game has the person's seat, and the seat one session):
	// its ID, and a channel GameOver closes when it tells it. told is
	// nil when there is none.
	mu     sync.Mutex
	untold string
	told   chan struct{}
}

// Say prints each paragraph of text wrapped to the screen.
func (s *Seat) Say(text []string) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	for _, p := range text {
		for _, l := range say(p) {
			io.WriteString(s.Out, l+"\n")
		}
	}
}

// GameOver prints how game gameID ended (Say). With Results, the next
// game's first screen waits for it.
func (s *Seat) GameOver(gameID string, text []string) {
	s.Say(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.told != nil && s.untold == gameID {
		close(s.told)
		s.told = nil
	}
}

// begin notes that game gameID begins, first waiting (with Results) for
// the end of the game before it to be told: until the session ends, or
// for at most half the time left before deadline (the bots' hellos are
// sent after this one, with the same deadline). An end told later than
// that is not waited for again.
func (s *Seat) begin(gameID string, deadline time.Time, ended <-chan struct{}) {
	if !s.Results {
		return
	}
	s.mu.Lock()
	told := s.told
	s.mu.Unlock()
	if told != nil {
		t := time.NewTimer(time.Until(deadline) / 2)
		defer t.Stop()
		select {
		case <-told:
		case <-ended:
			return
		case <-t.C:
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.untold, s.told = gameID, make(chan struct{})
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
func (s *Seat) Launch(string, bot.LaunchOptions) (bot.Endpoint, error) {
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
	sess := &session{seat: s, Ending: NewEnding()}
	return bot.ConnSession{Conn: sess, Ended: sess.Done()}, nil
}

// session is one person's game(s): what the referee sends is drawn, and
// the answers it waits for are queued or asked for.
type session struct {
	*Ending
	seat *Seat

	printed int // rows printed since the person last typed a line (under seat.outMu)
	// shown is the rows from the top of the page last drawn down to the
	// cursor's (under seat.outMu): a refusal that would push the page's
	// top off the screen draws the page again.
	shown int

	mu     sync.Mutex
	seats  names // who sits where in the game being played
	table  game  // the game being played, as drawn and read
	page   page  // the turn as drawn
	ready  bool  // a hello is to be answered
	turnID int64 // the turn to be answered, 0: none
	legal  int   // its number of legal actions
	view   json.RawMessage
}

// Message is every field of a referee line a person's seat reads (this
// terminal's, and the browser's of arena/human/web).
type Message struct {
	Type    string             `json:"type"`
	ID      int64              `json:"id"`
	Game    string             `json:"game"`
	Options map[string]string  `json:"options"`
	Seat    int                `json:"seat"`
	Seats   int                `json:"seats"`
	Players []string           `json:"players"`
	GameID  string             `json:"game_id"`
	View    json.RawMessage    `json:"view"`
	Legal   []json.RawMessage  `json:"legal"`
	Clock   protocol.TurnClock `json:"clock"`
	Ranks   []int              `json:"ranks"`
	Scores  []float64          `json:"scores"`
	Reason  string             `json:"reason"`
	Forfeit []string           `json:"forfeits"`
}

// printf prints, counting the screen's rows, so that a turn's page is
// cut to what the screen has left.
func (s *session) printf(format string, a ...any) {
	text := fmt.Sprintf(format, a...)
	s.seat.outMu.Lock()
	defer s.seat.outMu.Unlock()
	n := rowsOf(text)
	s.printed += n
	s.shown += n
	io.WriteString(s.seat.Out, text)
}

// rowsOf is the rows of the screen text takes: one a line, more for a
// line wider than the screen; what follows the last newline (a prompt)
// is on the cursor's row.
func rowsOf(text string) int {
	lines := strings.Split(text, "\n")
	n := 0
	for _, l := range lines[:len(lines)-1] {
		n += 1 + max(utf8.RuneCountInString(l)-1, 0)/screenCols
	}
	return n
}

// rows is how many lines are left on the screen for a page and the
// prompt under it.
func (s *session) rows() int {
	s.seat.outMu.Lock()
	defer s.seat.outMu.Unlock()
	return screenRows - 1 - s.printed
}

// freshScreen notes that the screen starts afresh: the person typed a
// line (the screen has scrolled to it, the prompt's row with it), or a
// game begins.
func (s *session) freshScreen() {
	s.seat.outMu.Lock()
	defer s.seat.outMu.Unlock()
	s.printed = 0
	s.shown++
}

// drawPage prints lines, a page (with the legend above it: top lines),
// as the top of what must stay on screen.
func (s *session) drawPage(lines []string) {
	s.println(lines)
	s.seat.outMu.Lock()
	defer s.seat.outMu.Unlock()
	s.shown = len(lines)
}

// refuse prints why the person's line was not a move, first drawing the
// turn's page again if the message would push its top off the screen.
func (s *session) refuse(msg []string) {
	s.seat.outMu.Lock()
	full := s.shown+len(msg)+1 > screenRows // and the prompt's row
	s.seat.outMu.Unlock()
	if full {
		s.drawPage(s.page.lines(screenRows-1-len(msg), true))
	}
	s.println(msg)
}

func (s *session) println(lines []string) {
	for _, l := range lines {
		s.printf("%s\n", l)
	}
}

// Send takes a line from the referee: a hello is to be answered ready, a
// turn is drawn with its choices, the end of a game is shown.
func (s *session) Send(line []byte, deadline time.Time) error {
	m, err := s.Read(line)
	if err != nil {
		return err
	}
	if m.Type == protocol.TypeHello {
		s.seat.begin(m.GameID, deadline, s.Done())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case protocol.TypeHello:
		s.ready = true
		s.seats = names{players: m.Players, me: m.Seat}
		s.table = newGame(m.Game, s.seats)
		s.freshScreen() // a new game: its first turn fits under its banner
		s.printf("\n=== %s, game %s\n", m.Game, m.GameID)
		s.println(say(fmt.Sprintf("You are seat %d of %d. Players by seat: %s. Type ? at any prompt for help.", m.Seat, m.Seats, seatList(m.Players, m.Seat))))
	case protocol.TypeTurn:
		s.turnID, s.legal, s.view = m.ID, len(m.Legal), m.View
		s.page = s.table.show(m.View, m.Legal)
		s.printf("\n")
		s.drawPage(s.page.lines(s.rows(), true))
	case protocol.TypeEnd:
		// The last page, and room under it for how the game ended:
		// GameOver's lines, or the end's reason.
		pg := s.table.show(m.View, nil)
		s.printf("\n")
		s.println(pg.lines(s.rows()-resultRows, true))
		if !s.seat.Results {
			s.println(say("=== Game over: " + engine.NameSeats(m.Reason, s.seats.players) + "."))
		}
	case protocol.TypeBye:
		s.printf("=== the match is over\n")
		s.End(nil)
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
		case <-s.Done():
			return nil, s.Err()
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
		case <-s.Done():
			return nil, s.Err()
		case <-timeout:
			s.printf("\n=== out of time for turn %d\n", id)
			s.mu.Lock()
			s.turnID = 0
			s.mu.Unlock()
			return nil, transport.ErrTimeout
		case t, ok := <-s.seat.lines:
			if !ok {
				s.printf("\n")
				s.mu.Lock()
				s.leave(errEOF, "Your input ended, so you left the game")
				s.mu.Unlock()
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
		s.leave(errQuit, "You left the game")
		return nil, true, errQuit
	case "?", "h", "help":
		legend := s.table.legend()
		s.drawPage(append(legend, s.page.lines(s.rows()-len(legend), false)...))
		return nil, false, nil
	case "v":
		s.printf("%s\n", s.view)
		return nil, false, nil
	case "":
		s.refuse([]string{"Type your move (? for help, q to leave)."})
		return nil, false, nil
	}
	k, err := strconv.Atoi(text)
	switch {
	case err == nil && (k < 1 || k > s.legal):
		s.refuse(say(fmt.Sprintf("%d is not a choice: a number picks from 1 to %d.", k, s.legal)))
		return nil, false, nil
	case err == nil:
		k--
	default:
		k, err = s.table.read(text)
		if err != nil {
			s.refuse(say(err.Error()))
			return nil, false, nil
		}
	}
	s.turnID = 0
	s.table.chose(k)
	return protocol.AppendIndexAction(nil, id, k), true, nil
}

// resultRows are the rows the last page of a game leaves for how it
// ended (GameOver's lines).
const resultRows = 3

// leave ends the session as the person leaves the game, what in words,
// saying what comes of it: a forfeit, and the other player wins or the
// others play on. (The game's result, GameOver's, does not say it again.)
func (s *session) leave(why error, what string) {
	rest := "; the others play on without you."
	if others := s.seats.others(); len(others) == 1 {
		rest = ": " + others[0] + " wins."
	}
	s.println(say("=== " + what + ", a forfeit" + rest))
	s.End(why)
}

// Ending is the end of a person's session, which comes once: Done is
// closed then, and Err says why. The terminal's seat and the browser's
// (arena/human/web) end alike; a session that embeds it has its Close.
type Ending struct {
	once sync.Once
	done chan struct{}
	err  error
}

// NewEnding is a session's end, still to come.
func NewEnding() *Ending { return &Ending{done: make(chan struct{})} }

// Done is closed when the session has ended.
func (e *Ending) Done() <-chan struct{} { return e.done }

// Err is why the session ended, once Done is closed.
func (e *Ending) Err() error { return e.err }

// End ends the session for why (nil: the referee closed it,
// transport.ErrClosed); a later call changes nothing.
func (e *Ending) End(why error) {
	e.once.Do(func() {
		if why == nil {
			why = transport.ErrClosed
		}
		e.err = why
		close(e.done)
	})
}

// Read is the referee's line to a session that has not ended: its
// fields, or why not (the session's end, or a line that is not a
// message, transport.ErrFault).
func (e *Ending) Read(line []byte) (Message, error) {
	var m Message
	select {
	case <-e.done:
		return m, e.err
	default:
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return m, fmt.Errorf("%w: a person's seat cannot read %q: %v", transport.ErrFault, line, err)
	}
	return m, nil
}

// Close ends the session (End(nil)); it is safe to call more than once.
func (e *Ending) Close() error {
	e.End(nil)
	return nil
}
