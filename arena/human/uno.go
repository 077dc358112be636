package human

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/engine/uno"

	"github.com/arena-dev/arena/internal/words"
)

// unoGame draws the Uno (and Bounce) table and hand, and reads moves as
// cards (r7, "red 7", wd4 green, r7! with the call, r7>2 for a swap) and
// words (draw, keep, pass, challenge, accept, catch, a colour).
type unoGame struct {
	turn[uno.View, uno.Action]
	names names
}

func (g *unoGame) show(view json.RawMessage, legal []json.RawMessage) page {
	if p, ok := g.decode(view, legal, func(v *uno.View) bool { return v.Top != "" }, uno.ParseAction); !ok {
		return p
	}
	return pageOf(g, legal)
}

// cardName is a card in words: "red 7", "blue skip", "wild draw four".
func cardName(code string) string {
	c, err := uno.ParseCard(code)
	switch {
	case err != nil:
		return code
	case c == uno.Wild:
		return "wild"
	case c == uno.WildDraw:
		return "wild draw four"
	}
	return uno.ColourNames[c.Colour()] + " " + faceName(c.Face())
}

// faceName is a coloured card's face in words: "7", "skip", "draw two".
func faceName(face int) string {
	switch face {
	case uno.FaceSkip:
		return "skip"
	case uno.FaceReverse:
		return "reverse"
	case uno.FaceDrawTwo:
		return "draw two"
	}
	return strconv.Itoa(face)
}

// code is a card as typed: "r7", "wd4".
func code(card string) string { return strings.ToLower(card) }

// hand is the hand by colour, each card in words with what to type, and
// how many when more than one: "red: 7 (r7) x2, skip (rs)", "wild: wild
// (w), draw four (wd4)".
func (g *unoGame) hand() []string {
	hand := g.v.Hand
	var cards []handCard
	for i := 0; i < len(hand); i++ {
		c, err := uno.ParseCard(hand[i])
		colour := "wild"
		if err == nil && !c.IsWild() {
			colour = uno.ColourNames[c.Colour()]
		}
		n := 1
		for i+1 < len(hand) && hand[i+1] == hand[i] {
			n, i = n+1, i+1
		}
		// The card's name in its group: "7" among the reds, "draw
		// four" among the wilds.
		text := fmt.Sprintf("%s (%s)", strings.TrimPrefix(cardName(hand[i]), colour+" "), code(hand[i]))
		if n > 1 {
			text += fmt.Sprintf(" x%d", n)
		}
		cards = append(cards, handCard{colour, text})
	}
	return handLines(len(hand), cards)
}

// table is the hand number, the top card, and the seats in order of play
// with their cards and scores.
func (g *unoGame) table() []string {
	v := &g.v
	colour := "none yet"
	if v.Colour != nil {
		colour = *v.Colour
	}
	dir := "clockwise"
	if v.Direction < 0 {
		dir = "counter-clockwise"
	}
	out := say(fmt.Sprintf("Hand %d · top card: %s · colour: %s · draw pile %d · %s",
		v.HandNo, cardName(v.Top), colour, v.DrawPile, dir))
	n := len(v.Counts)
	var seats []string
	for k := range n {
		s := ((g.names.me+k*v.Direction)%n + n) % n
		item := fmt.Sprintf("%s %d", g.names.of(s), v.Counts[s])
		if k == 0 {
			item = g.names.of(s) + " " + words.Count(v.Counts[s], "card", "cards")
		}
		for _, f := range v.Finished {
			if f == s {
				item += " (out)"
			}
		}
		seats = append(seats, item)
	}
	out = append(out, say("In order of play: "+strings.Join(seats, ", ")+".")...)
	if slices.ContainsFunc(v.Scores, func(p int) bool { return p != 0 }) {
		var sc []string
		for s, p := range v.Scores {
			sc = append(sc, fmt.Sprintf("%s %d", g.names.of(s), p))
		}
		goal := ""
		switch {
		case v.Rules.Target > 0 && v.Rules.Scoring == "penalty_low_wins":
			goal = fmt.Sprintf(" (the game ends at %d; the lowest wins)", v.Rules.Target)
		case v.Rules.Target > 0:
			goal = fmt.Sprintf(" (the first to %d wins)", v.Rules.Target)
		}
		out = append(out, say("Scores"+goal+": "+strings.Join(sc, ", ")+".")...)
	}
	return out
}

