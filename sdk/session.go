package sdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// A Session is the protocol side of one bot process, fed the referee's
// lines one at a time: Run is a loop around it, and sdktest drives it in
// process, without pipes. It answers hello with ready (or error), every
// turn with an action, ignores unknown message types, and reports bye.
type Session struct {
	bot   Bot
	hooks contextual // bot's context-aware methods (a Player), or nil
	opt   Options
	ctx   Context
	reply []byte
	over  bool
}

// contextual is implemented by bots that take the Context (Player): a
// Session calls these instead of Bot's methods.
type contextual interface {
	startWith(c *Context) error
	actWith(c *Context) (int, error)
	endWith(c *Context, e *protocol.End)
}

// NewSession is a session of bot, before its first hello.
func NewSession(bot Bot, opt Options) *Session {
	if opt.MaxLine <= 0 {
		opt.MaxLine = protocol.DefaultMaxLine
	}
	if opt.Log == nil {
		opt.Log = os.Stderr
	}
	s := &Session{bot: bot, opt: opt}
	s.hooks, _ = bot.(contextual)
	s.ctx.log = opt.Log
	s.ctx.newGame(&protocol.Hello{}) // lenient with a turn before any hello
	return s
}

// Context is the session's context: the last hello, the last turn.
func (s *Session) Context() *Context { return &s.ctx }

// Handle answers one line from the referee, read at received. reply is
// the line to write back, newline included (nil when there is none); it
// is valid until the next call. done reports that the session is over:
// after bye, or after an error that ends the process (a protocol version
// this SDK does not speak, a game the bot refused, a line that is not
// JSON), whose error line, if any, is in reply.
func (s *Session) Handle(line []byte, received time.Time) (reply []byte, done bool, err error) {
	if s.over {
		return nil, true, nil
	}
	typ, err := lineType(line)
	if err != nil {
		// As an unknown message: ignored, with a word on the log (so the
		// three SDKs do).
		s.logf("ignoring a line that is not a protocol message (%v): %.200q", err, line)
		return nil, false, nil
	}
	switch typ {
	case protocol.TypeTurn:
		return s.turn(line, received)
	case protocol.TypeHello:
		return s.hello(line)
	case protocol.TypeEnd:
		var e protocol.End
		if err := json.Unmarshal(line, &e); err != nil {
			s.over = true
			return nil, true, fmt.Errorf("bad end: %w", err)
		}
		s.ctx.Turn = nil
		if err := s.end(&e); err != nil {
			s.logf("game %s: end: %v", e.GameID, err)
		}
		return nil, false, nil
	case protocol.TypeBye:
		s.over = true
		return nil, true, nil
	}
	// Unknown message types are ignored, as unknown fields are.
	return nil, false, nil
}

func (s *Session) hello(line []byte) ([]byte, bool, error) {
	h := new(protocol.Hello)
	if err := json.Unmarshal(line, h); err != nil {
		s.over = true
		return nil, true, fmt.Errorf("bad hello: %w", err)
	}
	if h.Protocol != protocol.Version {
		msg := fmt.Sprintf("unsupported protocol version %d (this bot speaks %d)", h.Protocol, protocol.Version)
		return s.refuse(msg, fmt.Errorf("%s", msg))
	}
	s.ctx.newGame(h)
	if err := s.start(h); err != nil && !errors.Is(err, errPanic) {
		return s.refuse(err.Error(), fmt.Errorf("refused game %s: %w", h.GameID, err))
	} // a panic is on the log: the game is played all the same
	s.reply = append(protocol.Line(protocol.Ready{Type: protocol.TypeReady, Name: s.opt.Name, Version: s.opt.Version}), '\n')
	return s.reply, false, nil
}

// refuse ends the session with an error message to the referee.
func (s *Session) refuse(msg string, err error) ([]byte, bool, error) {
	s.over = true
	s.reply = append(protocol.Line(protocol.Error{Type: protocol.TypeError, Message: msg}), '\n')
	return s.reply, true, err
}

func (s *Session) turn(line []byte, received time.Time) ([]byte, bool, error) {
	t := new(protocol.Turn)
	if !decodeTurn(line, t) {
		if err := json.Unmarshal(line, t); err != nil {
			s.over = true
			return nil, true, fmt.Errorf("bad turn: %w", err)
		}
	}
	s.ctx.Turn, s.ctx.Received, s.ctx.note = t, received, nil
	i, err := s.act(t)
	if err != nil {
		i = s.fallback(t, err)
	}
	s.reply = protocol.AppendIndexAction(s.reply[:0], t.ID, i)
	if s.ctx.note != nil {
		// What the bot said goes with the move it is sent with, even a
		// fallback's: it may tell why the bot's own choice failed.
		s.reply = append(s.reply[:len(s.reply)-len("}\n")], `,"note":`...)
		s.reply = append(append(s.reply, s.ctx.note...), "}\n"...)
	}
	return s.reply, false, nil
}

// fallback is the move played when the bot's code failed on turn t: a
// random legal one, with a line on the log saying why.
func (s *Session) fallback(t *protocol.Turn, err error) int {
	i := 0
	if len(t.Legal) > 0 {
		i = s.ctx.Rand.IntN(len(t.Legal))
	}
	s.logf("turn %d: %v; playing legal[%d] instead", t.ID, err, i)
	if s.opt.Fallback != nil {
		s.opt.Fallback(t.ID, err)
	}
	return i
}

// start, act and end call the bot, turning a panic into an error.
func (s *Session) start(h *protocol.Hello) (err error) {
	defer s.recover(&err)
	if s.hooks != nil {
		return s.hooks.startWith(&s.ctx)
	}
	return s.bot.Start(h)
}

func (s *Session) act(t *protocol.Turn) (i int, err error) {
	defer s.recover(&err)
	if s.hooks != nil {
		return s.hooks.actWith(&s.ctx)
	}
	return s.bot.Act(t)
}

func (s *Session) end(e *protocol.End) (err error) {
	defer s.recover(&err)
	if s.hooks != nil {
		s.hooks.endWith(&s.ctx, e)
	} else {
		s.bot.End(e)
	}
	return nil
}

// errPanic marks the error recover makes of a panic in the bot's code:
// a bug to log, never a refusal of the game (which only a returned error
// is).
var errPanic = errors.New("panic")

// recover turns a panic of the bot's code into *err (errPanic); the stack
// goes to the log.
func (s *Session) recover(err *error) {
	if r := recover(); r != nil {
		s.logf("panic: %v\n%s", r, strings.TrimSpace(string(debug.Stack())))
		*err = fmt.Errorf("%w: %v", errPanic, r)
	}
}

// logf writes one of the SDK's own lines to the log.
func (s *Session) logf(format string, args ...any) {
	name := s.opt.Name
	if name == "" {
		name = "sdk"
	}
	fmt.Fprintf(s.opt.Log, "%s: %s\n", name, fmt.Sprintf(format, args...))
}
