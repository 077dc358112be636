package viewer

import (
	"bytes"
	"encoding/json"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
)

// gameRules is what the page's data needs to know about one game beyond
// the engine interface. The zero value (games without an entry) shows
// every move in the game's notation.
type gameRules struct {
	// hidden reports, from the public views before and after, that a
	// move was a decision the other seats are not told of.
	hidden func(before, after fields) bool
	// describe, when set, is the move's text for viewer (-1: a page of
	// every view) given the public view after it; ok false falls back to
	// the action's notation.
	describe func(a engine.Action, mover, viewer int, pub fields) (text string, ok bool)
}

var games = map[string]gameRules{
	// A flip's action names only the square; the public view's "last"
	// says what it revealed ("b3(K)").
	"banqi": {describe: func(_ engine.Action, _, _ int, pub fields) (string, bool) {
		var last string
		if json.Unmarshal(pub["last"], &last) != nil || last == "" {
			return "", false
		}
		return last, true
	}},
	// A buried card is seen by the picker only.
	"boon": {describe: func(a engine.Action, mover, viewer int, _ fields) (string, bool) {
		if ba, ok := a.(boon.Action); ok && ba.Kind == boon.KindBury && viewer >= 0 && viewer != mover {
			return "bury", true
		}
		return "", false
	}},
	// Uno counts in "actions" only the decisions every seat sees: a
	// jump-in poll's pass and a drawn card's keep are not.
	"uno":    {hidden: unoHidden},
	"bounce": {hidden: unoHidden},
}

func unoHidden(before, after fields) bool {
	return bytes.Equal(before["actions"], after["actions"])
}

// rulesOf is game's entry of games.
func rulesOf(game string) gameRules { return games[game] }

// text is the move's text for viewer.
func (g gameRules) text(a engine.Action, mover, viewer int, pub fields) string {
	if g.describe != nil {
		if s, ok := g.describe(a, mover, viewer, pub); ok {
			return s
		}
	}
	return a.String()
}
