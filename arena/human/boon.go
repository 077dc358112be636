package human

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/engine/boon"

	"github.com/arena-dev/arena/internal/words"
)

// boonGame draws the Boon table (victory cards, tricks, the trick being
// played) and hand, and reads moves as cards (b5, au14, "gold 14", with
// or without bury / play before them) and words (take, pass).
type boonGame struct {
	turn[boon.View, boon.Action]
	names names
}

func (g *boonGame) show(view json.RawMessage, legal []json.RawMessage) page {
	if p, ok := g.decode(view, legal, func(v *boon.View) bool { return v.Phase != "" }, boon.ParseAction); !ok {
		return p
	}
	return pageOf(g, legal)
}

// boonCardName is a card in words: "blue 5", "gold 14".
func boonCardName(code string) string {
	c, err := boon.ParseCard(code)
	if err != nil {
		return code
	}
	return c.Suit().Name() + " " + strconv.Itoa(c.Rank())
}

// hand is the hand by suit: "blue: 1 (b1), 4 (b4)", "gold: 3 (au3)".
func (g *boonGame) hand() []string {
	var cards []handCard
	for _, h := range g.v.Hand {
		if c, err := boon.ParseCard(h); err == nil {
			cards = append(cards, handCard{c.Suit().Name(), fmt.Sprintf("%d (%s)", c.Rank(), code(h))})
		}
	}
	return handLines(len(g.v.Hand), cards)
}

// boonSuit is the suit whose key is w: its name (key boon.Suit.Name:
// "gold") or its code (boon.Suit.Code: "Au"); ok is false for none.
func boonSuit(w string, key func(boon.Suit) string) (boon.Suit, bool) {
	for s := range boon.Gold + 1 {
		if key(s) == w {
			return s, true
		}
	}
	return 0, false
}

// boonCardList is cards in words: "blue 1, gold 3 and gold 14".
func boonCardList(cards []string) string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = boonCardName(c)
	}
	return words.List(out)
}

// table is the round and its mode, a line per seat (victory cards,
// cards, tricks and points this round), the last trick and the one being
// played.
func (g *boonGame) table() []string {
	v := &g.v
	var mode string
	switch v.Mode {
	case "pick":
		mode = fmt.Sprintf("who takes the Boon (%d cards)?", v.BoonSize)
	case "least":
		mode = "Least: each for themselves, the fewest points among trick takers wins"
	case "picker":
		mode = fmt.Sprintf("%s picked and %s alone against the others", g.names.of(v.Picker), g.names.verb(v.Picker, "play", "plays"))
	default:
		mode = v.Mode
	}
	out := say(fmt.Sprintf("Round %d · %s dealt · %s", v.Round, g.names.of(v.Dealer), mode))
	wide := 4
	for s := range v.HandSizes {
		wide = max(wide, min(len(g.names.of(s)), 16))
	}
	out = append(out, fmt.Sprintf("  %-*s  %13s %7s %6s %6s", wide, "", "victory cards", "in hand", "tricks", "points"))
	for s := range v.HandSizes {
		role := ""
		if s == v.Picker {
			role = "  picker"
		}
		name := g.names.of(s)
		if len(name) > wide {
			name = name[:wide]
		}
		out = append(out, fmt.Sprintf("  %-*s  %13d %7d %6d %6d%s", wide, name, at(v.VC, s), v.HandSizes[s], at(v.TricksWon, s), at(v.TrickPoints, s), role))
	}
	// The trick just completed, while the next has no card yet.
	if n := len(v.Tricks); n > 0 && (v.Phase != "play" || len(v.Trick.Cards) == 0) {
		out = append(out, say(fmt.Sprintf("Trick %d: %s; %s won %d points.", n, g.trickCards(v.Tricks[n-1]), g.names.of(v.Tricks[n-1].Winner), v.Tricks[n-1].Points))...)
	}
	if v.Phase == "play" {
		t := v.Trick
		if len(t.Cards) == 0 {
			out = append(out, fmt.Sprintf("Trick %d: %s %s.", v.TrickNo, g.names.of(t.Leader), g.names.verb(t.Leader, "lead", "leads")))
		} else {
			out = append(out, say(fmt.Sprintf("Trick %d, now: %s; %s %s winning, %d points so far.",
				v.TrickNo, g.trickCards(t), g.names.of(t.Winner), g.names.verb(t.Winner, "are", "is"), t.Points))...)
		}
	}
	if len(v.Boon) > 0 {
		text := "The Boon you took: " + boonCardList(v.Boon)
		if len(v.Buried) > 0 {
			text += "; you buried: " + boonCardList(v.Buried)
		}
		out = append(out, say(text+".")...)
	}
	return out
}

