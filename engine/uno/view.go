package uno

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/arena-dev/arena/engine/jsonw"
)

// View is what a seat (or a spectator) observes. It never holds another
// seat's cards or the draw pile, except the challenge reveal, which only
// the challenger's view carries.
type View struct {
	// You is the viewer's seat; absent in the spectator view.
	You *int `json:"you,omitempty"`
	// Hand is the viewer's cards in card order; null for the spectator.
	Hand []string `json:"hand"`
	// Top is the top card of the discard pile.
	Top string `json:"top"`
	// Colour is the active colour; null until a starting Wild's colour is named.
	Colour *string `json:"colour"`
	// Direction: 1 = clockwise (seat+1 plays next), -1 = counter-clockwise.
	Direction int `json:"direction"`
	Dealer    int `json:"dealer"`
	// HandNo counts hands from 1.
	HandNo int `json:"hand_no"`
	ToMove int `json:"to_move"`
	// Counts is every seat's number of cards.
	Counts []int `json:"counts"`
	// Scores is every seat's total score (a hand is scored when its first
	// seat goes out).
	Scores []int `json:"scores"`
	// Finished lists the seats out of the current hand, in order.
	Finished []int `json:"finished"`
	// DrawPile is the number of cards in the draw pile.
	DrawPile int `json:"draw_pile"`
	// Discard is the discard pile, bottom first (since the last reshuffle).
	Discard []string `json:"discard"`
	// Events is what happened since the viewer's last decision (spectator:
	// since the last action every seat can see).
	Events []Event `json:"events"`
	// Decision is what the viewer is asked now; null when not to move.
	Decision *Decision `json:"decision"`
	// Hands lists the finished hands.
	Hands []HandResult `json:"hands"`
	// Actions counts the actions every seat has seen; the hidden
	// decisions (a jump-in poll's pass, a drawn card's keep) are not
	// counted.
	Actions int  `json:"actions"`
	Over    bool `json:"over"`
	// Rules are the rules in force.
	Rules RulesView `json:"rules"`
}

// Event is one thing that happened. Cards is filled only for the seat it
// concerns (its own draws) and for a challenger (the reveal).
type Event struct {
	Type   string   `json:"type"`
	Seat   int      `json:"seat"`
	Card   string   `json:"card,omitempty"`
	Colour string   `json:"colour,omitempty"`
	Target *int     `json:"target,omitempty"`
	N      int      `json:"n,omitempty"`
	Cards  []string `json:"cards,omitempty"`
	Uno    bool     `json:"uno,omitempty"`
	Why    string   `json:"why,omitempty"`
}

// Decision is what the seat to move is asked.
type Decision struct {
	// Kind: colour (name a starting Wild's colour), play (play or draw),
	// drawn (play the drawn card or keep it), pending (draws pending on
	// you: stack, deflect, challenge or accept), jump (jump in or pass).
	Kind string `json:"kind"`
	// Card: the card just drawn (drawn) or the card you may jump in with (jump).
	Card string `json:"card,omitempty"`
	// Pending is the number of cards you will draw if you accept.
	Pending int `json:"pending,omitempty"`
	// Challenge: you may challenge the Wild Draw Four of seat From, played
	// while the active colour was PrevColour.
	Challenge  bool   `json:"challenge,omitempty"`
	From       *int   `json:"from,omitempty"`
	PrevColour string `json:"prev_colour,omitempty"`
	// Catch is the seat you may catch for a missed call (catch_window).
	Catch *int `json:"catch,omitempty"`
}

// RulesView is the rules in force, as resolved option values.
type RulesView struct {
	Preset            string `json:"rules"`
	StartCard         string `json:"start_card"`
	VoluntaryDraw     bool   `json:"voluntary_draw"`
	DrawUntilPlayable bool   `json:"draw_until_playable"`
	WD4Mode           string `json:"wd4_mode"`
	UnoCall           string `json:"uno_call"`
	Call              string `json:"call"`
	Scoring           string `json:"scoring"`
	Target            int    `json:"target"`
	StackDraws        bool   `json:"stack_draws"`
	SevenZero         bool   `json:"seven_zero"`
	ReverseDeflects   bool   `json:"reverse_deflects_draw"`
	PlayToLast        bool   `json:"play_to_last"`
	JumpIn            bool   `json:"jump_in"`
	MaxActions        int    `json:"max_actions"`
}