// events says what happened since the person's last turn, a sentence an
// event (a draw and its keep, an accept and its draw, are one).
func (g *unoGame) events() []string {
	ev := g.v.Events
	var out []string
	for i := 0; i < len(ev); i++ {
		e := ev[i]
		text := g.eventText(e)
		next := func(typ string) bool {
			return i+1 < len(ev) && ev[i+1].Type == typ && ev[i+1].Seat == e.Seat
		}
		switch {
		case e.Type == "draw" && e.Why == "turn" && next("keep"):
			text = strings.TrimSuffix(text, ".") + " and kept it."
			i++
		case e.Type == "accept" && next("draw"):
			text = g.eventText(ev[i+1])
			i++
		}
		if text != "" {
			out = append(out, say(text)...)
		}
	}
	return out
}

// eventText is one event in a sentence.
func (g *unoGame) eventText(e uno.Event) string {
	who := g.names.subject(e.Seat)
	target, targetSeat := "", -1
	if e.Target != nil {
		target, targetSeat = g.names.of(*e.Target), *e.Target
	}
	switch e.Type {
	case "deal":
		return fmt.Sprintf("Hand %d: %s %s.", e.N, who, g.names.verb(e.Seat, "deal", "deals"))
	case "start":
		return fmt.Sprintf("The first card is a %s.", cardName(e.Card))
	case "colour":
		return fmt.Sprintf("%s named %s.", who, e.Colour)
	case "play", "jump":
		text := who + " played " + cardName(e.Card)
		if e.Type == "jump" {
			text = who + " jumped in with " + cardName(e.Card)
		}
		if e.Colour != "" {
			text += " and named " + e.Colour
		}
		if target != "" {
			text += ", to swap hands with " + target
		}
		if e.Uno {
			return text + ", calling " + g.call() + "!"
		}
		return text + "."
	case "draw":
		return g.drawText(e)
	case "keep":
		return who + " kept it."
	case "pass":
		return who + " passed."
	case "challenge":
		verdict := "it was honest"
		if e.Why == "guilty" {
			verdict = "it was a bluff"
		}
		return fmt.Sprintf("%s challenged %s Wild Draw Four: %s.", who, g.names.possessive(targetSeat), verdict)
	case "reveal":
		return fmt.Sprintf("%s hand was: %s.", g.names.whose(e.Seat), cardList(e.Cards))
	case "accept":
		return who + " accepted the cards."
	case "catch":
		return fmt.Sprintf("%s caught %s not calling %s.", who, target, g.call())
	case "swap":
		return fmt.Sprintf("%s swapped hands with %s.", who, target)
	case "rotate":
		return "Every hand passed on, in the direction of play."
	case "reshuffle":
		return "The discard pile was shuffled into a new draw pile."
	case "out":
		return fmt.Sprintf("%s %s out (place %d).", who, g.names.verb(e.Seat, "are", "is"), e.N)
	case "hand_end":
		return fmt.Sprintf("%s won the hand and %s %s.", who, g.names.verb(e.Seat, "score", "scores"), words.Count(e.N, "point", "points"))
	}
	return who + ": " + e.Type + "."
}

// drawText is a draw in a sentence, with its cause, and the cards when
// they were the person's.
func (g *unoGame) drawText(e uno.Event) string {
	what := "a card"
	if e.N != 1 {
		what = fmt.Sprintf("%d cards", e.N)
	}
	why := map[string]string{
		"D2": " (Draw Two)", "WD4": " (Wild Draw Four)", "uno": " for not calling " + g.call(),
		"challenge": ": the challenge failed", "bluff": ": the Wild Draw Four was a bluff", "start": " (the first card)",
	}[e.Why]
	text := fmt.Sprintf("%s drew %s%s", g.names.subject(e.Seat), what, why)
	if len(e.Cards) > 0 {
		text += ": " + cardList(e.Cards)
	}
	return text + "."
}