func at(xs []int, i int) int {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

// trickCards is "a led green 1, you green 2, b blue 1".
func (g *boonGame) trickCards(t boon.Trick) string {
	parts := make([]string, len(t.Cards))
	for i, c := range t.Cards {
		s := (t.Leader + i) % len(g.v.HandSizes)
		parts[i] = g.names.of(s) + " " + boonCardName(c)
		if i == 0 {
			parts[i] = g.names.of(s) + " led " + boonCardName(c)
		}
	}
	return strings.Join(parts, ", ")
}

// events says what happened since the person's last turn; a run of
// plays is one sentence.
func (g *boonGame) events() []string {
	var out []string
	var plays []string
	flush := func() {
		if len(plays) > 0 {
			out = append(out, say("Played: "+strings.Join(plays, ", ")+".")...)
			plays = nil
		}
	}
	ev := g.v.Events
	for i := 0; i < len(ev); i++ {
		e := ev[i]
		if e.Type == "play" {
			plays = append(plays, g.names.of(e.Seat)+" "+boonCardName(e.Card))
			continue
		}
		flush()
		t := g.eventText(e)
		if e.Type == "bury" {
			n := 1
			for i+1 < len(ev) && ev[i+1].Type == "bury" && ev[i+1].Seat == e.Seat {
				n, i = n+1, i+1
			}
			if n > 1 {
				t = fmt.Sprintf("%s buried %d cards.", g.names.subject(e.Seat), n)
			}
		}
		out = append(out, say(t)...)
	}
	flush()
	return out
}

// eventText is one event (not a play) in a sentence.
func (g *boonGame) eventText(e boon.Event) string {
	who := g.names.subject(e.Seat)
	switch e.Type {
	case "deal":
		return fmt.Sprintf("%s %s a new round.", who, g.names.verb(e.Seat, "deal", "deals"))
	case "pass":
		return who + " passed."
	case "take":
		return who + " took the Boon."
	case "bury":
		return who + " buried a card."
	case "least":
		return fmt.Sprintf("Everyone passed: Least mode, each for themselves; %s %s.", who, g.names.verb(e.Seat, "lead", "leads"))
	case "redeal":
		return "Everyone passed: the cards are dealt again."
	case "trick":
		return fmt.Sprintf("%s won the trick.", who)
	case "round_end":
		return g.roundText()
	case "game_end":
		return "The game is over."
	}
	return who + ": " + e.Type + "."
}

// roundText is the last round's outcome: who scored, and the victory
// cards after it.
func (g *boonGame) roundText() string {
	r := g.v.LastRound
	if r == nil {
		return "The round is over."
	}
	text := fmt.Sprintf("Round %d is over", r.Round)
	switch r.Mode {
	case "picker":
		text += fmt.Sprintf(": %s scored %d points (%d buried)", g.names.of(r.Picker), r.PickerPoints, r.BuriedPoints)
	case "least":
		var w []string
		for _, s := range r.Winners {
			w = append(w, g.names.of(s))
		}
		text += ": fewest points: " + words.List(w)
	}
	var vc []string
	for s, n := range r.VC {
		vc = append(vc, fmt.Sprintf("%s %d (%+d)", g.names.of(s), n, at(r.VCChange, s)))
	}
	return text + ". Victory cards: " + strings.Join(vc, ", ") + "."
}

// ask is the decision in a sentence.
func (g *boonGame) ask() []string {
	v := &g.v
	switch v.Decision {
	case "take_or_pass":
		// Who passed before is told among the events.
		return say(fmt.Sprintf("Take the Boon (%d cards, unseen) and play alone against the others (t), or pass (p)?", v.BoonSize))
	case "bury":
		return say("Bury " + words.Count(v.BuryLeft, "more card", "more cards") + ", one at a time: their points count for you.")
	case "play":
		if len(v.Trick.Cards) == 0 {
			return say(fmt.Sprintf("You lead trick %d: play any card.", v.TrickNo))
		}
		suit := ""
		if s, ok := boonSuit(v.Trick.Led, boon.Suit.Code); ok {
			suit = s.Name()
		}
		return say(fmt.Sprintf("Play a card to trick %d: follow %s if you can.", v.TrickNo, suit))
	}
	return nil
}

// typed is a legal action as the person types it, and in words.
func (g *boonGame) typed(a boon.Action) (string, string) {
	switch a.Kind {
	case boon.KindTake:
		return "t", "take the Boon"
	case boon.KindPass:
		return "p", "pass"
	case boon.KindBury:
		return code(a.Card.String()), fmt.Sprintf("bury %s (%d points)", boonCardName(a.Card.String()), a.Card.Points())
	}
	return code(a.Card.String()), fmt.Sprintf("%s (%d points)", boonCardName(a.Card.String()), a.Card.Points())
}

// choices lists the actions, or (a bury, a free lead) the cards to type.
func (g *boonGame) choices() []string {
	typed, words := make([]string, len(g.legal)), make([]string, len(g.legal))
	for i, a := range g.legal {
		typed[i], words[i] = g.typed(a)
	}
	return choiceLines(typed, words, func() []string {
		verb := "Play"
		if g.v.Decision == "bury" {
			verb = "Bury"
		}
		return say(verb + " any of: " + strings.Join(typed, " ") + ".")
	})
}

func (g *boonGame) chose(int) {}

func (g *boonGame) prompt() string { return "Your move (t, p, or a card: b5, au14; ? help, q leave): " }

func (g *boonGame) read(entry string) (int, error) {
	if err := g.numbersOnly(entry); err != nil {
		return 0, err
	}
	toks := strings.Fields(strings.ToLower(entry))
	switch strings.Join(toks, " ") {
	case "t", "take":
		return g.find(func(a boon.Action) bool { return a.Kind == boon.KindTake }, "You cannot take the Boon now. "+strings.Join(g.ask(), " "))
	case "p", "pass":
		return g.find(func(a boon.Action) bool { return a.Kind == boon.KindPass }, "You cannot pass now. "+strings.Join(g.ask(), " "))
	}
	if len(toks) > 0 && (toks[0] == "play" || toks[0] == "bury") {
		toks = toks[1:]
	}
	text := strings.Join(toks, "")
	if len(toks) == 2 {
		if s, ok := boonSuit(toks[0], boon.Suit.Name); ok {
			text = s.Code() + toks[1]
		}
	}
	card, err := boon.ParseCard(text)
	if err != nil || len(toks) == 0 {
		return 0, bad("Cannot read %q: type t, p, or a card (b5, au14, gold 14); ? for help.", strings.TrimSpace(entry))
	}
	held := false
	for _, h := range g.v.Hand {
		held = held || h == card.String()
	}
	if !held {
		return 0, bad("You hold no %s. %s", boonCardName(card.String()), strings.Join(g.ask(), " "))
	}
	var can []string
	for _, a := range g.legal {
		if a.Kind == boon.KindPlay || a.Kind == boon.KindBury {
			can = append(can, code(a.Card.String()))
		}
	}
	why := fmt.Sprintf("%s cannot be played now: you can play %s.", words.Capital(boonCardName(card.String())), strings.Join(can, " "))
	if len(can) == 0 {
		why = "No card is asked for now. " + strings.Join(g.ask(), " ")
	}
	return g.find(func(a boon.Action) bool {
		return (a.Kind == boon.KindPlay || a.Kind == boon.KindBury) && a.Card == card
	}, why)
}

// find is the position of the first legal action that is, or why.
func (g *boonGame) find(is func(boon.Action) bool, why string) (int, error) {
	for i, a := range g.legal {
		if is(a) {
			return i, nil
		}
	}
	return 0, &badEntry{why}
}

// legend explains the cards, their points, the tricks and what to type.
func (g *boonGame) legend() []string {
	out := say("Cards: b blue, g green, r red 1-6; au gold 1-14, the trumps: b5, au14 (or gold 14). Points: 4s 4, 5s 10, 6s 11, gold 7-10 2 and 11-14 3, others 0.")
	out = append(out, say("Follow the suit led if you can; the highest gold takes the trick, else the highest card of the suit led. Type t (take), p (pass), or a card.")...)
	out = append(out, say("A round: the picker (who took the Boon) needs 61 of the 120 points to win victory cards from each other seat, else pays them; in Least, whoever took a trick with the fewest points wins 1 from each. A seat out of victory cards ends the game: the most wins.")...)
	return append(out, commandsLine)
}