func (r Rules) view() RulesView {
	v := RulesView{
		Preset: r.Preset, StartCard: "official", VoluntaryDraw: r.VoluntaryDraw,
		DrawUntilPlayable: r.DrawUntilPlayable, WD4Mode: "challenge", UnoCall: unoCallNames[r.UnoCall],
		Call: r.CallName, Scoring: scoringNames[r.Scoring], Target: r.Target, StackDraws: r.StackDraws,
		SevenZero: r.SevenZero, ReverseDeflects: r.ReverseDeflects, PlayToLast: r.PlayToLast,
		JumpIn: r.JumpIn, MaxActions: r.MaxActions,
	}
	if v.Preset == "" {
		v.Preset = "official"
	}
	if r.StartNumberOnly {
		v.StartCard = "number_only"
	}
	if r.Enforce {
		v.WD4Mode = "enforce"
	}
	return v
}

func intPtr(i int) *int { return &i }

func cardStrings(cs []Card) []string { return appendCardStrings(make([]string, 0, len(cs)), cs) }

// appendCardStrings appends the names of cs to dst.
func appendCardStrings(dst []string, cs []Card) []string {
	for _, c := range cs {
		dst = append(dst, c.String())
	}
	return dst
}

// View implements engine.State.
func (s *State) View(seat int) any { return s.ViewOf(seat) }

// ViewOf is View with its concrete type.
func (s *State) ViewOf(seat int) View {
	var v View
	s.fillView(&v, seat)
	// fillView shares the state's hand results; a View kept must not.
	v.Hands = copyHands(v.Hands)
	return v
}

// viewScratch lends AppendView a View whose slices it reuses.
var viewScratch = sync.Pool{New: func() any { return new(View) }}

// AppendView implements engine.ViewAppender: ViewOf(seat) as JSON,
// appended to dst, without the allocations of a View built to be kept
// (a referee writes one for every turn).
func (s *State) AppendView(dst []byte, seat int) []byte {
	v := viewScratch.Get().(*View)
	s.fillView(v, seat)
	dst = v.AppendJSON(dst)
	v.Hands = nil // the state's
	viewScratch.Put(v)
	return dst
}

// fillView makes v seat's view, reusing v's slices and pointers (a zero
// v gets its own). v.Hands is the state's own hand results.
func (s *State) fillView(v *View, seat int) {
	*v = View{
		You: v.You, Hand: v.Hand[:0], Counts: v.Counts[:0], Scores: v.Scores[:0], Finished: v.Finished[:0],
		Discard: v.Discard[:0], Events: v.Events[:0], Decision: v.Decision,
		Top: s.Top().String(), Direction: s.dir, Dealer: s.dealer, HandNo: s.handNo, ToMove: s.cur,
		DrawPile: len(s.draw), Hands: s.hands, Actions: s.public, Over: s.over, Rules: s.rules.view(),
	}
	// Empty lists are [] in the JSON, not null: never nil (a zero-length
	// literal allocates nothing). The spectator's hand alone is null.
	if v.Finished == nil {
		v.Finished = []int{}
	}
	if v.Discard == nil {
		v.Discard = []string{}
	}
	if v.Events == nil {
		v.Events = []Event{}
	}
	if v.Hands == nil {
		v.Hands = []HandResult{}
	}
	if s.colour >= 0 {
		v.Colour = &ColourNames[s.colour]
	}
	v.Counts = append(v.Counts, s.count[:s.n]...)
	v.Scores = append(v.Scores, s.scores[:s.n]...)
	for _, q := range s.finish[:s.nFinish] {
		v.Finished = append(v.Finished, int(q))
	}
	v.Discard = appendCardStrings(v.Discard, s.discard)
	from := s.actStart
	if seat >= 0 && seat < s.n {
		if v.You == nil {
			v.You = new(int)
		}
		*v.You = seat
		if v.Hand == nil {
			v.Hand = []string{}
		}
		v.Hand = appendCardStrings(v.Hand, s.Hand(seat))
		from = s.lastSeen[seat]
	} else {
		v.You, v.Hand = nil, nil
	}
	for _, e := range s.events[from:] {
		if ev, ok := s.eventFor(e, seat); ok {
			v.Events = append(v.Events, ev)
		}
		if e.kind == evDraw && e.uno {
			v.Events = append(v.Events, Event{Type: evNames[evKeep], Seat: int(e.seat)})
		}
	}
	if s.over || seat != s.cur {
		v.Decision = nil
		return
	}
	if v.Decision == nil {
		v.Decision = new(Decision)
	}
	s.fillDecision(v.Decision)
}

