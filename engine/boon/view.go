package boon

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/engine/jsonw"
)

// View is what a seat (or a spectator, seat -1) observes: public
// information plus the seat's own hand, and for the picker the Boon it
// took and the cards it buried. See docs/games/boon.md for every field.
type View struct {
	Seat           int          `json:"seat"` // -1 for the spectator view
	Seats          int          `json:"seats"`
	Round          int          `json:"round"`
	Dealer         int          `json:"dealer"`
	VC             []int        `json:"vc"`
	Phase          string       `json:"phase"`    // pick, bury, play, over
	ToMove         int          `json:"to_move"`  // -1 once over
	Decision       string       `json:"decision"` // take_or_pass, bury, play (asked of you), wait, none (over)
	Mode           string       `json:"mode"`     // pick (undecided), picker, least
	Picker         int          `json:"picker"`   // -1 unless mode is picker
	Team           string       `json:"team"`     // undecided, picker, defender, self (least), none (spectator)
	Passed         []int        `json:"passed"`   // seats that passed this round, in order
	Hand           []string     `json:"hand"`
	HandSizes      []int        `json:"hand_sizes"`
	BoonSize       int          `json:"boon_size"`
	Boon           []string     `json:"boon,omitempty"`   // the picker's own view only
	Buried         []string     `json:"buried,omitempty"` // the picker's own view only
	BuryLeft       int          `json:"bury_left"`
	TricksPerRound int          `json:"tricks_per_round"`
	TrickNo        int          `json:"trick_no"` // 1-based number of the current trick
	Trick          Trick        `json:"trick"`
	Tricks         []Trick      `json:"tricks"` // completed tricks of this round
	TrickPoints    []int        `json:"trick_points"`
	TricksWon      []int        `json:"tricks_won"`
	Events         []Event      `json:"events"`
	LastRound      *RoundResult `json:"last_round"`
}

// Trick is a trick in the view: cards in play order from the leader.
type Trick struct {
	Leader int      `json:"leader"`
	Led    string   `json:"led"` // suit code of the first card ("B","G","R","Au"), "" if none yet
	Cards  []string `json:"cards"`
	Winner int      `json:"winner"` // seat that won (completed) or is winning so far; -1 if empty
	Points int      `json:"points"`
}

// Event is one public event.
type Event struct {
	Type string `json:"type"`
	Seat int    `json:"seat"`
	Card string `json:"card,omitempty"`
}

// RoundResult summarises the last scored (or redealt) round.
type RoundResult struct {
	Round        int    `json:"round"`
	Dealer       int    `json:"dealer"`
	Mode         string `json:"mode"` // picker, least, redeal
	Picker       int    `json:"picker"`
	PickerPoints int    `json:"picker_points"` // tricks + buried; -1 unless picker mode
	BuriedPoints int    `json:"buried_points"` // -1 unless picker mode
	PerDefender  int    `json:"per_defender"`  // picker mode: VC per defender, > 0 the picker received
	TrickPoints  []int  `json:"trick_points"`
	TricksWon    []int  `json:"tricks_won"`
	Winners      []int  `json:"winners"`
	VCChange     []int  `json:"vc_change"`
	VC           []int  `json:"vc"`
	Summary      string `json:"summary"`
}

// View implements engine.State.
func (s *State) View(seat int) any { return s.ViewOf(seat) }

func seatsOf(bitsSet uint8) []int {
	out := []int{}
	for x := bitsSet; x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros8(x))
	}
	return out
}

func (s *State) trickView(t *trick) Trick {
	v := Trick{Leader: int(t.leader), Cards: make([]string, t.n), Winner: -1}
	for i, c := range t.cards[:t.n] {
		v.Cards[i] = cardNames[c]
	}
	if t.n > 0 {
		v.Led = t.cards[0].Suit().Code()
		v.Winner = t.winner(s.n)
		v.Points = t.points()
	}
	return v
}

