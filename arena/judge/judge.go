// Package judge writes the turn line the referee sends and judges a bot's
// reply to it: which legal action it chose, or what was wrong with it. The
// referee plays every move through it, and so does sdk/sdktest, which
// plays a Go bot's games in process; a Go starter kit carries sdktest, so
// this package needs the standard library, engine and protocol only (no
// transports, no processes).
package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// Problem says what was wrong with a line a bot sent, for a caller that
// explains a failure rather than only records it (arena check); a Fault's
// Detail words the same for a log.
type Problem string

// Problems, in the order the referee looks for them.
const (
	NotUTF8          Problem = "not_utf8"           // the line is not valid UTF-8
	NotJSON          Problem = "not_json"           // not a JSON object, or a field of the wrong type (Err says which)
	ErrorSent        Problem = "error_sent"         // the bot sent an error message
	WrongType        Problem = "wrong_type"         // a message of another type than expected, or of none
	WrongID          Problem = "wrong_id"           // an action whose id is not its turn's
	NoChoice         Problem = "no_choice"          // an action with neither "action" nor "index"
	IndexOutOfRange  Problem = "index_out_of_range" // an index outside legal
	UnreadableAction Problem = "unreadable_action"  // an action object the game cannot read (Err says why)
	NotLegal         Problem = "not_legal"          // an action object that is not among legal
)

// Fault is what was wrong with a reply: the reason recorded, the Problem,
// Detail wording it for a log, the Line it was in, and the cause as a
// value when there is one (a JSON or a game's parse error).
type Fault struct {
	Reason  protocol.Reason
	Problem Problem
	Detail  string
	Line    []byte
	Err     error
}

func (f *Fault) Error() string { return string(f.Reason) + ": " + f.Detail }

func (f *Fault) Unwrap() error { return f.Err }

// Reply judges a bot's reply to turn id, legalJSON being the turn's legal
// actions as they were sent: the position in legalJSON of the action
// chosen, or the fault. (A late answer to an earlier turn, which the
// referee's random policy skips, is judged like any other.)
func Reply(game engine.Game, reply []byte, id int64, legalJSON []json.RawMessage) (int, *Fault) {
	msg, fault := Decode(reply)
	if fault != nil {
		return -1, fault
	}
	return Decide(game, msg, reply, id, legalJSON)
}

// Decode decodes a reply to a turn.
func Decode(reply []byte) (protocol.Action, *Fault) {
	if msg, ok := protocol.DecodeIndexAction(reply); ok {
		return msg, nil // the common reply, past encoding/json
	}
	var msg protocol.Action
	f := &Fault{Reason: protocol.ReasonBadMessage, Line: reply}
	if !utf8.Valid(reply) {
		f.Problem, f.Detail = NotUTF8, fmt.Sprintf("reply is not valid UTF-8: %s", Clip(reply))
		return msg, f
	}
	if err := json.Unmarshal(reply, &msg); err != nil {
		f.Problem, f.Err, f.Detail = NotJSON, err, fmt.Sprintf("not a JSON object (%v): %s", err, Clip(reply))
		return msg, f
	}
	return msg, nil
}

// Decide turns a decoded reply to turn id into the position of a legal
// action, without changing the game on a fault: the engine's Apply is the
// judge of legality, and the engine's legal list, compared through the
// canonical encoding, the single source of truth.
func Decide(game engine.Game, msg protocol.Action, reply []byte, id int64, legalJSON []json.RawMessage) (int, *Fault) {
	fail := func(reason protocol.Reason, p Problem, err error, format string, args ...any) (int, *Fault) {
		return -1, &Fault{Reason: reason, Detail: fmt.Sprintf(format, args...), Problem: p, Line: reply, Err: err}
	}
	switch {
	case msg.Type == protocol.TypeError:
		return fail(protocol.ReasonBadMessage, ErrorSent, nil, "bot sent an error: %s", protocol.ErrorText(reply, ClipLen))
	case msg.Type != protocol.TypeAction:
		return fail(protocol.ReasonBadMessage, WrongType, nil, "expected an action message, got type %q", msg.Type)
	case msg.ID != id:
		return fail(protocol.ReasonBadMessage, WrongID, nil, "reply id %d, expected %d", msg.ID, id)
	}
	if msg.Index != nil {
		i := *msg.Index
		if i < 0 || i >= len(legalJSON) {
			return fail(protocol.ReasonIllegalAction, IndexOutOfRange, nil, "index %d out of range 0..%d", i, len(legalJSON)-1)
		}
		return i, nil
	}
	if len(msg.Action) == 0 || string(msg.Action) == "null" {
		return fail(protocol.ReasonBadMessage, NoChoice, nil, `action message has neither "action" nor "index"`)
	}
	a, err := game.ParseAction(msg.Action)
	if err != nil {
		return fail(protocol.ReasonIllegalAction, UnreadableAction, err, "unreadable action %s: %v", Clip(msg.Action), err)
	}
	canon, err := engine.AppendJSON(nil, a)
	if err != nil {
		return fail(protocol.ReasonIllegalAction, UnreadableAction, err, "%v", err)
	}
	for i := range legalJSON {
		if bytes.Equal(canon, legalJSON[i]) {
			return i, nil
		}
	}
	return fail(protocol.ReasonIllegalAction, NotLegal, nil, "%s (%s) is not a legal action", a, Clip(msg.Action))
}

// AppendTurn appends to b the turn line the referee sends (without its
// newline): turn id, the seat's view, its legal actions and the move's
// clock (bank 0: no bank_ms). offsets receives the start and end in b of
// each legal action's JSON, two per action (LegalJSON slices them).
func AppendTurn(b []byte, offsets []int, id int64, view any, legal []engine.Action, move, bank time.Duration) ([]byte, []int, error) {
	b = append(b, `{"type":"turn","id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"view":`...)
	b, err := engine.AppendJSON(b, view)
	if err != nil {
		return nil, nil, err
	}
	b = append(b, `,"legal":[`...)
	for i, a := range legal {
		if i > 0 {
			b = append(b, ',')
		}
		start := len(b)
		if b, err = engine.AppendJSON(b, a); err != nil {
			return nil, nil, err
		}
		offsets = append(offsets, start, len(b))
	}
	b = append(b, `],"clock":{"move_ms":`...)
	b = strconv.AppendInt(b, move.Milliseconds(), 10)
	if bank > 0 {
		b = append(b, `,"bank_ms":`...)
		b = strconv.AppendInt(b, bank.Milliseconds(), 10)
	}
	return append(b, `}}`...), offsets, nil
}

// LegalJSON appends to dst the legal actions of the turn line AppendTurn
// made, by its offsets: slices of line, valid as long as it is.
func LegalJSON(dst []json.RawMessage, line []byte, offsets []int) []json.RawMessage {
	for i := 0; i+1 < len(offsets); i += 2 {
		dst = append(dst, line[offsets[i]:offsets[i+1]:offsets[i+1]])
	}
	return dst
}

// Clip shows a bot's bytes in a message, ClipLen of them at most.
func Clip(b []byte) string { return protocol.Excerpt(b, ClipLen) }

// ClipLen is how much of a bot's line a message shows.
const ClipLen = 120
