package human

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// game is one game as a person sees and plays it: drawn from the seat's
// view only (so it shows nothing the seat may not know), read in the
// game's own notation.
type game interface {
	// show draws the view of a turn with its legal actions, or of the
	// end of the game (legal nil), and keeps the turn for read.
	show(view json.RawMessage, legal []json.RawMessage) page
	// read finds the legal action the person typed, or says what is
	// wrong with it and what to type instead (a *badEntry).
	read(entry string) (int, error)
	// chose is told the action the person chose, by its position.
	chose(i int)
	// legend is the help: the notation, the pieces or cards, the
	// commands; a few lines, so that the page still fits under it.
	legend() []string
	// prompt asks for the move, with the shortest reminder of how.
	prompt() string
}

// newGame is the drawing and reading of the game named name; a game
// without its own is shown as JSON, its actions numbered.
func newGame(name string, seats names) game {
	switch name {
	case "banqi":
		return &banqiGame{names: seats}
	case "uno", "bounce":
		return &unoGame{names: seats}
	case "boon":
		return &boonGame{names: seats}
	}
	return &jsonGame{}
}

// badEntry is a move the person typed that is not one: what is wrong and
// what to type instead, shown to them before the prompt comes again.
type badEntry struct{ msg string }

func (e *badEntry) Error() string { return e.msg }

func bad(format string, a ...any) error { return &badEntry{fmt.Sprintf(format, a...)} }

// turn is what a game with a drawing of its own keeps of the turn it
// shows: the view as V and the legal actions as A; or, a turn it cannot
// read, the turn as JSON (unreadable).
type turn[V, A any] struct {
	unreadable
	v     V
	legal []A
}

// decode reads a turn (legal nil: the end of the game) into the game's
// own types: the view as V (valid says it is one), each legal action
// with parse. A turn it cannot read is kept to be shown as JSON, its
// actions chosen by number: ok is false, and p is its page.
func (t *turn[V, A]) decode(view json.RawMessage, legal []json.RawMessage, valid func(*V) bool, parse func(json.RawMessage) (A, error)) (p page, ok bool) {
	var v V
	if json.Unmarshal(view, &v) != nil || !valid(&v) {
		t.legal = nil
		return t.asJSON(view, legal), false
	}
	var actions []A
	for _, raw := range legal {
		a, err := parse(raw)
		if err != nil {
			t.legal = nil
			return t.asJSON(view, legal), false
		}
		actions = append(actions, a)
	}
	t.v, t.legal, t.raw = v, actions, nil
	return page{}, true
}

// drawing is what a game with a drawing of its own draws of the turn it
// decoded, a page's parts (page).
type drawing interface {
	table() []string
	events() []string
	hand() []string
	ask() []string
	choices() []string
}

// pageOf is the page d draws of its turn: at the end of the game (legal
// nil) nothing is asked.
func pageOf(d drawing, legal []json.RawMessage) page {
	p := page{table: d.table(), events: d.events(), hand: d.hand()}
	if legal != nil {
		p.ask, p.choices = d.ask(), d.choices()
	}
	return p
}

// unreadable is a game's way out for a turn it cannot read: shown as
// JSON, its actions chosen by number.
type unreadable struct {
	raw []json.RawMessage // the turn's legal actions, while it is one
}

// asJSON shows the turn as JSON, and keeps it for numbersOnly.
func (u *unreadable) asJSON(view json.RawMessage, legal []json.RawMessage) page {
	u.raw = legal
	return jsonPage(view, legal)
}

// numbersOnly refuses anything but a number at a turn shown as JSON;
// nil at a turn the game read.
func (u *unreadable) numbersOnly(entry string) error {
	if u.raw == nil {
		return nil
	}
	return bad("%q is not a choice: type its number, 1 to %d.", entry, len(u.raw))
}

// commandsLine is the line of the legend common to every game.
const commandsLine = "Also: a number picks that choice, ? this help, v the view as JSON, q leave."

// jsonGame shows a view as indented JSON and numbers every legal action,
// for a game without a drawing of its own (and a view a game could not
// decode).
type jsonGame struct{ unreadable }

func (g *jsonGame) show(view json.RawMessage, legal []json.RawMessage) page {
	return g.asJSON(view, legal)
}

// jsonPage is the view as indented JSON, the actions numbered.
func jsonPage(view json.RawMessage, legal []json.RawMessage) page {
	var b bytes.Buffer
	text := string(view)
	if json.Indent(&b, view, "", "  ") == nil {
		text = b.String()
	}
	var p page
	for _, l := range strings.Split(text, "\n") {
		p.table = append(p.table, clipLine(l))
	}
	for i, a := range legal {
		p.choices = append(p.choices, clipLine(fmt.Sprintf("  %2d  %s", i+1, actionText(a))))
	}
	return p
}

func (g *jsonGame) read(entry string) (int, error) {
	if err := g.numbersOnly(entry); err != nil {
		return 0, err
	}
	return 0, bad("%q is not a choice: type a number.", entry)
}

func (g *jsonGame) chose(int) {}

func (g *jsonGame) legend() []string {
	return []string{"Type the number of your choice.", commandsLine}
}

func (g *jsonGame) prompt() string { return "Your choice (a number; ? help, q leave): " }

// actionText is an action (or event) object in words for a list: its
// type, then its other fields as name=value in name order, e.g.
// `capture from=d4 to=d5` or `play card=WD4 colour=blue`: for a game
// without a drawing of its own.
func actionText(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return string(raw)
	}
	var parts []string
	head := "type"
	if h, ok := m[head].(string); ok {
		parts = append(parts, h)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != head {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := json.Marshal(m[k])
		parts = append(parts, k+"="+strings.Trim(string(v), `"`))
	}
	return strings.Join(parts, " ")
}