// ViewOf is View with its concrete type.
func (s *State) ViewOf(seat int) View {
	n := s.n
	v := View{
		Seat: seat, Seats: n, Round: s.round, Dealer: s.dealer,
		VC: append([]int{}, s.vc[:n]...), Phase: s.phase.String(), ToMove: s.toMove,
		Mode: s.mode.String(), Picker: s.picker,
		BoonSize: s.boonSize, BuryLeft: s.buryLeft, TricksPerRound: s.tricksPer,
		TrickPoints: append([]int{}, s.points[:n]...), TricksWon: append([]int{}, s.won[:n]...),
	}
	if seat < 0 || seat >= n {
		v.Seat = -1
		seat = -1
	}
	switch {
	case s.over:
		v.Decision = "none"
	case seat == s.toMove:
		v.Decision = [...]string{"take_or_pass", "bury", "play"}[s.phase]
	default:
		v.Decision = "wait"
	}
	switch {
	case seat < 0 || s.mode == ModeRedeal:
		v.Team = "none"
	case s.mode == ModePick:
		v.Team = "undecided"
	case s.mode == ModeLeast:
		v.Team = "self"
	case seat == s.picker:
		v.Team = "picker"
	default:
		v.Team = "defender"
	}
	v.Passed = make([]int, s.nPassed)
	for i, d := 0, s.next(s.dealer); i < s.nPassed; i, d = i+1, s.next(d) {
		v.Passed[i] = d
	}
	v.Hand = []string{}
	if seat >= 0 {
		v.Hand = s.hands[seat].Strings()
		if seat == s.picker {
			v.Boon = s.boon.Strings()
			if s.buried != 0 {
				v.Buried = s.buried.Strings()
			}
		}
	}
	v.HandSizes = make([]int, n)
	for i := range n {
		v.HandSizes[i] = s.hands[i].Len()
	}
	v.TrickNo = min(s.nTricks+1, s.tricksPer)
	v.Trick = s.trickView(&s.cur)
	v.Tricks = make([]Trick, s.nTricks)
	for i := range s.nTricks {
		v.Tricks[i] = s.trickView(&s.tricks[i])
	}
	from := s.lastStart
	if seat >= 0 {
		from = s.seen[seat]
	}
	v.Events = make([]Event, 0, len(s.log)-from)
	for _, e := range s.log[from:] {
		ev := Event{Type: evNames[e.kind], Seat: int(e.seat)}
		if e.kind == evPlay {
			ev.Card = cardNames[e.card]
		}
		v.Events = append(v.Events, ev)
	}
	if s.hasLast {
		v.LastRound = s.last.view(n)
	}
	return v
}

func (r *roundResult) view(n int) *RoundResult {
	v := &RoundResult{
		Round: r.round, Dealer: r.dealer, Mode: r.mode.String(), Picker: r.picker,
		PickerPoints: r.pickerPoints, BuriedPoints: r.buriedPoints, PerDefender: r.perDefender,
		TrickPoints: append([]int{}, r.points[:n]...), TricksWon: append([]int{}, r.tricks[:n]...),
		Winners: seatsOf(r.winners), VCChange: append([]int{}, r.delta[:n]...), VC: append([]int{}, r.vc[:n]...),
	}
	v.Summary = r.summary(v.Winners)
	return v
}

func (r *roundResult) summary(winners []int) string {
	switch r.mode {
	case ModeRedeal:
		return fmt.Sprintf("round %d: everyone passed, redeal", r.round)
	case ModePicker:
		what := ""
		switch per := r.perDefender; {
		case per > 0:
			what = fmt.Sprintf("receives %d victory card(s) from each defender", per)
		default:
			what = fmt.Sprintf("pays %d victory card(s) to each defender", -per)
		}
		return fmt.Sprintf("round %d: seat %d picked and scored %d points (%d in tricks, %d buried): %s",
			r.round, r.picker, r.pickerPoints, r.pickerPoints-r.buriedPoints, r.buriedPoints, what)
	}
	if len(winners) == 1 {
		return fmt.Sprintf("round %d (least): seat %d wins with %d points; every other seat gives it 1 victory card",
			r.round, winners[0], r.points[winners[0]])
	}
	moved := false
	for _, d := range r.delta {
		moved = moved || d != 0
	}
	what := "void (least_tie=void), no victory cards move"
	switch {
	case r.tie == LeastTieRandom:
		for i, d := range r.delta {
			if d > 0 {
				what = fmt.Sprintf("seat %d drawn at random (least_tie=random) receives %d victory card(s)", i, d)
			}
		}
	case r.tie == LeastTieSplit && moved:
		what = "each other seat pays 1, dealt round-robin to the tied seats (least_tie=split)"
	case r.tie == LeastTieSplit:
		what = "too few payers to split (least_tie=split), no victory cards move"
	}
	return fmt.Sprintf("round %d (least): %s tie with %d points: %s", r.round, seatList(winners), r.points[winners[0]], what)
}

