package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/human"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// The kinds of message the page is sent (their "type").
const (
	kindHello   = "hello"   // a game begins: who sits where
	kindTurn    = "turn"    // the seat's view, its legal actions and the turn's clock
	kindChosen  = "chosen"  // the person's move was taken
	kindTimeout = "timeout" // the person's clock ran out (a timed seat)
	kindEnd     = "end"     // the game is over: the seat's last view and the result
	kindResult  = "result"  // how the game ended, in sentences (the record's)
	kindSay     = "say"     // other text for the person (the match's outcome)
	kindLeft    = "left"    // the person left the game
	kindBye     = "bye"     // the match is over
)

// errLeft ends the session when the person leaves from the page: to the
// referee the seat has gone of its own accord, recorded as such.
var errLeft = fmt.Errorf("%w (left from the page)", transport.ErrLeft)

// Seat is the Launcher of a person's seat played in a browser: the
// referee's lines to the seat become messages to the page (the seat's
// views only), and the person's clicks its replies. It is also the
// output.Person arena play tells the results to. Timed puts the person
// on the bots' clock, as human.Seat's Timed does. One session at a time
// (Capacity); its zero value is not ready: use NewSeat. Out, if set,
// also gets the results' lines (the terminal arena play was started in).
type Seat struct {
	Timed bool
	Out   io.Writer

	feed *feed

	mu      sync.Mutex
	turn    int64 // the turn waiting for the person's choice, 0: none
	legal   int   // its number of legal actions
	choices chan choice
	leave   chan struct{} // closed when the person leaves the session's game
}

// choice is a move the person chose on the page.
type choice struct {
	turn  int64
	index int
}

// NewSeat is a seat with nothing yet to show.
func NewSeat() *Seat {
	return &Seat{feed: newFeed(), choices: make(chan choice, 1)}
}

// Capacity is 1: one person, one session.
func (s *Seat) Capacity() int { return 1 }

// Launch starts a session. Leaving a game ends its session only: the
// match's next game (a new session) seats the person again.
func (s *Seat) Launch(string, bot.LaunchOptions) (bot.Endpoint, error) {
	s.mu.Lock()
	s.leave = make(chan struct{})
	sess := &session{Ending: human.NewEnding(), seat: s, leave: s.leave}
	s.mu.Unlock()
	return bot.ConnSession{Conn: sess, Ended: sess.Done()}, nil
}

// GameOver tells the page how game id ended (output.Person).
func (s *Seat) GameOver(id string, lines []string) {
	s.print(lines)
	s.feed.publish(kindResult, struct {
		Type   string   `json:"type"`
		GameID string   `json:"game_id"`
		Lines  []string `json:"lines"`
	}{kindResult, id, lines})
}

// Say tells the page lines of text (output.Person).
func (s *Seat) Say(lines []string) {
	s.print(lines)
	s.feed.publish(kindSay, struct {
		Type  string   `json:"type"`
		Lines []string `json:"lines"`
	}{kindSay, lines})
}

func (s *Seat) print(lines []string) {
	if s.Out != nil {
		for _, l := range lines {
			fmt.Fprintln(s.Out, l)
		}
	}
}

// Close ends the feed: open pages are told nothing more and stop.
func (s *Seat) Close() { s.feed.close() }

// Errors of a move the page sends that is not taken (Choose).
var (
	// ErrNotNow: no turn is waiting, or not the one named (it has passed).
	ErrNotNow = errors.New("no such turn is waiting for your move")
	// ErrNoChoice: the index is not one of the turn's legal actions.
	ErrNoChoice = errors.New("not one of the turn's legal actions")
)

// Choose takes the person's move: the legal action index of turn. A
// turn takes one move; an error is ErrNotNow or ErrNoChoice.
func (s *Seat) Choose(turn int64, index int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case turn == 0 || turn != s.turn:
		return ErrNotNow
	case index < 0 || index >= s.legal:
		return ErrNoChoice
	}
	s.turn = 0
	s.choices <- choice{turn, index} // room for one: one turn waits at a time
	return nil
}

// Leave ends the person's game as a forfeit, recorded as their leaving
// ("left"), as q does at the terminal.
func (s *Seat) Leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leave == nil {
		return
	}
	select {
	case <-s.leave:
	default:
		close(s.leave)
	}
}

// waiting notes that turn (with legal actions) waits for a choice, 0
// none; a choice made for an earlier turn is dropped.
func (s *Seat) waiting(turn int64, legal int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turn, s.legal = turn, legal
	select {
	case <-s.choices:
	default:
	}
}

// session is one game's seat (or several, as the pool reuses it).
type session struct {
	*human.Ending
	seat  *Seat
	leave <-chan struct{} // the seat's, for this session

	mu    sync.Mutex
	game  engine.Game // the game being played (nil: none readable)
	ready bool        // a hello is to be answered
	turn  int64       // the turn to be answered, 0: none
}

