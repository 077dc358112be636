// Package sdk is the Go SDK for arena bots. A bot is one function from
// (view, legal actions, context) to the index of its choice, with optional
// hooks for a game's start and end (Player, NewPlayer); Main runs it on
// stdin and stdout. The SDK does the talking, in protocol v1: hello and
// ready, the protocol version check, echoing turn ids, seeding (Context.Rand
// from hello.seed), many games in one process, end and bye (with stdin
// still open after bye), unknown fields and message types, flushing, and
// logging to stderr. A panic or an error in the bot's code becomes a line
// on stderr and a random legal move, never a silent timeout.
//
// The older interface, Bot with Run, is kept: the bundled bots use it.
// docs/sdk-go.md has the reference and examples; sdktest plays games in
// process for unit tests.
package sdk

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// Bot makes the decisions; Run does the talking. Player is the easier way
// to write one.
type Bot interface {
	// Start is called on every hello: a new game begins. Returning an error
	// refuses the game (it is sent to the referee as an error message).
	Start(h *protocol.Hello) error
	// Act returns the index in t.Legal of the chosen action. An error (or
	// a panic) is logged and a random legal action is played instead. An
	// index out of range is sent as it is (the referee judges it).
	Act(t *protocol.Turn) (int, error)
	// End is called when a game is over.
	End(e *protocol.End)
}

// Func adapts a plain choose function into a Bot that ignores hello/end.
type Func func(t *protocol.Turn) (int, error)

// Start implements Bot.
func (Func) Start(*protocol.Hello) error { return nil }

// Act implements Bot.
func (f Func) Act(t *protocol.Turn) (int, error) { return f(t) }

// End implements Bot.
func (Func) End(*protocol.End) {}

// Options tune Run, Main and a Session.
type Options struct {
	// Name and Version are reported in ready. Main's default Name is the
	// program's file name.
	Name, Version string
	// MaxLine limits one incoming line (protocol.DefaultMaxLine if 0).
	MaxLine int
	// Log receives the SDK's log lines and Context.Logf (os.Stderr if nil).
	Log io.Writer
	// Fallback, if set, is called after the bot's code failed on a turn
	// (an error or a panic; for a Player also an index out of range or an
	// action not in legal) and the SDK played a random legal action
	// instead, already logged.
	Fallback func(turnID int64, err error)
}

// Run serves one bot process: many games, until bye or end of input.
// It returns nil then, and an error for what ends the process early: a
// protocol version it does not speak, a game the bot refused, a line from
// the referee that is not JSON, a failure to read or write.
func Run(in io.Reader, out io.Writer, bot Bot, opt Options) error {
	in, out, restore := pollPipes(in, out)
	defer restore()
	s := NewSession(bot, opt)
	lr := protocol.NewLineReader(in, s.opt.MaxLine)
	w := bufio.NewWriter(out)
	for {
		line, err := lr.ReadLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading from referee: %w", err)
		}
		reply, done, err := s.Handle(line, time.Now())
		if len(reply) > 0 {
			w.Write(reply)
			if ferr := w.Flush(); ferr != nil && err == nil {
				err = ferr
			}
		}
		if done || err != nil {
			return err
		}
	}
}

// Main runs bot on stdin and stdout until bye or the end of input, then
// returns; on an error it writes it to stderr and exits with status 1. It
// is the whole of a bot's main function:
//
//	func main() { sdk.Main(sdk.NewPlayer(act)) }
//
// opts, if given, are Options (only the first is used).
func Main(bot Bot, opts ...Options) {
	var opt Options
	if len(opts) > 0 {
		opt = opts[0]
	}
	if opt.Name == "" {
		opt.Name = filepath.Base(os.Args[0])
	}
	if err := Run(os.Stdin, os.Stdout, bot, opt); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", opt.Name, err)
		os.Exit(1)
	}
}

// lineType is the type of a line from the referee. The referee writes
// the type first (protocol.Line), so reading it there spares decoding
// every turn twice; a line written otherwise is decoded in full.
func lineType(line []byte) (string, error) {
	const head = `{"type":"`
	if bytes.HasPrefix(line, []byte(head)) {
		rest := line[len(head):]
		if i := bytes.IndexByte(rest, '"'); i > 0 && bytes.IndexByte(rest[:i], '\\') < 0 {
			// The protocol's own types as constants: no string made per line.
			switch typ := rest[:i]; string(typ) {
			case protocol.TypeTurn:
				return protocol.TypeTurn, nil
			case protocol.TypeHello:
				return protocol.TypeHello, nil
			case protocol.TypeEnd:
				return protocol.TypeEnd, nil
			case protocol.TypeBye:
				return protocol.TypeBye, nil
			default:
				return string(typ), nil
			}
		}
	}
	return protocol.PeekType(line)
}
