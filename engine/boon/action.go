package boon

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arena-dev/arena/engine"
)

// Kind is what an action does.
type Kind uint8

// Action kinds.
const (
	KindTake Kind = 1 // take the Boon, sight unseen
	KindPass Kind = 2 // pass the Boon to the next seat
	KindBury Kind = 3 // (picker) bury one card face down into the own point pile
	KindPlay Kind = 4 // play a card to the trick
)

var kindNames = [...]string{KindTake: "take", KindPass: "pass", KindBury: "bury", KindPlay: "play"}

// Action is one Boon decision: a plain comparable value. Take and Pass
// have Card 0.
type Action struct {
	Kind Kind
	Card Card
}

// Take is taking the Boon.
func Take() Action { return Action{Kind: KindTake} }

// Pass is passing the Boon.
func Pass() Action { return Action{Kind: KindPass} }

// Bury is burying card c.
func Bury(c Card) Action { return Action{KindBury, c} }

// Play is playing card c.
func Play(c Card) Action { return Action{KindPlay, c} }

// String is the notation: "take", "pass", "bury Au14", "play B5".
func (a Action) String() string {
	switch a.Kind {
	case KindTake, KindPass:
		return kindNames[a.Kind]
	case KindBury, KindPlay:
		return kindNames[a.Kind] + " " + a.Card.String()
	}
	return "?"
}

func (a Action) valid() bool {
	switch a.Kind {
	case KindTake, KindPass:
		return a.Card == 0
	case KindBury, KindPlay:
		return a.Card < NumCards
	}
	return false
}

// MarshalJSON gives {"type":"take"}, {"type":"pass"},
// {"type":"bury","card":"Au14"} or {"type":"play","card":"B5"}.
func (a Action) MarshalJSON() ([]byte, error) {
	if !a.valid() {
		return nil, fmt.Errorf("boon: invalid action %d/%d", a.Kind, a.Card)
	}
	return a.AppendJSON(make([]byte, 0, 32)), nil
}

// AppendJSON implements engine.JSONAppender: the MarshalJSON bytes without
// allocating.
func (a Action) AppendJSON(dst []byte) []byte {
	switch a.Kind {
	case KindTake:
		return append(dst, `{"type":"take"}`...)
	case KindPass:
		return append(dst, `{"type":"pass"}`...)
	case KindBury, KindPlay:
		if a.Card < NumCards {
			dst = append(dst, `{"type":"`...)
			dst = append(dst, kindNames[a.Kind]...)
			dst = append(dst, `","card":"`...)
			dst = append(dst, cardNames[a.Card]...)
			return append(dst, `"}`...)
		}
	}
	return append(dst, "null"...)
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

// ParseAction decodes an action JSON object; unknown fields are ignored
// and the card notation is read case-insensitively.
func ParseAction(raw json.RawMessage) (Action, error) {
	var m struct {
		Type *string `json:"type"`
		Card *string `json:"card"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Action{}, fmt.Errorf("boon action: want a JSON object like {\"type\":\"play\",\"card\":\"B5\"}: %v", err)
	}
	if m.Type == nil {
		return Action{}, errors.New(`boon action: missing "type" (take, pass, bury or play)`)
	}
	switch *m.Type {
	case "take":
		return Take(), nil
	case "pass":
		return Pass(), nil
	case "bury", "play":
		if m.Card == nil {
			return Action{}, fmt.Errorf("boon %s action: missing \"card\"", *m.Type)
		}
		c, err := ParseCard(*m.Card)
		if err != nil {
			return Action{}, fmt.Errorf("boon %s action: \"card\": %v", *m.Type, err)
		}
		if *m.Type == "bury" {
			return Bury(c), nil
		}
		return Play(c), nil
	}
	return Action{}, fmt.Errorf("boon action: unknown type %q (want take, pass, bury or play)", *m.Type)
}

// Every possible action boxed once, so Legal does not allocate per action.
var (
	boxedTake engine.Action = Take()
	boxedPass engine.Action = Pass()
	boxedBury [NumCards]engine.Action
	boxedPlay [NumCards]engine.Action
)

func init() {
	for c := range Card(NumCards) {
		boxedBury[c] = Bury(c)
		boxedPlay[c] = Play(c)
	}
}

func (a Action) boxed() engine.Action {
	switch a.Kind {
	case KindTake:
		return boxedTake
	case KindPass:
		return boxedPass
	case KindBury:
		if a.Card < NumCards {
			return boxedBury[a.Card]
		}
	case KindPlay:
		if a.Card < NumCards {
			return boxedPlay[a.Card]
		}
	}
	return a
}
