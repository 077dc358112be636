package banqi

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arena-dev/arena/engine"
)

// Kind is what an action does.
type Kind int8

const (
	KindFlip    Kind = 1 // turn a face-down piece up
	KindMove    Kind = 2 // move an own face-up piece one square onto an empty square
	KindCapture Kind = 3 // capture (or, with capture_facedown, attack a face-down piece)
	KindStop    Kind = 4 // end a capture chain (chain_capture only)
)

// Action is one Banqi action. Flips use From == To == the square; Stop
// uses From == To == 0. Actions are plain comparable values.
type Action struct {
	Kind     Kind
	From, To int8
}

// Flip is the flip of sq.
func Flip(sq int) Action { return Action{KindFlip, int8(sq), int8(sq)} }

// Move is a plain move from -> to.
func Move(from, to int) Action { return Action{KindMove, int8(from), int8(to)} }

// Capture is a capture from -> to.
func Capture(from, to int) Action { return Action{KindCapture, int8(from), int8(to)} }

// Stop ends a capture chain.
func Stop() Action { return Action{Kind: KindStop} }

// String is the notation: "b3" for a flip (the revealed piece is only known
// once applied; the View's "last" then says "b3(K)"), "b3-b4" for a move
// or capture, "stop".
func (a Action) String() string {
	switch a.Kind {
	case KindFlip:
		return SquareName(int(a.From))
	case KindMove, KindCapture:
		return SquareName(int(a.From)) + "-" + SquareName(int(a.To))
	case KindStop:
		return "stop"
	}
	return "?"
}

var kindNames = [...]string{KindFlip: "flip", KindMove: "move", KindCapture: "capture", KindStop: "stop"}

// MarshalJSON gives {"type":"flip","square":"b3"},
// {"type":"move","from":"b3","to":"b4"}, {"type":"capture","from":"b3","to":"b5"}
// or {"type":"stop"}.
func (a Action) MarshalJSON() ([]byte, error) {
	if a.Kind < KindFlip || a.Kind > KindStop {
		return nil, fmt.Errorf("banqi: invalid action kind %d", a.Kind)
	}
	return a.AppendJSON(make([]byte, 0, 40)), nil
}

// AppendJSON implements engine.JSONAppender: the MarshalJSON bytes, without
// allocating.
func (a Action) AppendJSON(dst []byte) []byte {
	switch a.Kind {
	case KindFlip:
		dst = append(dst, `{"type":"flip","square":"`...)
		dst = appendSquare(dst, int(a.From))
		return append(dst, `"}`...)
	case KindMove, KindCapture:
		dst = append(dst, `{"type":"`...)
		dst = append(dst, kindNames[a.Kind]...)
		dst = append(dst, `","from":"`...)
		dst = appendSquare(dst, int(a.From))
		dst = append(dst, `","to":"`...)
		dst = appendSquare(dst, int(a.To))
		return append(dst, `"}`...)
	case KindStop:
		return append(dst, `{"type":"stop"}`...)
	}
	return append(dst, "null"...)
}

func appendSquare(dst []byte, sq int) []byte {
	return append(dst, byte('a'+sq%4), byte('8'-sq/4))
}

// UnmarshalJSON accepts what MarshalJSON produces (see ParseAction).
func (a *Action) UnmarshalJSON(raw []byte) error {
	x, err := ParseAction(raw)
	if err != nil {
		return err
	}
	*a = x
	return nil
}

// ParseAction decodes an action JSON object; unknown fields are ignored.
func ParseAction(raw json.RawMessage) (Action, error) {
	var m struct {
		Type   *string `json:"type"`
		Square *string `json:"square"`
		From   *string `json:"from"`
		To     *string `json:"to"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Action{}, fmt.Errorf("banqi action: want a JSON object like {\"type\":\"move\",\"from\":\"b3\",\"to\":\"b4\"}: %v", err)
	}
	if m.Type == nil {
		return Action{}, errors.New(`banqi action: missing "type" (flip, move, capture or stop)`)
	}
	sq := func(field string, v *string) (int, error) {
		if v == nil {
			return 0, fmt.Errorf("banqi %s action: missing %q", *m.Type, field)
		}
		n, err := ParseSquare(*v)
		if err != nil {
			return 0, fmt.Errorf("banqi %s action: %q: %v", *m.Type, field, err)
		}
		return n, nil
	}
	switch *m.Type {
	case "flip":
		s, err := sq("square", m.Square)
		if err != nil {
			return Action{}, err
		}
		return Flip(s), nil
	case "move", "capture":
		f, err := sq("from", m.From)
		if err != nil {
			return Action{}, err
		}
		t, err := sq("to", m.To)
		if err != nil {
			return Action{}, err
		}
		if *m.Type == "move" {
			return Move(f, t), nil
		}
		return Capture(f, t), nil
	case "stop":
		return Stop(), nil
	}
	return Action{}, fmt.Errorf("banqi action: unknown type %q (want flip, move, capture or stop)", *m.Type)
}

// boxed holds every possible action already converted to engine.Action so
// Legal does not allocate per action.
var (
	boxedFlip    [32]engine.Action
	boxedMove    [32][32]engine.Action
	boxedCapture [32][32]engine.Action
	boxedStop    engine.Action = Stop()
)

func init() {
	for f := range 32 {
		boxedFlip[f] = Flip(f)
		for t := range 32 {
			boxedMove[f][t] = Move(f, t)
			boxedCapture[f][t] = Capture(f, t)
		}
	}
}

func (a Action) boxed() engine.Action {
	if a.From < 0 || a.From >= 32 || a.To < 0 || a.To >= 32 {
		return a
	}
	switch a.Kind {
	case KindFlip:
		return boxedFlip[a.From]
	case KindMove:
		return boxedMove[a.From][a.To]
	case KindCapture:
		return boxedCapture[a.From][a.To]
	case KindStop:
		return boxedStop
	}
	return a
}