// cardList is cards in words: "red 7 (r7), wild (w)".
func cardList(cards []string) string {
	items := make([]string, len(cards))
	for i, c := range cards {
		items[i] = fmt.Sprintf("%s (%s)", cardName(c), code(c))
	}
	return strings.Join(items, ", ")
}

// call is the one-card call's name: Uno, or Bounce.
func (g *unoGame) call() string {
	if g.v.Rules.Call == "bounce" {
		return "Bounce"
	}
	return "Uno"
}

// ask is the decision in a sentence, with what to type.
func (g *unoGame) ask() []string {
	d := g.v.Decision
	if d == nil {
		return nil
	}
	var text string
	if d.Catch != nil {
		text = fmt.Sprintf("%s forgot to call %s: type catch to make them draw 2. ", g.names.of(*d.Catch), g.call())
	}
	switch d.Kind {
	case "colour":
		text += "The first card is a wild: name the colour (red, yellow, green or blue)."
	case "drawn":
		text += fmt.Sprintf("You drew %s: play it (%s) or keep it (k)?", cardName(d.Card), code(d.Card))
	case "pending":
		text += g.pendingText(d)
	case "jump":
		text += fmt.Sprintf("You hold %s, just played: jump in (%s) or pass (p)?", cardName(d.Card), code(d.Card))
	default:
		text += g.turnText()
	}
	return say(text)
}

// turnText asks for a normal turn: what matches, or to draw.
func (g *unoGame) turnText() string {
	canPlay, canDraw := false, false
	for _, a := range g.legal {
		canPlay = canPlay || a.Type == uno.ActPlay
		canDraw = canDraw || a.Type == uno.ActDraw
	}
	colour := "any"
	if g.v.Colour != nil {
		colour = *g.v.Colour
	}
	match := "a " + colour + " card"
	if top, err := uno.ParseCard(g.v.Top); err == nil && !top.IsWild() {
		face := faceName(top.Face())
		article := "a "
		if face == "8" {
			article = "an "
		}
		match += ", " + article + face
	}
	match += " or a wild"
	switch {
	case canPlay && canDraw:
		return "Your turn: play " + match + ", or draw (d)."
	case canPlay:
		return "Your turn: play " + match + "."
	case canDraw:
		return "Your turn: nothing you hold matches (" + match + "): draw (d)."
	}
	return "Your turn: nothing to play and nothing to draw: pass (p)."
}

// pendingText asks about draws coming the person's way.
func (g *unoGame) pendingText(d *uno.Decision) string {
	if d.Challenge && d.From != nil {
		named := "a colour"
		if g.v.Colour != nil {
			named = *g.v.Colour
		}
		return fmt.Sprintf("%s played a wild draw four and named %s (the colour was %s). Challenge it (c) or accept the %d cards (a)?",
			g.names.of(*d.From), named, d.PrevColour, d.Pending)
	}
	if len(g.legal) == 1 {
		return fmt.Sprintf("%d cards are coming your way, with nothing to pass them on with: accept them (a).", d.Pending)
	}
	return fmt.Sprintf("%d cards are coming your way: pass them on with a card (below), or accept them (a).", d.Pending)
}

// typed is a legal action as the person types it, and in words.
func (g *unoGame) typed(a uno.Action) (string, string) {
	switch a.Type {
	case uno.ActPlay, uno.ActJump:
		t, w := code(a.Card.String()), cardName(a.Card.String())
		if a.Type == uno.ActJump {
			w = "jump in with " + w
		}
		if a.Target >= 0 {
			t += ">" + strconv.Itoa(int(a.Target))
			w += ", swap with " + g.names.of(int(a.Target))
		}
		if a.Colour >= 0 {
			t += " " + uno.ColourNames[a.Colour]
			w += ", " + uno.ColourNames[a.Colour]
		}
		if a.Uno {
			t += "!"
			w += ", call " + g.call()
		}
		return t, w
	case uno.ActDraw:
		if g.v.Rules.DrawUntilPlayable {
			return "d", "draw until a card can be played"
		}
		return "d", "draw a card"
	case uno.ActKeep:
		return "k", "keep the card you drew"
	case uno.ActPass:
		return "p", "pass"
	case uno.ActChallenge:
		return "c", "challenge the Wild Draw Four"
	case uno.ActAccept:
		if d := g.v.Decision; d != nil && d.Pending > 0 {
			return "a", fmt.Sprintf("accept: draw %d cards", d.Pending)
		}
		return "a", "accept"
	case uno.ActCatch:
		if d := g.v.Decision; d != nil && d.Catch != nil {
			return "catch", fmt.Sprintf("catch %s: they draw 2", g.names.of(*d.Catch))
		}
		return "catch", "catch the player who forgot the call"
	case uno.ActColour:
		return uno.ColourNames[a.Colour], "name " + uno.ColourNames[a.Colour]
	}
	return a.String(), a.String()
}

