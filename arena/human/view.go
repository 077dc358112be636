package human

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Render draws a seat's view of game for a person at a terminal: the
// Banqi board, the Uno table and hand, the Boon hand and trick; any other
// game's view as indented JSON. It reads the view only, so it shows
// nothing the seat may not know.
func Render(game string, view json.RawMessage) string {
	var text string
	var err error
	switch game {
	case "banqi":
		text, err = renderBanqi(view)
	case "uno", "bounce":
		text, err = renderUno(view)
	case "boon":
		text, err = renderBoon(view)
	default:
		err = fmt.Errorf("no drawing for %s", game)
	}
	if err != nil {
		var b bytes.Buffer
		if json.Indent(&b, view, "", "  ") != nil {
			return string(view)
		}
		return b.String()
	}
	return text
}

func renderBanqi(raw json.RawMessage) (string, error) {
	var v struct {
		You *struct {
			Seat   int     `json:"seat"`
			Colour *string `json:"colour"`
		} `json:"you"`
		Board    []string          `json:"board"`
		ToMove   int               `json:"to_move"`
		Chain    *string           `json:"chain"`
		Captured map[string]string `json:"captured"`
		Facedown map[string]string `json:"facedown"`
		Ply      int               `json:"ply"`
		Last     string            `json:"last"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || len(v.Board) != 8 {
		return "", fmt.Errorf("not a banqi view")
	}
	var b strings.Builder
	b.WriteString("     a b c d\n")
	for i, row := range v.Board {
		fmt.Fprintf(&b, "  %d  %s\n", 8-i, strings.Join(strings.Split(row, ""), " "))
	}
	b.WriteString("  (upper case red, lower case black, X face down, - empty;\n")
	b.WriteString("   K King, G Guard, M Minister, R Rook, N Knight, C Cannon, P Pawn)\n")
	if v.You != nil {
		colour := "not yet known (no piece flipped)"
		if v.You.Colour != nil {
			colour = *v.You.Colour
		}
		fmt.Fprintf(&b, "you: seat %d, %s", v.You.Seat, colour)
		if v.ToMove == v.You.Seat {
			b.WriteString(", to move")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "ply %d", v.Ply)
	if v.Last != "" {
		fmt.Fprintf(&b, ", last move %s", v.Last)
	}
	if v.Chain != nil {
		fmt.Fprintf(&b, ", capture chain at %s", *v.Chain)
	}
	fmt.Fprintf(&b, "\ncaptured: red %q, black %q; face down: red %q, black %q",
		v.Captured["red"], v.Captured["black"], v.Facedown["red"], v.Facedown["black"])
	return b.String(), nil
}

func renderUno(raw json.RawMessage) (string, error) {
	var v struct {
		You       *int              `json:"you"`
		Hand      []string          `json:"hand"`
		Top       string            `json:"top"`
		Colour    *string           `json:"colour"`
		Direction int               `json:"direction"`
		HandNo    int               `json:"hand_no"`
		ToMove    int               `json:"to_move"`
		Counts    []int             `json:"counts"`
		Scores    []int             `json:"scores"`
		DrawPile  int               `json:"draw_pile"`
		Events    []json.RawMessage `json:"events"`
		Decision  json.RawMessage   `json:"decision"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.Top == "" {
		return "", fmt.Errorf("not an uno view")
	}
	var b strings.Builder
	colour := "none yet"
	if v.Colour != nil {
		colour = *v.Colour
	}
	dir := "clockwise (seat+1 next)"
	if v.Direction < 0 {
		dir = "counter-clockwise (seat-1 next)"
	}
	fmt.Fprintf(&b, "hand %d; top card %s, colour %s, %s; draw pile %d\n", v.HandNo, v.Top, colour, dir, v.DrawPile)
	for s, n := range v.Counts {
		mark := ""
		if v.You != nil && s == *v.You {
			mark = " (you)"
		}
		if s == v.ToMove {
			mark += " to move"
		}
		score := 0
		if s < len(v.Scores) {
			score = v.Scores[s]
		}
		fmt.Fprintf(&b, "  seat %d%s: %d cards, score %d\n", s, mark, n, score)
	}
	if len(v.Events) > 0 {
		b.WriteString("since your last move:\n")
		for _, e := range v.Events {
			fmt.Fprintf(&b, "  %s\n", ActionText(e))
		}
	}
	if v.You != nil {
		fmt.Fprintf(&b, "your hand: %s", strings.Join(v.Hand, " "))
	}
	if len(v.Decision) > 0 && string(v.Decision) != "null" {
		fmt.Fprintf(&b, "\ndecision: %s", ActionText(v.Decision))
	}
	return b.String(), nil
}

func renderBoon(raw json.RawMessage) (string, error) {
	var v struct {
		Seat      int               `json:"seat"`
		Round     int               `json:"round"`
		Dealer    int               `json:"dealer"`
		VC        []int             `json:"vc"`
		Phase     string            `json:"phase"`
		ToMove    int               `json:"to_move"`
		Decision  string            `json:"decision"`
		Mode      string            `json:"mode"`
		Picker    int               `json:"picker"`
		Team      string            `json:"team"`
		Hand      []string          `json:"hand"`
		HandSizes []int             `json:"hand_sizes"`
		Boon      []string          `json:"boon"`
		Buried    []string          `json:"buried"`
		BuryLeft  int               `json:"bury_left"`
		TrickNo   int               `json:"trick_no"`
		Trick     *boonTrick        `json:"trick"`
		Tricks    []boonTrick       `json:"tricks"`
		Points    []int             `json:"trick_points"`
		Won       []int             `json:"tricks_won"`
		Events    []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.Phase == "" {
		return "", fmt.Errorf("not a boon view")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "round %d, dealer seat %d, phase %s, mode %s", v.Round, v.Dealer, v.Phase, v.Mode)
	if v.Picker >= 0 {
		fmt.Fprintf(&b, ", picker seat %d", v.Picker)
	}
	b.WriteString("\n")
	for s := range v.HandSizes {
		mark := ""
		if s == v.Seat {
			mark = " (you, " + v.Team + ")"
		}
		if s == v.ToMove {
			mark += " to move"
		}
		fmt.Fprintf(&b, "  seat %d%s: %d VC, %d cards, %d tricks, %d points\n", s, mark, at(v.VC, s), v.HandSizes[s], at(v.Won, s), at(v.Points, s))
	}
	for i, t := range v.Tricks {
		fmt.Fprintf(&b, "trick %d: led by seat %d: %s, won by seat %d (%d points)\n", i+1, t.Leader, strings.Join(t.Cards, " "), t.Winner, t.Points)
	}
	if v.Trick != nil && v.Phase == "play" {
		cards := strings.Join(v.Trick.Cards, " ")
		if cards == "" {
			cards = "(no card yet)"
		}
		fmt.Fprintf(&b, "trick %d: led by seat %d: %s\n", v.TrickNo, v.Trick.Leader, cards)
	}
	if len(v.Events) > 0 {
		b.WriteString("since your last decision:\n")
		for _, e := range v.Events {
			fmt.Fprintf(&b, "  %s\n", ActionText(e))
		}
	}
	if v.Boon != nil {
		fmt.Fprintf(&b, "the boon you took: %s\n", strings.Join(v.Boon, " "))
	}
	if v.Buried != nil {
		fmt.Fprintf(&b, "you buried: %s\n", strings.Join(v.Buried, " "))
	}
	if v.BuryLeft > 0 && v.Decision == "bury" {
		fmt.Fprintf(&b, "cards still to bury: %d\n", v.BuryLeft)
	}
	fmt.Fprintf(&b, "your hand: %s", strings.Join(v.Hand, " "))
	return b.String(), nil
}

type boonTrick struct {
	Leader int      `json:"leader"`
	Cards  []string `json:"cards"`
	Winner int      `json:"winner"`
	Points int      `json:"points"`
}

func at(xs []int, i int) int {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

// actionText is an action of game in words for the numbered list:
// Banqi's in its move notation (flip b3, move b3-b4, capture b3xb5),
// any other as ActionText.
func actionText(game string, raw json.RawMessage) string {
	if game == "banqi" {
		var a struct{ Type, Square, From, To string }
		if json.Unmarshal(raw, &a) == nil {
			switch a.Type {
			case "flip":
				return "flip " + a.Square
			case "move":
				return "move " + a.From + "-" + a.To
			case "capture":
				return "capture " + a.From + "x" + a.To
			}
		}
	}
	return ActionText(raw)
}

// ActionText is an action (or event) object in words for a list: its
// type, then its other fields as name=value in name order, e.g.
// `capture from=d4 to=d5` or `play card=WD4 colour=blue`.
func ActionText(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return string(raw)
	}
	var parts []string
	head := "type"
	if _, ok := m[head].(string); !ok {
		head = "kind" // Uno's decision
	}
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
