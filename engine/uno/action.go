package uno

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// ActionType is what an action does.
type ActionType uint8

// Action types.
const (
	ActPlay      ActionType = iota + 1 // play a card from the hand
	ActDraw                            // draw (one card, or until playable)
	ActKeep                            // keep the card just drawn
	ActPass                            // pass: nothing can be drawn (both piles empty), or decline a jump-in
	ActChallenge                       // challenge the Wild Draw Four just played on you
	ActAccept                          // take the pending draws
	ActJump                            // jump in out of turn with an identical card
	ActCatch                           // catch the previous player who forgot the call
	ActColour                          // name the colour of a starting Wild
)

var actionNames = [...]string{ActPlay: "play", ActDraw: "draw", ActKeep: "keep", ActPass: "pass",
	ActChallenge: "challenge", ActAccept: "accept", ActJump: "jump", ActCatch: "catch", ActColour: "colour"}

// Action is one Uno decision. Fields not used by the type are NoCard/-1/
// false. Actions are plain comparable values.
type Action struct {
	Type   ActionType
	Card   Card // play, jump
	Colour int8 // colour named by a wild play, or by the colour action; -1 none
	Target int8 // seven_zero: the seat a 7 swaps hands with; -1 none
	Uno    bool // the one-card call on a play that leaves one card
}

// Simple actions.
var (
	Draw      = Action{Type: ActDraw, Card: NoCard, Colour: -1, Target: -1}
	Keep      = Action{Type: ActKeep, Card: NoCard, Colour: -1, Target: -1}
	Pass      = Action{Type: ActPass, Card: NoCard, Colour: -1, Target: -1}
	Challenge = Action{Type: ActChallenge, Card: NoCard, Colour: -1, Target: -1}
	Accept    = Action{Type: ActAccept, Card: NoCard, Colour: -1, Target: -1}
	Catch     = Action{Type: ActCatch, Card: NoCard, Colour: -1, Target: -1}
)

// Play is the play of a coloured card (colour -1) or of a wild naming colour.
func Play(c Card, colour int) Action {
	return Action{Type: ActPlay, Card: c, Colour: int8(colour), Target: -1}
}

// NameColour is the colour choice for a starting Wild.
func NameColour(colour int) Action {
	return Action{Type: ActColour, Card: NoCard, Colour: int8(colour), Target: -1}
}

// WithUno returns a with the call flag set.
func (a Action) WithUno() Action { a.Uno = true; return a }

// WithTarget returns a with a seven_zero swap target.
func (a Action) WithTarget(seat int) Action { a.Target = int8(seat); return a }

// AsJump returns the play a as a jump-in.
func (a Action) AsJump() Action { a.Type = ActJump; return a }

// String is a short notation: "R7", "W:red", "R7>2!" (swap with seat 2,
// with the call), "jump G5", "draw", "keep", "pass", "challenge",
// "accept", "catch", "colour:red".
func (a Action) String() string {
	switch a.Type {
	case ActPlay, ActJump:
		s := a.Card.String()
		if a.Colour >= 0 && a.Colour < 4 {
			s += ":" + ColourNames[a.Colour]
		}
		if a.Target >= 0 {
			s += ">" + strconv.Itoa(int(a.Target))
		}
		if a.Uno {
			s += "!"
		}
		if a.Type == ActJump {
			s = "jump " + s
		}
		return s
	case ActColour:
		if a.Colour >= 0 && a.Colour < 4 {
			return "colour:" + ColourNames[a.Colour]
		}
		return "colour:?"
	}
	if int(a.Type) < len(actionNames) && a.Type > 0 {
		return actionNames[a.Type]
	}
	return "?"
}

// MarshalJSON gives the documented object, e.g. {"type":"play","card":"R7"},
// {"type":"play","card":"WD4","colour":"blue","uno":true},
// {"type":"play","card":"G7","target":2}, {"type":"draw"}.
func (a Action) MarshalJSON() ([]byte, error) {
	if a.Type < ActPlay || a.Type > ActColour {
		return nil, fmt.Errorf("uno: invalid action type %d", a.Type)
	}
	return a.AppendJSON(make([]byte, 0, 64)), nil
}

