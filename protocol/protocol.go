// Package protocol defines the wire messages of arena protocol v1: JSON
// objects, one per line, UTF-8, between the referee and a bot. It is shared
// by the referee, the Go SDK and the bundled bots; docs/protocol.md is the
// contestant-facing description of the same messages.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Version is the major protocol version this package speaks.
const Version = 1

// DefaultMaxLine is the default limit on one line in either direction.
const DefaultMaxLine = 1 << 20

// Message types, the "type" field of every line.
const (
	TypeHello  = "hello"
	TypeReady  = "ready"
	TypeTurn   = "turn"
	TypeAction = "action"
	TypeEnd    = "end"
	TypeBye    = "bye"
	TypeError  = "error"
)

// Clock lists every time limit that applies to a bot, in milliseconds;
// zero means the limit is not in force.
type Clock struct {
	StartupMs int64 `json:"startup_ms"`
	MoveMs    int64 `json:"move_ms,omitempty"`
	BaseMs    int64 `json:"base_ms,omitempty"`
	IncMs     int64 `json:"inc_ms,omitempty"`
	MarginMs  int64 `json:"margin_ms"`
}

// AppendJSON appends c as encoding/json writes it, without reflection
// (a hello and a replay's header carry it, every game).
func (c Clock) AppendJSON(b []byte) []byte {
	b = append(b, `{"startup_ms":`...)
	b = strconv.AppendInt(b, c.StartupMs, 10)
	for _, f := range [...]struct {
		name string
		ms   int64
	}{{`,"move_ms":`, c.MoveMs}, {`,"base_ms":`, c.BaseMs}, {`,"inc_ms":`, c.IncMs}} {
		if f.ms != 0 { // omitempty
			b = append(b, f.name...)
			b = strconv.AppendInt(b, f.ms, 10)
		}
	}
	b = append(b, `,"margin_ms":`...)
	b = strconv.AppendInt(b, c.MarginMs, 10)
	return append(b, '}')
}

// Hello starts a game (referee -> bot). A bot answers Ready.
type Hello struct {
	Type     string            `json:"type"`
	Protocol int               `json:"protocol"`
	Game     string            `json:"game"`
	Options  map[string]string `json:"options"`
	Seat     int               `json:"seat"`
	Seats    int               `json:"seats"`
	Players  []string          `json:"players"`
	Match    string            `json:"match"`
	GameID   string            `json:"game_id"`
	Seed     uint64            `json:"seed"`
	Clock    Clock             `json:"clock"`
}

// Ready acknowledges Hello (bot -> referee).
type Ready struct {
	Type    string `json:"type"`
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
}

// TurnClock is the time a bot has for this move, in milliseconds.
type TurnClock struct {
	// MoveMs is the time allowed for this reply, margin excluded.
	MoveMs int64 `json:"move_ms"`
	// BankMs is the remaining Fischer bank before this move (0 if none).
	BankMs int64 `json:"bank_ms,omitempty"`
}

// Turn asks the bot to act (referee -> bot).
type Turn struct {
	Type  string            `json:"type"`
	ID    int64             `json:"id"`
	View  json.RawMessage   `json:"view"`
	Legal []json.RawMessage `json:"legal"`
	Clock TurnClock         `json:"clock"`
}

// Action answers a Turn (bot -> referee): either Action (one of the legal
// objects) or Index (its position in legal). Note, optional, is what the
// bot says with its move, for the replay (CheckNote judges it).
type Action struct {
	Type   string          `json:"type"`
	ID     int64           `json:"id"`
	Action json.RawMessage `json:"action,omitempty"`
	Index  *int            `json:"index,omitempty"`
	Note   json.RawMessage `json:"note,omitempty"`
}

// End reports the finished game to each seat (referee -> bot).
type End struct {
	Type    string          `json:"type"`
	GameID  string          `json:"game_id"`
	Ranks   []int           `json:"ranks"`
	Scores  []float64       `json:"scores"`
	Reason  string          `json:"reason"`
	Forfeit []string        `json:"forfeits,omitempty"`
	View    json.RawMessage `json:"view"`
}

// Bye tells the bot it will not be needed again: it must exit.
type Bye struct {
	Type string `json:"type"`
}

// Error is what a bot sends when it cannot go on, e.g. a hello with a
// protocol version it does not know. The referee records Message.
type Error struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Envelope decodes just enough of a line to dispatch it.
type Envelope struct {
	Type string `json:"type"`
}

// ErrNotObject is returned for a line that is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// PeekType returns the "type" of a line.
func PeekType(line []byte) (string, error) {
	var e Envelope
	if err := json.Unmarshal(line, &e); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNotObject, err)
	}
	if e.Type == "" {
		return "", fmt.Errorf("missing \"type\" field")
	}
	return e.Type, nil
}

// DecodeIndexAction decodes line when it is an index action written the
// way nearly every bot writes one, byte for byte
// `{"type":"action","id":N,"index":K}` (the SDKs, the bundled bots): the
// referee's fast path past encoding/json. ok is false for any other line,
// which is then decoded in full; for a line it accepts, json.Unmarshal
// into an Action gives the same message (FuzzDecodeIndexAction).
func DecodeIndexAction(line []byte) (msg Action, ok bool) {
	const head, mid = indexActionHead, indexActionMid
	if len(line) < len(head)+len(mid)+3 || string(line[:len(head)]) != head || line[len(line)-1] != '}' {
		return Action{}, false
	}
	rest := line[len(head) : len(line)-1]
	id, n := jsonInt(rest)
	if n == 0 || len(rest) < n+len(mid) || string(rest[n:n+len(mid)]) != mid {
		return Action{}, false
	}
	rest = rest[n+len(mid):]
	index, m := jsonInt(rest)
	if m == 0 || m != len(rest) || int64(int(index)) != index {
		return Action{}, false
	}
	i := int(index)
	return Action{Type: TypeAction, ID: id, Index: &i}, true
}

// The parts of an index action in the form DecodeIndexAction reads.
const indexActionHead, indexActionMid = `{"type":"action","id":`, `,"index":`

// AppendIndexAction appends the reply choosing index to turn id, with its
// newline, in the form the referee reads fastest (DecodeIndexAction).
func AppendIndexAction(b []byte, id int64, index int) []byte {
	b = append(b, indexActionHead...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, indexActionMid...)
	b = strconv.AppendInt(b, int64(index), 10)
	return append(b, "}\n"...)
}

// CutInt reads a JSON integer off the front of b: its value and the rest
// of b; ok is false when b starts with none (or with one past 18 digits).
func CutInt(b []byte) (v int64, rest []byte, ok bool) {
	v, n := jsonInt(b)
	return v, b[n:], n > 0
}

// jsonInt reads a JSON integer at the start of b: its value and length (0
// when b starts with none, or with one past 18 digits, which the full
// decoder judges).
func jsonInt(b []byte) (int64, int) {
	n := 0
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		n++
	}
	start := n
	var v int64
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		v = v*10 + int64(b[n]-'0')
		n++
	}
	digits := n - start
	if digits == 0 || digits > 18 || (digits > 1 && b[start] == '0') {
		return 0, 0
	}
	if neg {
		v = -v
	}
	return v, n
}