// choices lists the actions, or sums them up when there are many.
func (g *unoGame) choices() []string {
	typed, words := make([]string, len(g.legal)), make([]string, len(g.legal))
	for i, a := range g.legal {
		typed[i], words[i] = g.typed(a)
	}
	return choiceLines(typed, words, g.summary)
}

// summary sums the choices up: the cards that can be played, with how
// to name a wild's colour, a 7's swap and the call; the other choices.
func (g *unoGame) summary() []string {
	var cards, others []string
	seen := map[uno.Card]bool{}
	wild, call, swap := false, false, false
	for _, a := range g.legal {
		switch {
		case a.Type == uno.ActPlay || a.Type == uno.ActJump:
			if !seen[a.Card] {
				seen[a.Card] = true
				cards = append(cards, code(a.Card.String()))
			}
			wild = wild || a.Colour >= 0
			call = call || a.Uno
			swap = swap || a.Target >= 0
		default:
			t, w := g.typed(a)
			others = append(others, w+" ("+t+")")
		}
	}
	text := "Play: " + strings.Join(cards, " ") + "."
	if wild {
		text += " A wild names its colour: w green."
	}
	if swap {
		text += " A 7 names whose hand to swap: r7>2 (seat 2)."
	}
	if call {
		text += fmt.Sprintf(" To call %s, add !: r7!.", g.call())
	}
	if len(others) > 0 {
		text += " Or: " + strings.Join(others, ", ") + "."
	}
	return say(text)
}

func (g *unoGame) chose(int) {}

func (g *unoGame) prompt() string { return "Your move (r7, w green, d; ? help, q leave): " }

// unoWords are the one-word answers: the decisions' closing actions.
var unoWords = map[string]uno.ActionType{
	"d": uno.ActDraw, "draw": uno.ActDraw, "k": uno.ActKeep, "keep": uno.ActKeep,
	"p": uno.ActPass, "pass": uno.ActPass, "c": uno.ActChallenge, "challenge": uno.ActChallenge,
	"a": uno.ActAccept, "accept": uno.ActAccept, "catch": uno.ActCatch,
}

// unoVerbs are the one-word answers' actions in words, for a refusal.
var unoVerbs = map[uno.ActionType]string{
	uno.ActDraw: "draw", uno.ActKeep: "keep a card", uno.ActPass: "pass", uno.ActChallenge: "challenge",
	uno.ActAccept: "accept cards", uno.ActCatch: "catch anyone",
}

// colourWords are the colours as typed: names and initials.
var colourWords = func() map[string]int {
	m := map[string]int{}
	for c, name := range uno.ColourNames {
		m[name], m[name[:1]] = c, c
	}
	return m
}()

func (g *unoGame) read(entry string) (int, error) {
	if err := g.numbersOnly(entry); err != nil {
		return 0, err
	}
	e := strings.ToLower(strings.TrimSpace(entry))
	if t, ok := unoWords[e]; ok {
		for i, a := range g.legal {
			if a.Type == t {
				return i, nil
			}
		}
		return 0, bad("You cannot %s now. %s", unoVerbs[t], strings.Join(g.ask(), " "))
	}
	if c, ok := colourWords[e]; ok && g.v.Decision != nil && g.v.Decision.Kind == "colour" {
		return g.pick(uno.NameColour(c))
	}
	want, err := g.parsePlay(e)
	if err != nil {
		return 0, err
	}
	return g.matchPlay(want)
}

// played is a card play as typed: the card, and the colour, target and
// call if given.
type played struct {
	card           uno.Card
	colour, target int
	call           bool
}