func (s *State) eventFor(e event, seat int) (Event, bool) {
	ev := Event{Type: evNames[e.kind], Seat: int(e.seat)}
	switch e.kind {
	case evDeal, evOut, evReshuffle, evRotate:
		ev.N = int(e.n)
	case evStart:
		ev.Card = e.card.String()
	case evColour:
		ev.Colour = ColourNames[e.colour]
	case evPlay, evJump:
		ev.Card = e.card.String()
		if e.card.IsWild() {
			ev.Colour = ColourNames[e.colour]
		}
		if e.target >= 0 {
			ev.Target = intPtr(int(e.target))
		}
		ev.Uno = e.uno
	case evDraw:
		ev.N = int(e.n)
		ev.Why = whyNames[e.why]
		if seat+1 == int(e.priv) && e.n > 0 {
			ev.Cards = cardStrings(s.evCards[e.off : int(e.off)+int(e.n)])
		}
	case evChallenge:
		ev.Target = intPtr(int(e.target))
		ev.Why = whyNames[e.why]
	case evReveal:
		if seat+1 != int(e.priv) {
			return ev, false
		}
		ev.N = int(e.n)
		ev.Cards = cardStrings(s.evCards[e.off : int(e.off)+int(e.n)])
	case evCatch, evSwap:
		ev.Target = intPtr(int(e.target))
	case evHandEnd:
		ev.N = int(e.n)
	}
	return ev, true
}

func (s *State) decision() *Decision {
	d := new(Decision)
	s.fillDecision(d)
	return d
}

// fillDecision makes *d what the seat to move is asked, reusing d's
// pointers.
func (s *State) fillDecision(d *Decision) {
	from, catch := d.From, d.Catch
	*d = Decision{Kind: phaseNames[s.phase]}
	switch s.phase {
	case phDrawn:
		d.Card = s.drawn.String()
	case phJump:
		d.Card = s.jumpCard.String()
	case phPending:
		d.Pending = s.pending
		if s.challengeable {
			d.Challenge = true
			d.From = reuseInt(from, s.wd4Player)
			d.PrevColour = ColourNames[s.wd4Prev]
		}
	}
	if s.catchable() {
		d.Catch = reuseInt(catch, s.catchSeat)
	}
}

// reuseInt is p set to i, or a new int holding i if p is nil.
func reuseInt(p *int, i int) *int {
	if p == nil {
		return intPtr(i)
	}
	*p = i
	return p
}

