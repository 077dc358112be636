package uno

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
)

func rules(f func(*Rules)) Rules {
	r := DefaultRules()
	if f != nil {
		f(&r)
	}
	return r
}

func wantLegal(t *testing.T, s *State, want string) {
	t.Helper()
	if got := legalStrings(s); got != want {
		t.Fatalf("legal %q, want %q\n%s", got, want, s.RenderText(engine.Spectator))
	}
}

func wantTurn(t *testing.T, s *State, seat int, ph phase) {
	t.Helper()
	if s.cur != seat || s.phase != ph {
		t.Fatalf("seat %d to move (%s), want seat %d (%s)", s.cur, phaseNames[s.phase], seat, phaseNames[ph])
	}
}

func wantCounts(t *testing.T, s *State, counts ...int) {
	t.Helper()
	for i, c := range counts {
		if s.count[i] != c {
			t.Fatalf("seat %d holds %d cards, want %d (%v)", i, s.count[i], c, s.count[:s.n])
		}
	}
}

// Starting card (official rules 1.2): each case, for 4 and 2 seats. Seat
// 0 deals the first hand, so seat 1 is left of the dealer.
func TestStartCard(t *testing.T) {
	cases := []struct {
		name   string
		card   string
		seats  int
		cur    int
		dir    int
		counts []int
	}{
		{"number: the player left of the dealer starts", "R5", 4, 1, 1, []int{7, 7, 7, 7}},
		{"skip: the player left of the dealer is skipped", "RS", 4, 2, 1, []int{7, 7, 7, 7}},
		{"skip, two players: the dealer plays", "RS", 2, 0, 1, []int{7, 7}},
		{"reverse: the dealer plays first, then counter-clockwise", "RR", 4, 0, -1, []int{7, 7, 7, 7}},
		{"reverse, two players: acts as skip, the dealer plays", "RR", 2, 0, 1, []int{7, 7}},
		{"draw two: the first player draws 2 and loses the turn", "RD2", 4, 2, 1, []int{7, 9, 7, 7}},
		{"draw two, two players: the dealer plays", "RD2", 2, 0, 1, []int{7, 9}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s *State
			withDeck(startWith(card(tc.card)), func() { s = NewState(tc.seats, 5, DefaultRules()) })
			checkConservation(t, s)
			if s.Top() != card(tc.card) || s.colour != Red {
				t.Fatalf("top %s colour %d", s.Top(), s.colour)
			}
			wantTurn(t, s, tc.cur, phTurn)
			if s.dir != tc.dir {
				t.Fatalf("direction %d, want %d", s.dir, tc.dir)
			}
			wantCounts(t, s, tc.counts...)
		})
	}
}

// A starting Wild: the first player names the colour, then plays.
func TestStartCardWildFirstPlayerNamesColour(t *testing.T) {
	var s *State
	withDeck(startWith(Wild), func() { s = NewState(3, 5, DefaultRules()) })
	wantTurn(t, s, 1, phColour)
	wantLegal(t, s, "colour:red colour:yellow colour:green colour:blue")
	if v := s.ViewOf(1); v.Colour != nil || v.Decision.Kind != "colour" {
		t.Fatalf("view before naming: %s", v.AppendJSON(nil))
	}
	mustPlay(t, s, NameColour(Blue))
	wantTurn(t, s, 1, phTurn)
	if s.colour != Blue {
		t.Fatal("colour not named")
	}
}

// A starting Wild Draw Four goes back into the pile, which is reshuffled.
func TestStartCardWildDrawFourReshuffledBack(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		var s *State
		withDeck(startWith(WildDraw), func() { s = NewState(4, seed, DefaultRules()) })
		checkConservation(t, s)
		if s.Top() == WildDraw || len(s.discard) != 1 {
			t.Fatalf("top %s, discard %v", s.Top(), s.discard)
		}
		wd4 := 0
		for _, c := range s.draw {
			if c == WildDraw {
				wd4++
			}
		}
		for i := range 4 {
			wd4 += int(s.hand[i][WildDraw])
		}
		if wd4 != 4 {
			t.Fatalf("%d WD4 in draw pile and hands", wd4)
		}
	}
}

// start_card=number_only (Bounce): action cards and wilds are redrawn.
func TestStartCardNumberOnly(t *testing.T) {
	r := rules(func(r *Rules) { r.StartNumberOnly = true })
	for _, c := range []string{"RS", "W", "RD2", "BR", "WD4"} {
		var s *State
		withDeck(startWith(card(c)), func() { s = NewState(4, 7, r) })
		checkConservation(t, s)
		if !s.Top().IsNumber() {
			t.Fatalf("start %s: top %s is not a number", c, s.Top())
		}
		wantTurn(t, s, 1, phTurn)
	}
}

