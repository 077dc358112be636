// Tests of what Uno rules revision 2 changed (docs/games/uno.md, "Rules
// revisions"), and of the text of a finished game.

package uno

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// The missed call with seven_zero. The sources put the penalty on the
// player who forgot ("the player who did not say UNO in time draws two
// cards from the deck"), so it is drawn after the 7 swap or the 0
// rotation, into the hand that player then holds; the seat that received
// the forgetter's last card gets nothing. Drawn before the swap, the two
// cards would travel with the hand to the innocent seat, and forgetting
// on purpose would dump them there. catch_window, where the catch comes
// after the swap anyway, must agree with autocatch.
func TestSevenZeroMissedCallPenalty(t *testing.T) {
	cases := []struct {
		name  string
		call  UnoCall
		dir   int
		hands []string
		play  string
		catch bool // catch_window: the next seat catches the forgetter
		want  []string
	}{
		{"7 swap, autocatch", CallAutocatch, 1, []string{"R7 G1", "B1 B2", "Y1 Y2 Y3"}, "R7>2", false,
			[]string{"Y1 Y2 Y3 G8 G9", "B1 B2", "G1"}},
		{"7 swap, called", CallAutocatch, 1, []string{"R7 G1", "B1 B2", "Y1 Y2 Y3"}, "R7>2!", false,
			[]string{"Y1 Y2 Y3", "B1 B2", "G1"}},
		{"7 swap, 2 seats", CallAutocatch, 1, []string{"R7 G1", "B1 B2"}, "R7>1", false,
			[]string{"B1 B2 G8 G9", "G1"}},
		{"7 swap, caught in the window", CallCatchWindow, 1, []string{"R7 G1", "B1 B2", "Y1 Y2 Y3"}, "R7>2", true,
			[]string{"Y1 Y2 Y3 G8 G9", "B1 B2", "G1"}},
		{"0 rotation, autocatch", CallAutocatch, 1, []string{"R0 G1", "B1 B2", "Y1"}, "R0", false,
			[]string{"Y1 G8 G9", "G1", "B1 B2"}},
		{"0 rotation counter-clockwise, autocatch", CallAutocatch, -1, []string{"R0 G1", "B1 B2", "Y1"}, "R0", false,
			[]string{"B1 B2 G8 G9", "Y1", "G1"}},
		{"0 rotation, caught in the window", CallCatchWindow, 1, []string{"R0 G1", "B1 B2", "Y1"}, "R0", true,
			[]string{"Y1 G8 G9", "G1", "B1 B2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rules(func(r *Rules) { r.SevenZero = true; r.UnoCall = tc.call })
			// The draw pile is listed bottom first: G9 is drawn first.
			s := setup(t, r, table{hands: tc.hands, top: "R9", colour: -1, dir: tc.dir, draw: "G8 G9"})
			mustPlay(t, s, pl(tc.play))
			if tc.catch {
				wantLegal(t, s, "catch "+strings.TrimPrefix(legalStrings(s), "catch "))
				mustPlay(t, s, Catch)
			}
			for seat, want := range tc.want {
				if got, want := handString(s, seat), inCardOrder(t, want); got != want {
					t.Errorf("seat %d holds %q, want %q", seat, got, want)
				}
			}
		})
	}
}

// inCardOrder is a list of cards in card order, as handString gives a hand.
func inCardOrder(t *testing.T, list string) string {
	cs := cards(t, list)
	slices.Sort(cs)
	return strings.Join(cardStrings(cs), " ")
}

// A finished game's text rendering says how it ended (the outcome's
// reason), also when nobody asked for the outcome before.
func TestRenderTextNamesTheEnd(t *testing.T) {
	cases := []struct {
		name  string
		r     Rules
		tb    table
		pre   func(*State)
		plays []Action
	}{
		{"single hand", rules(func(r *Rules) { r.Target = 0 }),
			table{hands: []string{"R3", "R5 GS"}, top: "R9", colour: -1}, nil, []Action{pl("R3")}},
		{"target reached", DefaultRules(),
			table{hands: []string{"R3", "R5 GS"}, top: "R9", colour: -1}, func(s *State) { s.scores[0] = 490 }, []Action{pl("R3")}},
		{"max_actions", rules(func(r *Rules) { r.MaxActions = 1 }),
			table{hands: []string{"R3 G1", "R5 GS"}, top: "R9", colour: -1}, nil, []Action{pl("R3")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := setup(t, tc.r, tc.tb)
			if tc.pre != nil {
				tc.pre(s)
			}
			mustPlay(t, s, tc.plays...)
			if !s.Over() {
				t.Fatal("the game goes on")
			}
			text := s.RenderText(0) // before anything asked for the outcome
			reason := s.Outcome().Reason
			want := fmt.Sprintf("game over after %d actions: %s\n", s.Actions(), reason)
			if reason == "" || !strings.HasSuffix(text, want) {
				t.Fatalf("text ends %q, want %q", text[strings.LastIndex(text[:len(text)-1], "\n")+1:], want)
			}
			if again := s.RenderText(0); again != text {
				t.Fatalf("the text changed once the outcome was built:\n%s\n%s", text, again)
			}
		})
	}
}