// RenderText implements engine.TextRenderer: the table as seat sees it
// (only its own hand; the spectator sees no hand).
func (s *State) RenderText(seat int) string {
	var b strings.Builder
	dir := "clockwise"
	if s.dir < 0 {
		dir = "counter-clockwise"
	}
	col := "none"
	if s.colour >= 0 {
		col = ColourNames[s.colour]
	}
	fmt.Fprintf(&b, "hand %d, dealer seat %d, %s\n", s.handNo, s.dealer, dir)
	fmt.Fprintf(&b, "top %s  colour %s  draw pile %d  discard %d\n", s.Top(), col, len(s.draw), len(s.discard))
	for i := range s.n {
		mark := "  "
		if !s.over && i == s.cur {
			mark = "> "
		}
		fmt.Fprintf(&b, "%sseat %d: %2d cards, %d points", mark, i, s.count[i], s.scores[i])
		if !s.active[i] && !s.over {
			b.WriteString(" (out)")
		}
		if i == seat {
			fmt.Fprintf(&b, "  [%s]", strings.Join(cardStrings(s.Hand(i)), " "))
		}
		b.WriteByte('\n')
	}
	if s.over {
		// The outcome is built on first use (Outcome); build it here
		// without storing it, so that rendering stays a read-only look at
		// the state, as View is.
		o := s.outcome
		if o.Ranks == nil {
			o = s.buildOutcome()
		}
		fmt.Fprintf(&b, "game over after %d actions: %s\n", s.public, o.Reason)
	} else {
		d := s.decision()
		fmt.Fprintf(&b, "to move: seat %d (%s", s.cur, d.Kind)
		if d.Card != "" {
			fmt.Fprintf(&b, " %s", d.Card)
		}
		if d.Pending > 0 {
			fmt.Fprintf(&b, ", %d pending", d.Pending)
		}
		b.WriteString(")\n")
	}
	return b.String()
}

// AppendJSON implements engine.JSONAppender: the bytes json.Marshal gives
// for v, without reflection. View strings are plain ASCII card, colour
// and word names, which need no escaping.
func (v View) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if v.You != nil {
		dst = append(dst, `"you":`...)
		dst = strconv.AppendInt(dst, int64(*v.You), 10)
		dst = append(dst, ',')
	}
	dst = append(dst, `"hand":`...)
	dst = jsonw.Strings(dst, v.Hand)
	dst = append(dst, `,"top":`...)
	dst = jsonw.String(dst, v.Top)
	dst = append(dst, `,"colour":`...)
	if v.Colour == nil {
		dst = append(dst, "null"...)
	} else {
		dst = jsonw.String(dst, *v.Colour)
	}
	dst = appendIntField(dst, `,"direction":`, v.Direction)
	dst = appendIntField(dst, `,"dealer":`, v.Dealer)
	dst = appendIntField(dst, `,"hand_no":`, v.HandNo)
	dst = appendIntField(dst, `,"to_move":`, v.ToMove)
	dst = append(dst, `,"counts":`...)
	dst = jsonw.Ints(dst, v.Counts)
	dst = append(dst, `,"scores":`...)
	dst = jsonw.Ints(dst, v.Scores)
	dst = append(dst, `,"finished":`...)
	dst = jsonw.Ints(dst, v.Finished)
	dst = appendIntField(dst, `,"draw_pile":`, v.DrawPile)
	dst = append(dst, `,"discard":`...)
	dst = jsonw.Strings(dst, v.Discard)
	dst = append(dst, `,"events":`...)
	dst = jsonw.Values(dst, v.Events)
	dst = append(dst, `,"decision":`...)
	if v.Decision == nil {
		dst = append(dst, "null"...)
	} else {
		dst = v.Decision.AppendJSON(dst)
	}
	dst = append(dst, `,"hands":`...)
	dst = jsonw.Values(dst, v.Hands)
	dst = appendIntField(dst, `,"actions":`, v.Actions)
	dst = appendBoolField(dst, `,"over":`, v.Over)
	dst = append(dst, `,"rules":`...)
	dst = v.Rules.AppendJSON(dst)
	return append(dst, '}')
}