// parsePlay reads a typed card play: a code (r7, rd2, r+2, wd4, w+4) or
// words (red 7, red draw two, wild draw four), then a colour for a wild,
// a seat for a 7 (>2, or a name), ! or "uno" for the call.
func (g *unoGame) parsePlay(e string) (played, error) {
	p := played{colour: -1, target: -1}
	if strings.HasSuffix(e, "!") {
		p.call, e = true, strings.TrimSuffix(e, "!")
	}
	e = strings.ReplaceAll(strings.ReplaceAll(e, ">", " > "), ",", " ")
	toks := strings.Fields(e)
	if len(toks) > 0 && (toks[0] == "play" || toks[0] == "jump") {
		toks = toks[1:]
	}
	card, rest, ok := readCard(toks)
	if face, n := readFace(toks); !ok && face >= 0 && len(toks[0]) > 1 {
		// A face in words without its colour (skip, draw two): the card
		// of that face the person can play, if there is one.
		c, err := g.cardOfFace(face)
		if err != nil {
			return p, err
		}
		card, rest, ok = c, toks[n:], true
	}
	if !ok {
		return p, bad("Cannot read %q: type a card (r7, wd4 green), draw (d), or ? for help.", strings.TrimSpace(e))
	}
	p.card = card
	for i := 0; i < len(rest); i++ {
		t := rest[i]
		c, isColour := colourWords[t]
		switch {
		case t == "uno" || t == "bounce":
			p.call = true
		case t == ">" || t == "swap" || t == "with":
		case card.IsWild() && isColour:
			p.colour = c
		case card.Face() == 7 && g.seatNamed(t) >= 0:
			p.target = g.seatNamed(t)
		default:
			return p, bad("Cannot read %q in %q: after a card comes a colour for a wild (wd4 green), a seat for a 7 (r7>2), or ! to call %s.", t, strings.TrimSpace(e), g.call())
		}
	}
	return p, nil
}

// readCard reads the card at the start of toks, and what follows it: a
// code (r7, rd2, r+2, wd4, w+4), a colour and a face in words (red 7,
// blue zero, green skip, yellow draw two), or a wild in words.
func readCard(toks []string) (uno.Card, []string, bool) {
	if len(toks) == 0 {
		return uno.NoCard, nil, false
	}
	if c, ok := colourWords[toks[0]]; ok && len(toks[0]) > 1 && len(toks) > 1 {
		face, n := readFace(toks[1:])
		if face < 0 {
			return uno.NoCard, nil, false
		}
		return uno.MakeCard(c, face), toks[1+n:], true
	}
	if toks[0] == "wild" {
		switch {
		case len(toks) > 2 && toks[1] == "draw" && (toks[2] == "four" || toks[2] == "4"):
			return uno.WildDraw, toks[3:], true
		case len(toks) > 1 && toks[1] == "+4":
			return uno.WildDraw, toks[2:], true
		}
		return uno.Wild, toks[1:], true
	}
	card, err := uno.ParseCard(strings.ToUpper(strings.Replace(toks[0], "+", "d", 1)))
	return card, toks[1:], err == nil
}

// faceWords are a coloured card's faces as typed: digits, numbers in
// words, skip, reverse, draw two (+2, d2), and their letters after a
// colour (red s).
var faceWords = func() map[string]int {
	m := map[string]int{"skip": uno.FaceSkip, "s": uno.FaceSkip, "reverse": uno.FaceReverse, "r": uno.FaceReverse,
		"+2": uno.FaceDrawTwo, "d2": uno.FaceDrawTwo}
	for i, w := range []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"} {
		m[w], m[strconv.Itoa(i)] = i, i
	}
	return m
}()

// readFace reads a coloured card's face at the start of toks: the face
// (-1 if none) and how many words it took.
func readFace(toks []string) (face, n int) {
	switch {
	case len(toks) == 0:
		return -1, 0
	case len(toks) > 1 && toks[0] == "draw" && (toks[1] == "two" || toks[1] == "2"):
		return uno.FaceDrawTwo, 2
	}
	if f, ok := faceWords[toks[0]]; ok {
		return f, 1
	}
	return -1, 0
}