// RenderText implements engine.TextRenderer: the table as seat sees it.
func (s *State) RenderText(seat int) string {
	v := s.ViewOf(seat)
	var b strings.Builder
	fmt.Fprintf(&b, "boon, %d seats, round %d, dealer seat %d, mode %s", s.n, v.Round, v.Dealer, v.Mode)
	if v.Picker >= 0 {
		fmt.Fprintf(&b, ", picker seat %d", v.Picker)
	}
	b.WriteByte('\n')
	for i := range s.n {
		tag := ""
		if i == seat {
			tag = " (you)"
		}
		role := ""
		switch {
		case s.mode == ModePicker && i == s.picker:
			role = " picker"
		case s.mode == ModePicker:
			role = " defender"
		}
		fmt.Fprintf(&b, "seat %d%s%s: %d VC, %d cards, %d tricks, %d points\n",
			i, tag, role, v.VC[i], v.HandSizes[i], v.TricksWon[i], v.TrickPoints[i])
	}
	if seat >= 0 {
		fmt.Fprintf(&b, "hand: %s\n", strings.Join(v.Hand, " "))
		if len(v.Boon) > 0 {
			fmt.Fprintf(&b, "boon taken: %s\n", strings.Join(v.Boon, " "))
		}
		if len(v.Buried) > 0 {
			fmt.Fprintf(&b, "buried: %s\n", strings.Join(v.Buried, " "))
		}
	}
	for i, t := range v.Tricks {
		fmt.Fprintf(&b, "trick %d: led by seat %d: %s, won by seat %d (%d points)\n",
			i+1, t.Leader, strings.Join(t.Cards, " "), t.Winner, t.Points)
	}
	if s.phase == PhasePlay {
		cards := strings.Join(v.Trick.Cards, " ")
		if cards == "" {
			cards = "(no card yet)"
		}
		fmt.Fprintf(&b, "trick %d: led by seat %d: %s\n", v.TrickNo, v.Trick.Leader, cards)
	}
	switch {
	case s.over:
		fmt.Fprintf(&b, "game over: %s\n", s.outcome.Reason)
	case s.phase == PhasePick:
		fmt.Fprintf(&b, "to move: seat %d, take or pass the Boon (%d cards)\n", s.toMove, s.boonSize)
	case s.phase == PhaseBury:
		fmt.Fprintf(&b, "to move: seat %d, bury %d more card(s)\n", s.toMove, s.buryLeft)
	default:
		fmt.Fprintf(&b, "to move: seat %d, play a card\n", s.toMove)
	}
	if v.LastRound != nil {
		fmt.Fprintf(&b, "last round: %s\n", v.LastRound.Summary)
	}
	return b.String()
}

