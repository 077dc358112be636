// Package sdk is the smallest way to write an arena bot in Go: implement
// Bot (or use Func) and call Run with stdin and stdout. Run speaks protocol
// v1: it answers hello with ready, each turn with the index your bot
// chooses, and returns when the referee says bye or closes the input.
package sdk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/arena-dev/arena/protocol"
)

// Bot makes the decisions; Run does the talking.
type Bot interface {
	// Start is called on every hello: a new game begins. Returning an error
	// refuses the game (it is sent to the referee as an error message).
	Start(h *protocol.Hello) error
	// Act returns the index in t.Legal of the chosen action.
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

// Options tune Run.
type Options struct {
	// Name and Version are reported in ready.
	Name, Version string
	// MaxLine limits one incoming line (protocol.DefaultMaxLine if 0).
	MaxLine int
}

// Run serves one bot process: many games, until bye or end of input.
func Run(in io.Reader, out io.Writer, bot Bot, opt Options) error {
	if opt.MaxLine <= 0 {
		opt.MaxLine = protocol.DefaultMaxLine
	}
	lr := protocol.NewLineReader(in, opt.MaxLine)
	w := bufio.NewWriter(out)
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
		return w.Flush()
	}
	var reply []byte
	for {
		line, err := lr.ReadLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading from referee: %w", err)
		}
		typ, err := lineType(line)
		if err != nil {
			return fmt.Errorf("bad line from referee: %w", err)
		}
		switch typ {
		case protocol.TypeHello:
			var h protocol.Hello
			if err := json.Unmarshal(line, &h); err != nil {
				return fmt.Errorf("bad hello: %w", err)
			}
			if h.Protocol != protocol.Version {
				msg := fmt.Sprintf("unsupported protocol version %d (this bot speaks %d)", h.Protocol, protocol.Version)
				send(protocol.Error{Type: protocol.TypeError, Message: msg})
				return fmt.Errorf("%s", msg)
			}
			if err := bot.Start(&h); err != nil {
				send(protocol.Error{Type: protocol.TypeError, Message: err.Error()})
				return fmt.Errorf("refused game %s: %w", h.GameID, err)
			}
			if err := send(protocol.Ready{Type: protocol.TypeReady, Name: opt.Name, Version: opt.Version}); err != nil {
				return err
			}
		case protocol.TypeTurn:
			var t protocol.Turn
			if !decodeTurn(line, &t) {
				if err := json.Unmarshal(line, &t); err != nil {
					return fmt.Errorf("bad turn: %w", err)
				}
			}
			i, err := bot.Act(&t)
			if err != nil {
				send(protocol.Error{Type: protocol.TypeError, Message: err.Error()})
				return fmt.Errorf("turn %d: %w", t.ID, err)
			}
			reply = protocol.AppendIndexAction(reply[:0], t.ID, i)
			w.Write(reply)
			if err := w.Flush(); err != nil {
				return err
			}
		case protocol.TypeEnd:
			var e protocol.End
			if err := json.Unmarshal(line, &e); err != nil {
				return fmt.Errorf("bad end: %w", err)
			}
			bot.End(&e)
		case protocol.TypeBye:
			return nil
		default:
			// Unknown message types are ignored, as unknown fields are.
		}
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
			return string(rest[:i]), nil
		}
	}
	return protocol.PeekType(line)
}