// cardOfFace is the card of face the person means when they type the
// face alone: the one they can play, else the one they hold; asked which
// when they can play several.
func (g *unoGame) cardOfFace(face int) (uno.Card, error) {
	var playable, held []uno.Card
	for _, a := range g.legal {
		if (a.Type == uno.ActPlay || a.Type == uno.ActJump) && a.Card.Face() == face && !slices.Contains(playable, a.Card) {
			playable = append(playable, a.Card)
		}
	}
	for _, h := range g.v.Hand {
		if c, err := uno.ParseCard(h); err == nil && c.Face() == face && !slices.Contains(held, c) {
			held = append(held, c)
		}
	}
	name := faceName(face)
	switch {
	case len(playable) == 1:
		return playable[0], nil
	case len(playable) > 1:
		var which []string
		for _, c := range playable {
			which = append(which, fmt.Sprintf("%s (%s)", cardName(c.String()), code(c.String())))
		}
		return uno.NoCard, bad("Which %s? You can play %s.", name, words.List(which))
	case len(held) > 0:
		return held[0], nil
	}
	return uno.NoCard, bad("You hold no %s. %s", name, strings.Join(g.ask(), " "))
}

// seatNamed is the seat a word names: its number or its player's name;
// -1 if none.
func (g *unoGame) seatNamed(w string) int {
	if n, err := strconv.Atoi(w); err == nil && n >= 0 && n < len(g.v.Counts) {
		return n
	}
	for s := range g.v.Counts {
		if strings.EqualFold(g.names.of(s), w) {
			return s
		}
	}
	return -1
}

// matchPlay finds the legal play of the typed card, asking for what is
// missing when its variants differ (the colour of a wild, a 7's target).
func (g *unoGame) matchPlay(p played) (int, error) {
	var cands []int
	for i, a := range g.legal {
		if (a.Type == uno.ActPlay || a.Type == uno.ActJump) && a.Card == p.card &&
			(p.colour < 0 || int(a.Colour) == p.colour) && (p.target < 0 || int(a.Target) == p.target) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return 0, g.whyNot(p)
	}
	first := g.legal[cands[0]]
	for _, i := range cands {
		a := g.legal[i]
		switch {
		case a.Colour != first.Colour:
			return 0, bad("Name the colour: %s red, %s yellow, %s green or %s blue.", code(p.card.String()), code(p.card.String()), code(p.card.String()), code(p.card.String()))
		case a.Target != first.Target:
			return 0, bad("Say whose hand to swap with: %s>SEAT, e.g. %s>%d (%s).", code(p.card.String()), code(p.card.String()), a.Target, g.names.of(int(a.Target)))
		}
	}
	// The play with the call if it was made, else without (both are
	// listed when the play leaves one card; a call that is not needed
	// is not one).
	for _, i := range cands {
		if g.legal[i].Uno == p.call {
			return i, nil
		}
	}
	return cands[0], nil
}

// whyNot says why the typed card cannot be played now.
func (g *unoGame) whyNot(p played) error {
	name := cardName(p.card.String())
	held := false
	for _, h := range g.v.Hand {
		held = held || h == p.card.String()
	}
	if !held {
		return bad("You hold no %s. %s", name, strings.Join(g.ask(), " "))
	}
	return bad("%s cannot be played now. %s", words.Capital(name), strings.Join(g.ask(), " "))
}

// pick is the position of a among the legal actions.
func (g *unoGame) pick(a uno.Action) (int, error) {
	for i, l := range g.legal {
		if l == a {
			return i, nil
		}
	}
	return 0, bad("%s is not a choice now. %s", a, strings.Join(g.ask(), " "))
}

// legend explains the cards' codes, the rules of a play, and the words.
func (g *unoGame) legend() []string {
	out := say("Cards: colour (r y g b) and face: r7 red 7, gs green skip, br blue reverse, rd2 red draw two; w wild, wd4 wild draw four; or in words: red 7.")
	out = append(out, say(fmt.Sprintf("Match the top card's colour or face, or play a wild and name a colour: w green. Add ! to call %s: r7!. A 7 that swaps names the seat: r7>2.", g.call()))...)
	out = append(out, say("Words: draw (d), keep (k), pass (p), challenge (c), accept (a), catch, a colour.")...)
	return append(out, commandsLine)
}