func TestTwoPlayerReverseActsAsSkip(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"RR R5 G1", "B2 B3"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RR"))
	wantTurn(t, s, 0, phTurn)
	// With three seats it reverses: seat 2 is next.
	s = setup(t, DefaultRules(), table{hands: []string{"RR R5 G1", "B2 B3", "Y1"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RR"))
	wantTurn(t, s, 2, phTurn)
	if s.dir != -1 {
		t.Fatal("direction not reversed")
	}
}

func TestTwoPlayerSkipAndDrawTwoPlayAgain(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"RS RD2 G1", "B2 B3"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RS"))
	wantTurn(t, s, 0, phTurn)
	mustPlay(t, s, pl("RD2!"))
	wantTurn(t, s, 0, phTurn)
	wantCounts(t, s, 1, 4)
	// Four seats: Skip skips one seat, Draw Two hits the next and skips it.
	s = setup(t, DefaultRules(), table{hands: []string{"RS RD2 G1", "B2 B3", "Y1", "Y2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RS"))
	wantTurn(t, s, 2, phTurn)
	s = setup(t, DefaultRules(), table{hands: []string{"RS RD2 G1", "B2 B3", "Y1", "Y2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RD2"))
	wantTurn(t, s, 2, phTurn)
	wantCounts(t, s, 2, 4, 1, 1)
}

// Wild Draw Four challenge (1.5), guilty: the bluffer draws 4, the
// challenger plays; only the challenger sees the hand.
func TestChallengeGuilty(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"WD4 R3 G5", "B1 B2", "Y1 Y2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("WD4:blue"))
	wantTurn(t, s, 1, phPending)
	wantLegal(t, s, "challenge accept")
	d := s.ViewOf(1).Decision
	if !d.Challenge || *d.From != 0 || d.PrevColour != "red" || d.Pending != 4 {
		t.Fatalf("decision %+v", d)
	}
	mustPlay(t, s, Challenge)
	wantTurn(t, s, 1, phTurn)
	wantCounts(t, s, 6, 2, 2)
	if s.colour != Blue {
		t.Fatal("the named colour must stand")
	}
	checkReveal(t, s, 1, 0, "R3 G5")
}

// checkReveal: the challenged hand shows in the challenger's view only.
func checkReveal(t *testing.T, s *State, challenger, challenged int, hand string) {
	t.Helper()
	for seat := -1; seat < s.n; seat++ {
		v := s.ViewOf(seat)
		found := false
		for _, e := range v.Events {
			if e.Type == "reveal" {
				found = true
				if e.Seat != challenged || strings.Join(e.Cards, " ") != hand {
					t.Fatalf("reveal %+v, want seat %d %q", e, challenged, hand)
				}
			}
		}
		if found != (seat == challenger) {
			t.Fatalf("seat %d sees the reveal: %v", seat, found)
		}
		if seat != challenger && bytes.Contains(v.AppendJSON(nil), []byte(`"reveal"`)) {
			t.Fatalf("seat %d view mentions the reveal", seat)
		}
	}
}

// Innocent: the challenger draws 6 and loses the turn.
func TestChallengeInnocent(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"WD4 G5 Y3", "B1 B2", "Y1 Y2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("WD4:green"))
	mustPlay(t, s, Challenge)
	wantTurn(t, s, 2, phTurn)
	wantCounts(t, s, 2, 8, 2)
	checkReveal(t, s, 1, 0, "Y3 G5")
	// Accepting: draw 4, lose the turn.
	s = setup(t, DefaultRules(), table{hands: []string{"WD4 G5 Y3", "B1 B2", "Y1 Y2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("WD4:green"), Accept)
	wantTurn(t, s, 2, phTurn)
	wantCounts(t, s, 2, 6, 2)
}

// wd4_mode=enforce: a WD4 is legal only without a card of the active
// colour, and there is no challenge.
func TestWD4Enforce(t *testing.T) {
	r := rules(func(r *Rules) { r.Enforce = true })
	s := setup(t, r, table{hands: []string{"WD4 R3 G5", "B1 B2", "Y1"}, top: "R9", colour: -1})
	wantLegal(t, s, "R3 draw")
	s = setup(t, r, table{hands: []string{"WD4 G9 G5", "B1 B2", "Y1"}, top: "R9", colour: -1})
	wantLegal(t, s, "G9 WD4:red WD4:yellow WD4:green WD4:blue draw")
	mustPlay(t, s, pl("WD4:blue"))
	wantTurn(t, s, 2, phTurn)
	wantCounts(t, s, 2, 6, 1)
}

// The call (1.6): a play leaving one card is listed with and without it.
func TestUnoCallAutocatch(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"R3 G4", "B1 B2"}, top: "R9", colour: -1})
	wantLegal(t, s, "R3! R3 draw")
	mustPlay(t, s, pl("R3"))
	wantCounts(t, s, 3, 2)
	s = setup(t, DefaultRules(), table{hands: []string{"R3 G4", "B1 B2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("R3!"))
	wantCounts(t, s, 1, 2)
}

func TestUnoCallOff(t *testing.T) {
	s := setup(t, rules(func(r *Rules) { r.UnoCall = CallOff }), table{hands: []string{"R3 G4", "B1 B2"}, top: "R9", colour: -1})
	wantLegal(t, s, "R3 draw")
	mustPlay(t, s, pl("R3"))
	wantCounts(t, s, 1, 2)
}

func TestUnoCallCatchWindow(t *testing.T) {
	r := rules(func(r *Rules) { r.UnoCall = CallCatchWindow })
	s := setup(t, r, table{hands: []string{"R3 G4", "B1 B2", "R1"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("R3"))
	wantCounts(t, s, 1, 2, 1)
	wantLegal(t, s, "catch draw")
	if c := s.ViewOf(1).Decision.Catch; c == nil || *c != 0 {
		t.Fatal("decision must name the seat to catch")
	}
	mustPlay(t, s, Catch)
	wantCounts(t, s, 3, 2, 1)
	wantTurn(t, s, 1, phTurn)
	wantLegal(t, s, "draw")
	// Not caught at the next decision: the window closes.
	s = setup(t, r, table{hands: []string{"R3 G4", "B1 B2", "R1 G2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("R3"), Draw)
	if s.phase == phDrawn {
		mustPlay(t, s, Keep)
	}
	wantTurn(t, s, 2, phTurn)
	if strings.Contains(legalStrings(s), "catch") {
		t.Fatal("catch offered after the window closed")
	}
	wantCounts(t, s, 1, 3, 2)
}

// stack_draws: D2 on D2, WD4 on D2, D2 of the named colour on WD4; the
// first seat that does not stack draws the total.
func TestStackDraws(t *testing.T) {
	r := rules(func(r *Rules) { r.StackDraws = true })
	s := setup(t, r, table{hands: []string{"RD2 R1 R2", "GD2 WD4 B5", "BD2 RD2 Y5", "Y1 Y2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RD2"))
	wantTurn(t, s, 1, phPending)
	wantLegal(t, s, "GD2 WD4:red WD4:yellow WD4:green WD4:blue accept")
	mustPlay(t, s, pl("WD4:blue"))
	// On a WD4 only a D2 of the named colour (blue) stacks; challenge too.
	wantTurn(t, s, 2, phPending)
	wantLegal(t, s, "BD2 challenge accept")
	if s.ViewOf(2).Decision.Pending != 6 {
		t.Fatal("pending should be 6")
	}
	mustPlay(t, s, pl("BD2"))
	// Seat 3 cannot stack, and is asked all the same (whether it is asked
	// must not tell the others what it holds): accept is all it may do.
	wantTurn(t, s, 3, phPending)
	wantLegal(t, s, "accept")
	mustPlay(t, s, Accept)
	wantCounts(t, s, 2, 2, 2, 10)
	wantTurn(t, s, 0, phTurn)
}

// seven_zero: a 7 swaps hands with the chosen seat; a 0 passes every hand
// on in the direction of play.
func TestSevenZero(t *testing.T) {
	r := rules(func(r *Rules) { r.SevenZero = true })
	s := setup(t, r, table{hands: []string{"R7 G1 G2", "B1", "Y1 Y2 Y3"}, top: "R9", colour: -1})
	wantLegal(t, s, "R7>1 R7>2 draw")
	mustPlay(t, s, pl("R7>2"))
	if handString(s, 0) != "Y1 Y2 Y3" || handString(s, 2) != "G1 G2" {
		t.Fatalf("hands %q %q", handString(s, 0), handString(s, 2))
	}
	wantTurn(t, s, 1, phTurn)
	s = setup(t, r, table{hands: []string{"R0 G1", "B1 B2", "Y1"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("R0!"))
	if handString(s, 0) != "Y1" || handString(s, 1) != "G1" || handString(s, 2) != "B1 B2" {
		t.Fatalf("hands %q %q %q", handString(s, 0), handString(s, 1), handString(s, 2))
	}
}

// reverse_deflects_draw: a Reverse of the active colour sends the pending
// draw back to its sender.
func TestReverseDeflectsDraw(t *testing.T) {
	r := rules(func(r *Rules) { r.ReverseDeflects = true })
	s := setup(t, r, table{hands: []string{"RD2 G1 G2", "RR B2 B3", "Y1 Y2"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RD2"))
	wantLegal(t, s, "RR accept")
	mustPlay(t, s, pl("RR"))
	// Seat 0 cannot deflect: it is asked all the same, accepts, draws 2
	// and loses its turn; play goes counter-clockwise, so seat 2 is next.
	wantTurn(t, s, 0, phPending)
	wantLegal(t, s, "accept")
	mustPlay(t, s, Accept)
	wantCounts(t, s, 4, 2, 2)
	wantTurn(t, s, 2, phTurn)
}

// An empty draw pile is rebuilt from the discard pile but its top card;
// with both piles empty a player passes.
func TestReshuffle(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"G1", "B1 B2"}, top: "R9", colour: -1})
	below := len(s.discard) - 1
	mustPlay(t, s, Draw)
	if len(s.discard) != 1 || s.Top() != card("R9") || len(s.draw) != below-1 {
		t.Fatalf("after reshuffle: discard %d, draw %d", len(s.discard), len(s.draw))
	}
	// Both piles empty: seat 1 takes every other card; seat 0 must pass.
	s = setup(t, DefaultRules(), table{hands: []string{"G1", "B1 B2"}, top: "R9", colour: -1})
	for _, c := range s.discard[:len(s.discard)-1] {
		s.addCard(1, c)
	}
	s.discard = append(s.discard[:0], card("R9"))
	checkConservation(t, s)
	wantLegal(t, s, "pass")
	mustPlay(t, s, Pass)
	wantTurn(t, s, 1, phTurn)
	if strings.Contains(legalStrings(s), "draw") {
		t.Fatal("draw offered with both piles empty")
	}
}

func TestDrawUntilPlayable(t *testing.T) {
	r := rules(func(r *Rules) { r.DrawUntilPlayable = true })
	s := setup(t, r, table{hands: []string{"G1", "B1 B2"}, top: "R5", colour: -1, draw: "R7 B3 Y3"})
	mustPlay(t, s, Draw)
	wantCounts(t, s, 4, 2)
	wantTurn(t, s, 0, phDrawn)
	wantLegal(t, s, "R7 keep")
}

// voluntary_draw: by default a seat may draw while holding a playable
// card; the drawn card may be played at once, or kept.
func TestVoluntaryDraw(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"R3 G1 G2", "B1 B2"}, top: "R5", colour: -1, draw: "R7"})
	wantLegal(t, s, "R3 draw")
	mustPlay(t, s, Draw)
	wantTurn(t, s, 0, phDrawn)
	wantLegal(t, s, "R7 keep")
	if d := s.ViewOf(0).Decision; d.Kind != "drawn" || d.Card != "R7" {
		t.Fatalf("decision %+v", d)
	}
	mustPlay(t, s, Keep)
	wantTurn(t, s, 1, phTurn)
	s = setup(t, rules(func(r *Rules) { r.VoluntaryDraw = false }), table{hands: []string{"R3 G1 G2", "B1 B2"}, top: "R5", colour: -1})
	wantLegal(t, s, "R3")
}

// jump_in: the seat holding the identical card is asked (clockwise from
// the player); a jump plays it and play continues from the jumper.
func TestJumpIn(t *testing.T) {
	r := rules(func(r *Rules) { r.JumpIn = true })
	s := setup(t, r, table{hands: []string{"B1 B2", "G5 R1 R2", "Y1 Y2", "G5 Y3 Y4"}, top: "G9", colour: -1, cur: 1})
	mustPlay(t, s, pl("G5"))
	wantTurn(t, s, 3, phJump)
	wantLegal(t, s, "jump G5 pass")
	mustPlay(t, s, pl("G5").AsJump())
	wantTurn(t, s, 0, phTurn)
	s = setup(t, r, table{hands: []string{"B1 B2", "G5 R1 R2", "Y1 Y2", "G5 Y3 Y4"}, top: "G9", colour: -1, cur: 1})
	mustPlay(t, s, pl("G5"), Pass)
	wantTurn(t, s, 2, phTurn)
}

// play_to_last: the hand goes on until one seat holds cards; a single
// hand is ranked by the finishing order.
func TestPlayToLast(t *testing.T) {
	r := rules(func(r *Rules) { r.PlayToLast = true; r.Target = 0 })
	s := setup(t, r, table{hands: []string{"R3", "R4 R1", "R6 B1"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("R3"))
	if s.Over() || s.active[0] {
		t.Fatal("hand must go on with seat 0 out")
	}
	wantTurn(t, s, 1, phTurn)
	mustPlay(t, s, pl("R4!"), pl("R6!"), pl("R1"))
	if !s.Over() {
		t.Fatal("not over")
	}
	if o := s.Outcome(); o.Ranks[0] != 1 || o.Ranks[1] != 2 || o.Ranks[2] != 3 {
		t.Fatalf("outcome %+v", o)
	}
}

// Scoring to 500: winner_collects and penalty_low_wins.
func TestScoringTo500(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"R3", "R5 GS"}, top: "R9", colour: -1})
	s.scores[0] = 490
	mustPlay(t, s, pl("R3"))
	if o := s.Outcome(); !s.Over() || o.Scores[0] != 515 || o.Ranks[0] != 1 || o.Ranks[1] != 2 ||
		o.Reason != "seat 0 reached 515 points after 1 hand" {
		t.Fatalf("outcome %+v", o)
	}
	// Replays recorded before the wording was mended still verify.
	if o := s.Outcome(); !slices.Equal(o.Formerly, []string{"seat 0 reached 515 points after 1 hands"}) {
		t.Fatalf("former reasons %q", o.Formerly)
	}
	// Below the target: the next hand is dealt by the next seat.
	s = setup(t, DefaultRules(), table{hands: []string{"R3", "R5 GS"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("R3"))
	if s.Over() || s.handNo != 2 || s.dealer != 1 || s.scores[0] != 25 || len(s.Hands()) != 1 {
		t.Fatalf("hand %d dealer %d scores %v", s.handNo, s.dealer, s.scores[:2])
	}
	checkConservation(t, s)
	// penalty_low_wins: the others score their own cards; lowest wins.
	r := rules(func(r *Rules) { r.Scoring = PenaltyLowWins })
	s = setup(t, r, table{hands: []string{"R3", "R5 GS", "W"}, top: "R9", colour: -1})
	s.scores[1], s.scores[2] = 480, 100
	mustPlay(t, s, pl("R3"))
	if o := s.Outcome(); !s.Over() || o.Scores[1] != 505 || o.Scores[2] != 150 || o.Ranks[0] != 1 || o.Ranks[2] != 2 || o.Ranks[1] != 3 {
		t.Fatalf("outcome %+v", o)
	}
	// single_hand: one hand, winner 1 point.
	r = rules(func(r *Rules) { r.Scoring = SingleHand })
	s = setup(t, r, table{hands: []string{"R3", "R5 GS"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("R3"))
	if o := s.Outcome(); !s.Over() || o.Scores[0] != 1 || o.Ranks[0] != 1 || o.Ranks[1] != 2 {
		t.Fatalf("outcome %+v", o)
	}
}

// Going out on a Draw Two: the next player still draws (the cards count).
func TestGoingOutOnDrawTwo(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"RD2", "R5 GS"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RD2"))
	if h := s.Hands()[0]; h.Winner != 0 || h.Points[0] < 25 {
		t.Fatalf("hand %+v", h)
	}
}

// An illegal action is refused with a reason and leaves the state as it was.
func TestIllegalActionRejected(t *testing.T) {
	s := setup(t, DefaultRules(), table{hands: []string{"R3 G4", "B1 B2"}, top: "R9", colour: -1})
	before := string(s.ViewOf(0).AppendJSON(nil)) + legalStrings(s)
	for _, a := range []Action{pl("G4"), pl("B1"), Keep, Challenge, Accept, Catch, pl("R3:red"), pl("R3>1"), pl("W:red")} {
		if err := s.Play(a); err == nil || !strings.Contains(err.Error(), "not legal") {
			t.Fatalf("%v: %v", a, err)
		}
		if after := string(s.ViewOf(0).AppendJSON(nil)) + legalStrings(s); after != before {
			t.Fatalf("state changed by illegal %v", a)
		}
	}
}