// emptyPiles gives seat every card of the draw pile and of the discard
// pile but its top card: nothing is left to draw.
func emptyPiles(t *testing.T, s *State, seat int) {
	t.Helper()
	for _, c := range s.discard[:len(s.discard)-1] {
		s.addCard(seat, c)
	}
	for _, c := range s.draw {
		s.addCard(seat, c)
	}
	s.discard = append(s.discard[:0], s.Top())
	s.draw = s.draw[:0]
	checkConservation(t, s)
}

// Both piles empty: the draw that voluntary_draw allows is impossible, and
// with it the only reason not to play, so a seat that can play must play;
// pass is offered only to a seat that can neither play nor draw (the
// sources: a player "who has nothing suitable" draws, and passes when the
// drawn card does not fit either).
func TestPassOnlyWhenNothingToPlay(t *testing.T) {
	cases := []struct {
		name      string
		voluntary bool
		hand      string
		want      string
	}{
		{"voluntary draw, can play", true, "R3 G1 G2", "R3"},
		{"voluntary draw, a wild", true, "W G1 G2", "W:red W:yellow W:green W:blue"},
		{"voluntary draw, the call", true, "R3 G1", "R3! R3"},
		{"voluntary draw, nothing to play", true, "G1 G2", "pass"},
		{"forced play, can play", false, "R3 G1 G2", "R3"},
		{"forced play, nothing to play", false, "G1 G2", "pass"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rules(func(r *Rules) { r.VoluntaryDraw = tc.voluntary })
			s := setup(t, r, table{hands: []string{tc.hand, "B1 B2"}, top: "R9", colour: -1})
			emptyPiles(t, s, 1)
			wantLegal(t, s, tc.want)
			if tc.want != "pass" {
				if err := s.Play(Pass); err == nil || !strings.Contains(err.Error(), "not legal") {
					t.Fatalf("pass with a playable card: %v", err)
				}
			}
		})
	}
}

// With both piles empty a round of passes cannot end the hand: every card
// of the active colour but the top one is then in some hand, so some seat
// can play, and it must. (Before, every seat could pass, and the hand
// ended "blocked" with a reason saying nobody could play.)
func TestNoRoundOfPassesWhileASeatCanPlay(t *testing.T) {
	for _, voluntary := range []bool{true, false} {
		t.Run(fmt.Sprint("voluntary_draw=", voluntary), func(t *testing.T) {
			r := rules(func(r *Rules) { r.VoluntaryDraw = voluntary; r.Target = 0 })
			s := setup(t, r, table{hands: []string{"G1", "B1 B2", "Y1"}, top: "R9", colour: -1})
			emptyPiles(t, s, 2)
			for range 3 {
				l := s.AppendLegal(nil)
				if l[len(l)-1] != Pass {
					break
				}
				if s.turnMask(s.cur) != 0 {
					t.Errorf("seat %d may pass holding a playable card: %s", s.cur, legalStrings(s))
				}
				mustPlay(t, s, Pass)
			}
			if s.Over() {
				t.Fatalf("the hand ended (%q) though seat 2 holds %s", s.Outcome().Reason, handString(s, 2))
			}
			wantTurn(t, s, 2, phTurn)
			if strings.Contains(legalStrings(s), "pass") {
				t.Fatalf("seat 2 may pass: %s", legalStrings(s))
			}
		})
	}
}

// Bounce's source gives it 2 to 8 players ("подходит для компании от 2
// до 8 человек"); Uno's gives 2 to 10. The Bounce rules on 9 or 10 seats
// remain playable as uno with rules=bounce.
func TestSeatRanges(t *testing.T) {
	cases := []struct {
		game     Game
		opts     map[string]string
		seats    int
		accepted bool
	}{
		{Uno, nil, 2, true}, {Uno, nil, 10, true}, {Uno, nil, 11, false}, {Uno, nil, 1, false},
		{Bounce, nil, 2, true}, {Bounce, nil, 8, true}, {Bounce, nil, 9, false}, {Bounce, nil, 10, false},
		{Uno, map[string]string{"rules": "bounce"}, 10, true},
	}
	for _, tc := range cases {
		_, err := engine.Setup(tc.game, tc.seats, tc.opts)
		if (err == nil) != tc.accepted {
			t.Errorf("%s %v with %d seats: %v, want accepted=%v", tc.game.name, tc.opts, tc.seats, err, tc.accepted)
		}
		if tc.accepted {
			continue
		}
		if _, err := tc.game.New(tc.seats, 1, nil); err == nil {
			t.Errorf("%s: New with %d seats accepted", tc.game.name, tc.seats)
		}
	}
}