// AppendJSON appends e as json.Marshal would.
func (e Event) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonw.String(dst, e.Type)
	dst = appendIntField(dst, `,"seat":`, e.Seat)
	if e.Card != "" {
		dst = append(dst, `,"card":`...)
		dst = jsonw.String(dst, e.Card)
	}
	if e.Colour != "" {
		dst = append(dst, `,"colour":`...)
		dst = jsonw.String(dst, e.Colour)
	}
	if e.Target != nil {
		dst = appendIntField(dst, `,"target":`, *e.Target)
	}
	if e.N != 0 {
		dst = appendIntField(dst, `,"n":`, e.N)
	}
	if len(e.Cards) > 0 {
		dst = append(dst, `,"cards":`...)
		dst = jsonw.Strings(dst, e.Cards)
	}
	if e.Uno {
		dst = append(dst, `,"uno":true`...)
	}
	if e.Why != "" {
		dst = append(dst, `,"why":`...)
		dst = jsonw.String(dst, e.Why)
	}
	return append(dst, '}')
}

// AppendJSON appends d as json.Marshal would.
func (d *Decision) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"kind":`...)
	dst = jsonw.String(dst, d.Kind)
	if d.Card != "" {
		dst = append(dst, `,"card":`...)
		dst = jsonw.String(dst, d.Card)
	}
	if d.Pending != 0 {
		dst = appendIntField(dst, `,"pending":`, d.Pending)
	}
	if d.Challenge {
		dst = append(dst, `,"challenge":true`...)
	}
	if d.From != nil {
		dst = appendIntField(dst, `,"from":`, *d.From)
	}
	if d.PrevColour != "" {
		dst = append(dst, `,"prev_colour":`...)
		dst = jsonw.String(dst, d.PrevColour)
	}
	if d.Catch != nil {
		dst = appendIntField(dst, `,"catch":`, *d.Catch)
	}
	return append(dst, '}')
}

// AppendJSON appends h as json.Marshal would.
func (h HandResult) AppendJSON(dst []byte) []byte {
	dst = appendIntField(dst, `{"hand":`, h.Hand)
	dst = appendIntField(dst, `,"dealer":`, h.Dealer)
	dst = appendIntField(dst, `,"winner":`, h.Winner)
	dst = append(dst, `,"points":`...)
	dst = jsonw.Ints(dst, h.Points)
	dst = append(dst, `,"finish":`...)
	dst = jsonw.Ints(dst, h.Finish)
	return append(dst, '}')
}

// AppendJSON appends r as json.Marshal would.
func (r RulesView) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"rules":`...)
	dst = jsonw.String(dst, r.Preset)
	dst = append(dst, `,"start_card":`...)
	dst = jsonw.String(dst, r.StartCard)
	dst = appendBoolField(dst, `,"voluntary_draw":`, r.VoluntaryDraw)
	dst = appendBoolField(dst, `,"draw_until_playable":`, r.DrawUntilPlayable)
	dst = append(dst, `,"wd4_mode":`...)
	dst = jsonw.String(dst, r.WD4Mode)
	dst = append(dst, `,"uno_call":`...)
	dst = jsonw.String(dst, r.UnoCall)
	dst = append(dst, `,"call":`...)
	dst = jsonw.String(dst, r.Call)
	dst = append(dst, `,"scoring":`...)
	dst = jsonw.String(dst, r.Scoring)
	dst = appendIntField(dst, `,"target":`, r.Target)
	dst = appendBoolField(dst, `,"stack_draws":`, r.StackDraws)
	dst = appendBoolField(dst, `,"seven_zero":`, r.SevenZero)
	dst = appendBoolField(dst, `,"reverse_deflects_draw":`, r.ReverseDeflects)
	dst = appendBoolField(dst, `,"play_to_last":`, r.PlayToLast)
	dst = appendBoolField(dst, `,"jump_in":`, r.JumpIn)
	dst = appendIntField(dst, `,"max_actions":`, r.MaxActions)
	return append(dst, '}')
}

func appendIntField(dst []byte, name string, n int) []byte {
	dst = append(dst, name...)
	return strconv.AppendInt(dst, int64(n), 10)
}

func appendBoolField(dst []byte, name string, b bool) []byte {
	dst = append(dst, name...)
	return strconv.AppendBool(dst, b)
}
