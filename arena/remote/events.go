package remote

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/arena-dev/arena/protocol"
)

// EventKind says what an Event is about.
type EventKind int

// Event kinds, in the order a session sees them.
const (
	SessionStarted EventKind = iota // the referee opened a session, and its bot was started
	GameEnded                       // a game of the session ended, and the bot was told its result
	SessionEnded                    // the session is over, its bot ended
)

// Event is what a Server tells its owner as it serves (Server.OnEvent),
// so that whoever runs a bot over NATS (arena connect) sees it play.
type Event struct {
	Kind EventKind
	// Session numbers the server's sessions from 1; Running is how many
	// run once the event happened.
	Session, Running int
	// Game is the game the event is about: for GameEnded the one that
	// ended, for SessionEnded the one the session was playing when it
	// ended, if any (nil: none). A session that ends in a game is most
	// often a forfeit: the referee closes a bot's session when the bot
	// fails, and tells it no result.
	Game *Game
	// Why a session ended (SessionEnded), in words.
	Why string
}

// Game is what a bot is told of a game: its hello, and at its end its
// result (End, nil until then).
type Game struct {
	Hello protocol.Hello
	End   *protocol.End
}

// Place is the bot's finishing place in g, 1 the best; Tied says
// whether another seat shares it. It is 0 before the game's end, and
// for an end whose ranks do not fit the hello's players.
func (g *Game) Place() (place int, tied bool) {
	seat := g.Hello.Seat
	if g.End == nil || len(g.End.Ranks) != len(g.Hello.Players) || seat < 0 || seat >= len(g.End.Ranks) {
		return 0, false
	}
	place = g.End.Ranks[g.Hello.Seat]
	n := 0
	for _, r := range g.End.Ranks {
		if r == place {
			n++
		}
	}
	return place, n > 1
}

// gameWatch follows the games of one session from the referee's lines
// to its bot: a game begins with hello and ends with end (protocol.md,
// lifecycle).
type gameWatch struct {
	onEnd func(*Game) // told of each game that ends (nil: nobody)

	mu   sync.Mutex
	game *Game // the game playing, nil between games
}

// turnPrefix begins every turn line the referee sends (protocol.Line
// writes the type first): the most frequent line, passed without being
// decoded. Any other line is decoded, so a line written otherwise is
// still understood, only later.
var turnPrefix = []byte(`{"type":"` + protocol.TypeTurn + `"`)

// saw takes a line the referee sent the bot, and returns its type ("" a
// turn, or a line it cannot read: the bot's to judge).
func (w *gameWatch) saw(line []byte) string {
	if w == nil || bytes.HasPrefix(line, turnPrefix) {
		return ""
	}
	typ, err := protocol.PeekType(line)
	if err != nil {
		return ""
	}
	switch typ {
	case protocol.TypeHello:
		g := &Game{}
		if json.Unmarshal(line, &g.Hello) != nil {
			return typ
		}
		w.mu.Lock()
		w.game = g
		w.mu.Unlock()
	case protocol.TypeEnd:
		var end protocol.End
		if json.Unmarshal(line, &end) != nil {
			return typ
		}
		w.mu.Lock()
		g := w.game
		w.game = nil
		w.mu.Unlock()
		if g == nil {
			g = &Game{Hello: protocol.Hello{GameID: end.GameID, Seat: -1}}
		}
		g.End = &end
		if w.onEnd != nil {
			w.onEnd(g)
		}
	}
	return typ
}

// playing is a copy of the game under way, nil if none: the watch goes
// on filling in its own (its end) from another goroutine.
func (w *gameWatch) playing() *Game {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.game == nil {
		return nil
	}
	g := *w.game
	return &g
}