// The page's messages. Each names its fields: a referee line is never
// passed on whole, so that nothing but the seat's view and what the
// game's table shows reaches the page (not hello's seed, which is the
// seat's own generator's, nor the match's name).
type (
	helloMsg struct {
		Type    string            `json:"type"`
		Game    string            `json:"game"`
		GameID  string            `json:"game_id"`
		Options map[string]string `json:"options"`
		Seat    int               `json:"seat"`
		Players []string          `json:"players"`
		Timed   bool              `json:"timed"`
	}
	turnMsg struct {
		Type   string            `json:"type"`
		ID     int64             `json:"id"`
		View   json.RawMessage   `json:"view"`
		Legal  []json.RawMessage `json:"legal"`
		Texts  []string          `json:"texts"` // each legal action in the game's notation
		MoveMs int64             `json:"move_ms"`
		BankMs int64             `json:"bank_ms,omitempty"`
	}
	endMsg struct {
		Type     string          `json:"type"`
		View     json.RawMessage `json:"view"`
		Ranks    []int           `json:"ranks"`
		Scores   []float64       `json:"scores"`
		Reason   string          `json:"reason"` // seats named
		Forfeits []string        `json:"forfeits,omitempty"`
	}
	turnRef struct {
		Type  string `json:"type"`
		ID    int64  `json:"id"`
		Index *int   `json:"index,omitempty"` // the legal action chosen
	}
)

// Send takes a line from the referee and tells the page of it.
func (s *session) Send(line []byte, _ time.Time) error {
	m, err := s.Read(line)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	feed := s.seat.feed
	switch m.Type {
	case protocol.TypeHello:
		s.ready = true
		s.game, _ = engine.Lookup(m.Game) // none: actions shown as JSON
		feed.publish(kindHello, helloMsg{kindHello, m.Game, m.GameID, m.Options, m.Seat, m.Players, s.seat.Timed})
	case protocol.TypeTurn:
		s.turn = m.ID
		s.seat.waiting(m.ID, len(m.Legal))
		feed.publish(kindTurn, turnMsg{kindTurn, m.ID, m.View, m.Legal, texts(s.game, m.Legal), m.Clock.MoveMs, m.Clock.BankMs})
	case protocol.TypeEnd:
		s.seat.waiting(0, 0)
		feed.publish(kindEnd, endMsg{kindEnd, m.View, m.Ranks, m.Scores, engine.NameSeats(m.Reason, m.Players), m.Forfeit})
	case protocol.TypeBye:
		feed.publish(kindBye, struct {
			Type string `json:"type"`
		}{kindBye})
		s.End(nil)
	}
	return nil
}

// texts is each legal action in the game's notation (the action's JSON
// when the game cannot read it).
func texts(g engine.Game, legal []json.RawMessage) []string {
	out := make([]string, len(legal))
	for i, raw := range legal {
		out[i] = string(raw)
		if g == nil {
			continue
		}
		if a, err := g.ParseAction(raw); err == nil {
			out[i] = a.String()
		}
	}
	return out
}

// Receive answers what the referee waits for: ready to a hello, the
// person's click to a turn. It waits however long that takes unless the
// seat is Timed, until the session is closed or the person leaves.
func (s *session) Receive(deadline time.Time) ([]byte, error) {
	s.mu.Lock()
	ready, id := s.ready, s.turn
	s.ready = false
	s.mu.Unlock()
	if ready {
		return []byte(`{"type":"ready","name":"human"}`), nil
	}
	var timeout <-chan time.Time
	if s.seat.Timed || id == 0 {
		// Nothing asked of the person (the referee's last look after a
		// timeout) waits for the deadline as a timed turn does.
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	for {
		select {
		case <-s.Done():
			return nil, s.Err()
		case <-s.leave:
			s.seat.feed.publish(kindLeft, turnRef{Type: kindLeft, ID: id})
			s.End(errLeft)
			return nil, errLeft
		case <-timeout:
			s.seat.waiting(0, 0)
			s.mu.Lock()
			s.turn = 0
			s.mu.Unlock()
			if id != 0 {
				s.seat.feed.publish(kindTimeout, turnRef{Type: kindTimeout, ID: id})
			}
			return nil, transport.ErrTimeout
		case c := <-s.seat.choices:
			if c.turn != id {
				continue // a choice for a turn that has passed
			}
			s.mu.Lock()
			s.turn = 0
			s.mu.Unlock()
			s.seat.feed.publish(kindChosen, turnRef{Type: kindChosen, ID: id, Index: &c.index})
			return protocol.AppendIndexAction(nil, id, c.index), nil
		}
	}
}
