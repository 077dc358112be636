package sdk

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// Context is what the SDK knows about the game being played and the turn
// being answered. A Player's functions get it; one Context lives as long
// as the bot's process (Run) and is updated on every hello and turn, so
// keep a pointer to it only within one call.
type Context struct {
	// Hello is this game's hello: game, options, seat, seats, players,
	// game id, seed and clock. Never nil once a game has started.
	Hello *protocol.Hello
	// Turn is the turn being answered, with the view and legal actions as
	// JSON; nil in Start and End.
	Turn *protocol.Turn
	// Received is when the turn's line was read from the referee, the
	// start of this move's time.
	Received time.Time
	// Rand is seeded from hello.seed and the seat (PCG(seed, seat)) on
	// every hello: a bot that draws its randomness from it plays the same
	// moves whenever the match is run with the same --seed.
	Rand *rand.Rand

	log  io.Writer
	note json.RawMessage // this turn's note (Note), sent with its reply
}

// newGame resets c for the game h starts.
func (c *Context) newGame(h *protocol.Hello) {
	c.Hello, c.Turn = h, nil
	c.Rand = rand.New(rand.NewPCG(h.Seed, uint64(h.Seat)))
}

// Game is the game's name ("banqi", "uno", "bounce", "boon").
func (c *Context) Game() string { return c.Hello.Game }

// Seat is this bot's seat, from 0 (the same as the view's own field).
func (c *Context) Seat() int { return c.Hello.Seat }

// Seats is the number of seats in the game.
func (c *Context) Seats() int { return c.Hello.Seats }

// Options are the game's rule options, every one with its value for this
// match (defaults filled in), as strings.
func (c *Context) Options() map[string]string { return c.Hello.Options }

// Option is the value of one rule option ("" if the game has none of
// that name).
func (c *Context) Option(name string) string { return c.Hello.Options[name] }

// OptionInt is an integer rule option (0 if absent or not a number).
func (c *Context) OptionInt(name string) int {
	n, _ := strconv.Atoi(c.Option(name))
	return n
}

// OptionBool is a boolean rule option: true only for "true".
func (c *Context) OptionBool(name string) bool { return c.Option(name) == "true" }

// MoveTime is the time allowed for this reply (turn.clock.move_ms, the
// margin excluded); 0 outside a turn.
func (c *Context) MoveTime() time.Duration {
	if c.Turn == nil {
		return 0
	}
	return time.Duration(c.Turn.Clock.MoveMs) * time.Millisecond
}

// Deadline is when this move's time runs out: the turn's receipt plus
// MoveTime. The referee's margin is not counted in: it is for the
// operating system, not for the bot.
func (c *Context) Deadline() time.Time { return c.Received.Add(c.MoveTime()) }

// TimeLeft is the time until Deadline, 0 once it has passed.
func (c *Context) TimeLeft() time.Duration { return max(time.Until(c.Deadline()), 0) }

// Budget is the moment by which fraction of this move's time is used up,
// from the turn's receipt: a bot that searches until Budget(0.8) leaves a
// fifth of the move for writing its answer and for the unexpected.
func (c *Context) Budget(fraction float64) time.Time {
	return c.Received.Add(time.Duration(fraction * float64(c.MoveTime())))
}

// Note says something with this turn's move, for the people who read the
// replay: what the bot was thinking ("3 candidates, best +0.4"). v is a
// string, or anything that encodes as a JSON object (a struct, a map);
// its JSON must fit protocol.MaxNote (1 KiB). The referee records it in
// the replay beside the move, and the viewer shows it there; no other bot
// is ever sent it. The last call in a turn counts. A note that does not
// encode, or is of another kind or too long, is not sent, with a line on
// the log saying why: the move is sent all the same.
func (c *Context) Note(v any) {
	c.note = nil
	raw, err := json.Marshal(v)
	if err == nil {
		raw, err = protocol.CheckNote(raw)
	}
	if err != nil {
		c.Logf("sdk: note not sent: %v", err)
		return
	}
	c.note = raw
}

// Logf writes one line to the bot's log (stderr unless Options.Log says
// otherwise), which the arena keeps per game with --out. Never write logs
// to stdout: it is for protocol lines only.
func (c *Context) Logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if len(msg) == 0 || msg[len(msg)-1] != '\n' {
		msg += "\n"
	}
	io.WriteString(c.log, msg)
}