// AppendJSON implements engine.JSONAppender: the MarshalJSON bytes.
// Field order: type, card, colour, target, uno.
func (a Action) AppendJSON(dst []byte) []byte {
	if a.Type < ActPlay || a.Type > ActColour {
		return append(dst, "null"...)
	}
	dst = append(dst, `{"type":"`...)
	dst = append(dst, actionNames[a.Type]...)
	dst = append(dst, '"')
	if (a.Type == ActPlay || a.Type == ActJump) && int(a.Card) < NumKinds {
		dst = append(dst, `,"card":"`...)
		dst = append(dst, cardNames[a.Card]...)
		dst = append(dst, '"')
	}
	if a.Colour >= 0 && a.Colour < 4 && (a.Type == ActPlay || a.Type == ActJump || a.Type == ActColour) {
		dst = append(dst, `,"colour":"`...)
		dst = append(dst, ColourNames[a.Colour]...)
		dst = append(dst, '"')
	}
	if a.Target >= 0 && (a.Type == ActPlay || a.Type == ActJump) {
		dst = append(dst, `,"target":`...)
		dst = strconv.AppendInt(dst, int64(a.Target), 10)
	}
	if a.Uno && (a.Type == ActPlay || a.Type == ActJump) {
		dst = append(dst, `,"uno":true`...)
	}
	return append(dst, '}')
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

// ParseAction decodes an action JSON object. Unknown fields, and fields
// the type does not use, are ignored; "uno":false is the same as no flag.
func ParseAction(raw json.RawMessage) (Action, error) {
	var m struct {
		Type   *string `json:"type"`
		Card   *string `json:"card"`
		Colour *string `json:"colour"`
		Target *int    `json:"target"`
		Uno    *bool   `json:"uno"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Action{}, fmt.Errorf("uno action: want a JSON object like {\"type\":\"play\",\"card\":\"R7\"}: %v", err)
	}
	if m.Type == nil {
		return Action{}, errors.New(`uno action: missing "type" (play, draw, keep, pass, challenge, accept, jump, catch or colour)`)
	}
	a := Action{Card: NoCard, Colour: -1, Target: -1}
	for t, n := range actionNames {
		if n != "" && n == *m.Type {
			a.Type = ActionType(t)
		}
	}
	colour := func() error {
		if m.Colour == nil {
			return nil
		}
		c, err := ParseColour(*m.Colour)
		if err != nil {
			return fmt.Errorf("uno %s action: %q: %v", *m.Type, "colour", err)
		}
		a.Colour = int8(c)
		return nil
	}
	switch a.Type {
	case 0:
		return Action{}, fmt.Errorf("uno action: unknown type %q (want play, draw, keep, pass, challenge, accept, jump, catch or colour)", *m.Type)
	case ActPlay, ActJump:
		if m.Card == nil {
			return Action{}, fmt.Errorf("uno %s action: missing \"card\"", *m.Type)
		}
		c, err := ParseCard(*m.Card)
		if err != nil {
			return Action{}, fmt.Errorf("uno %s action: \"card\": %v", *m.Type, err)
		}
		a.Card = c
		if err := colour(); err != nil {
			return Action{}, err
		}
		if c.IsWild() && a.Colour < 0 {
			return Action{}, fmt.Errorf("uno %s action: %s needs a \"colour\" (red, yellow, green or blue)", *m.Type, c)
		}
		if !c.IsWild() && a.Colour >= 0 {
			return Action{}, fmt.Errorf("uno %s action: only W and WD4 name a \"colour\"", *m.Type)
		}
		if m.Target != nil {
			if *m.Target < 0 || *m.Target >= MaxSeats {
				return Action{}, fmt.Errorf("uno %s action: \"target\" %d is not a seat", *m.Type, *m.Target)
			}
			a.Target = int8(*m.Target)
		}
		a.Uno = m.Uno != nil && *m.Uno
	case ActColour:
		if m.Colour == nil {
			return Action{}, errors.New(`uno colour action: missing "colour" (red, yellow, green or blue)`)
		}
		if err := colour(); err != nil {
			return Action{}, err
		}
	}
	return a, nil
}