// AppendJSON implements engine.JSONAppender: the bytes json.Marshal gives
// for v, without reflection (the referee encodes a view on every move).
func (v View) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"seat":`...)
	dst = strconv.AppendInt(dst, int64(v.Seat), 10)
	dst = append(dst, `,"seats":`...)
	dst = strconv.AppendInt(dst, int64(v.Seats), 10)
	dst = append(dst, `,"round":`...)
	dst = strconv.AppendInt(dst, int64(v.Round), 10)
	dst = append(dst, `,"dealer":`...)
	dst = strconv.AppendInt(dst, int64(v.Dealer), 10)
	dst = append(dst, `,"vc":`...)
	dst = jsonw.Ints(dst, v.VC)
	dst = append(dst, `,"phase":`...)
	dst = jsonw.String(dst, v.Phase)
	dst = append(dst, `,"to_move":`...)
	dst = strconv.AppendInt(dst, int64(v.ToMove), 10)
	dst = append(dst, `,"decision":`...)
	dst = jsonw.String(dst, v.Decision)
	dst = append(dst, `,"mode":`...)
	dst = jsonw.String(dst, v.Mode)
	dst = append(dst, `,"picker":`...)
	dst = strconv.AppendInt(dst, int64(v.Picker), 10)
	dst = append(dst, `,"team":`...)
	dst = jsonw.String(dst, v.Team)
	dst = append(dst, `,"passed":`...)
	dst = jsonw.Ints(dst, v.Passed)
	dst = append(dst, `,"hand":`...)
	dst = jsonw.Strings(dst, v.Hand)
	dst = append(dst, `,"hand_sizes":`...)
	dst = jsonw.Ints(dst, v.HandSizes)
	dst = append(dst, `,"boon_size":`...)
	dst = strconv.AppendInt(dst, int64(v.BoonSize), 10)
	if len(v.Boon) > 0 {
		dst = append(dst, `,"boon":`...)
		dst = jsonw.Strings(dst, v.Boon)
	}
	if len(v.Buried) > 0 {
		dst = append(dst, `,"buried":`...)
		dst = jsonw.Strings(dst, v.Buried)
	}
	dst = append(dst, `,"bury_left":`...)
	dst = strconv.AppendInt(dst, int64(v.BuryLeft), 10)
	dst = append(dst, `,"tricks_per_round":`...)
	dst = strconv.AppendInt(dst, int64(v.TricksPerRound), 10)
	dst = append(dst, `,"trick_no":`...)
	dst = strconv.AppendInt(dst, int64(v.TrickNo), 10)
	dst = append(dst, `,"trick":`...)
	dst = v.Trick.AppendJSON(dst)
	dst = append(dst, `,"tricks":`...)
	dst = jsonw.Values(dst, v.Tricks)
	dst = append(dst, `,"trick_points":`...)
	dst = jsonw.Ints(dst, v.TrickPoints)
	dst = append(dst, `,"tricks_won":`...)
	dst = jsonw.Ints(dst, v.TricksWon)
	dst = append(dst, `,"events":`...)
	dst = jsonw.Array(dst, v.Events, func(dst []byte, e Event) []byte {
		dst = append(dst, `{"type":`...)
		dst = jsonw.String(dst, e.Type)
		dst = append(dst, `,"seat":`...)
		dst = strconv.AppendInt(dst, int64(e.Seat), 10)
		if e.Card != "" {
			dst = append(dst, `,"card":`...)
			dst = jsonw.String(dst, e.Card)
		}
		dst = append(dst, '}')
		return dst
	})
	dst = append(dst, `,"last_round":`...)
	if v.LastRound == nil {
		dst = append(dst, "null"...)
	} else {
		dst = v.LastRound.AppendJSON(dst)
	}
	return append(dst, '}')
}

// AppendJSON appends the trick's JSON (as json.Marshal).
func (t Trick) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"leader":`...)
	dst = strconv.AppendInt(dst, int64(t.Leader), 10)
	dst = append(dst, `,"led":`...)
	dst = jsonw.String(dst, t.Led)
	dst = append(dst, `,"cards":`...)
	dst = jsonw.Strings(dst, t.Cards)
	dst = append(dst, `,"winner":`...)
	dst = strconv.AppendInt(dst, int64(t.Winner), 10)
	dst = append(dst, `,"points":`...)
	dst = strconv.AppendInt(dst, int64(t.Points), 10)
	return append(dst, '}')
}

// AppendJSON appends the round result's JSON (as json.Marshal).
func (r *RoundResult) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"round":`...)
	dst = strconv.AppendInt(dst, int64(r.Round), 10)
	dst = append(dst, `,"dealer":`...)
	dst = strconv.AppendInt(dst, int64(r.Dealer), 10)
	dst = append(dst, `,"mode":`...)
	dst = jsonw.String(dst, r.Mode)
	dst = append(dst, `,"picker":`...)
	dst = strconv.AppendInt(dst, int64(r.Picker), 10)
	dst = append(dst, `,"picker_points":`...)
	dst = strconv.AppendInt(dst, int64(r.PickerPoints), 10)
	dst = append(dst, `,"buried_points":`...)
	dst = strconv.AppendInt(dst, int64(r.BuriedPoints), 10)
	dst = append(dst, `,"per_defender":`...)
	dst = strconv.AppendInt(dst, int64(r.PerDefender), 10)
	dst = append(dst, `,"trick_points":`...)
	dst = jsonw.Ints(dst, r.TrickPoints)
	dst = append(dst, `,"tricks_won":`...)
	dst = jsonw.Ints(dst, r.TricksWon)
	dst = append(dst, `,"winners":`...)
	dst = jsonw.Ints(dst, r.Winners)
	dst = append(dst, `,"vc_change":`...)
	dst = jsonw.Ints(dst, r.VCChange)
	dst = append(dst, `,"vc":`...)
	dst = jsonw.Ints(dst, r.VC)
	dst = append(dst, `,"summary":`...)
	dst = jsonw.String(dst, r.Summary)
	return append(dst, '}')
}
