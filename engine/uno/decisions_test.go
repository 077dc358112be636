package uno

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine/enginetest"
)

// Every place where the rules could ask a seat something because of
// another seat's cards, as twins: two deals that differ only in cards the
// observing seat cannot see (one card, or its absence, in another seat's
// hand, swapped with the draw pile), after the same public actions. The
// observer must be asked at the same points with the same turn ids,
// views and legal lists (enginetest.CheckTwins), up to the end of the
// game when the case reaches it. The old rules failed each case: a
// victim without a stacking card drew at once (no accept, a turn id
// fewer for the others), the jump-in poll on a Draw Two came only then,
// a poll's pass closed the catch window, a kept playable card logged a
// keep that an unplayable one did not, and max_actions and the outcome
// counted the hidden decisions.
func TestHiddenDecisionPoints(t *testing.T) {
	cases := []struct {
		name    string
		rules   func(*Rules)
		a, b    table // b differs from a in cards the observer cannot see
		seat    int   // the observer
		prelude []Action
		end     bool // the twins play to the end of the game
	}{{
		name:  "stack_draws: a victim without a Draw Two is asked",
		rules: func(r *Rules) { r.StackDraws = true },
		a:     table{hands: []string{"RD2 R1 R2", "GD2 B5 B6", "Y1 Y2 Y3"}, top: "R9", colour: -1, draw: "G3 G4 G6"},
		b:     table{hands: []string{"RD2 R1 R2", "G3 B5 B6", "Y1 Y2 Y3"}, top: "R9", colour: -1, draw: "GD2 G4 G6"},
		seat:  2, prelude: []Action{pl("RD2")},
	}, {
		name:  "stack_draws: a victim without a Wild Draw Four to stack on one",
		rules: func(r *Rules) { r.StackDraws = true; r.Enforce = true },
		a:     table{hands: []string{"WD4 B1 B2", "WD4 B5 B6", "Y1 Y2 Y3"}, top: "R9", colour: -1, draw: "Y4 G4 G7"},
		b:     table{hands: []string{"WD4 B1 B2", "Y4 B5 B6", "Y1 Y2 Y3"}, top: "R9", colour: -1, draw: "WD4 G4 G7"},
		seat:  2, prelude: []Action{pl("WD4:green")},
	}, {
		name:  "reverse_deflects_draw: a victim without the Reverse is asked",
		rules: func(r *Rules) { r.ReverseDeflects = true },
		a:     table{hands: []string{"RD2 G1 G2", "RR B2 B3", "Y1 Y2 Y4"}, top: "R9", colour: -1, draw: "G3 G4 G6"},
		b:     table{hands: []string{"RD2 G1 G2", "G3 B2 B3", "Y1 Y2 Y4"}, top: "R9", colour: -1, draw: "RR G4 G6"},
		seat:  2, prelude: []Action{pl("RD2")},
	}, {
		name:  "jump_in with stack_draws: the poll on a Draw Two comes whatever the victim holds",
		rules: func(r *Rules) { r.StackDraws = true; r.JumpIn = true },
		a:     table{hands: []string{"RD2 R1 R2", "GD2 B5 B6", "Y1 Y2 Y3", "RD2 Y4 Y5"}, top: "R9", colour: -1, draw: "G3 G4 G6"},
		b:     table{hands: []string{"RD2 R1 R2", "G3 B5 B6", "Y1 Y2 Y3", "RD2 Y4 Y5"}, top: "R9", colour: -1, draw: "GD2 G4 G6"},
		seat:  3, prelude: []Action{pl("RD2")},
	}, {
		name:  "jump_in with catch_window: a poll leaves the window open for the next player",
		rules: func(r *Rules) { r.JumpIn = true; r.UnoCall = CallCatchWindow },
		a:     table{hands: []string{"G5 B1", "Y1 Y2 Y3", "G5 R1 R2", "B7 R3 R4"}, top: "G9", colour: -1, draw: "B8 B9"},
		b:     table{hands: []string{"G5 B1", "Y1 Y2 Y3", "B8 R1 R2", "B7 R3 R4"}, top: "G9", colour: -1, draw: "G5 B9"},
		seat:  1, prelude: []Action{pl("G5")},
	}, {
		name: "a drawn card that can be played is kept like one that cannot",
		a:    table{hands: []string{"B1 B2", "Y1 Y2 Y3", "G1 G2 G3"}, top: "R9", colour: -1, draw: "G8 R7"},
		b:    table{hands: []string{"B1 B2", "Y1 Y2 Y3", "G1 G2 G3"}, top: "R9", colour: -1, draw: "R7 G8"},
		seat: 1, prelude: []Action{Draw},
	}, {
		name:  "max_actions: a game that ends on a draw ends alike",
		rules: func(r *Rules) { r.MaxActions = 1 },
		a:     table{hands: []string{"B1 B2", "Y1 Y2 Y3", "G1 G2 G3"}, top: "R9", colour: -1, draw: "G8 R7"},
		b:     table{hands: []string{"B1 B2", "Y1 Y2 Y3", "G1 G2 G3"}, top: "R9", colour: -1, draw: "R7 G8"},
		seat:  1, prelude: []Action{Draw}, end: true,
	}, {
		name:  "max_actions: a game that ends on a play ends alike, polled or not",
		rules: func(r *Rules) { r.MaxActions = 1; r.JumpIn = true },
		a:     table{hands: []string{"G5 B1 B2", "Y1 Y2 Y3", "G5 R1 R2"}, top: "G9", colour: -1, draw: "B8 B9"},
		b:     table{hands: []string{"G5 B1 B2", "Y1 Y2 Y3", "B8 R1 R2"}, top: "G9", colour: -1, draw: "G5 B9"},
		seat:  1, prelude: []Action{pl("G5")}, end: true,
	}, {
		// Seat 2's two hands are worth the same points, so the hand's
		// scoring and finishing order cannot tell them apart either.
		name:  "the outcome counts the actions everyone saw",
		rules: func(r *Rules) { r.JumpIn = true; r.VoluntaryDraw = false; r.Scoring = SingleHand },
		a:     table{hands: []string{"G5 B1 B2", "G7", "G5 Y1"}, top: "G9", colour: -1, draw: "Y4 Y2"},
		b:     table{hands: []string{"G5 B1 B2", "G7", "Y4 Y2"}, top: "G9", colour: -1, draw: "G5 Y1"},
		seat:  0, prelude: []Action{pl("G5")}, end: true,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rules(tc.rules)
			a, b := setup(t, r, tc.a), setup(t, r, tc.b)
			if x, y := seen(a, tc.seat), seen(b, tc.seat); string(x) != string(y) {
				t.Fatalf("the deals differ for seat %d before the play:\n%s\n%s", tc.seat, x, y)
			}
			mustPlay(t, a, tc.prelude...)
			mustPlay(t, b, tc.prelude...)
			tw := twins
			tw.Steps = 12
			compared := enginetest.CheckTwins(t, a, b, tc.seat, 0, rand.New(rand.NewPCG(5, 6)), tw)
			switch {
			case tc.end && (!a.Over() || !b.Over()):
				t.Fatalf("the twins did not reach the end (over: %v %v)", a.Over(), b.Over())
			case !tc.end && compared == 0:
				t.Fatalf("seat %d was never asked", tc.seat)
			}
		})
	}
}

// The polled seat is not offered the catch (it would give away that it
// holds the card), and its pass leaves the window open: the next player
// may catch, as when nobody is polled.
func TestJumpPollKeepsCatchWindow(t *testing.T) {
	r := rules(func(r *Rules) { r.JumpIn = true; r.UnoCall = CallCatchWindow })
	s := setup(t, r, table{hands: []string{"G5 B1", "Y1 Y2 Y3", "G5 R1 R2"}, top: "G9", colour: -1})
	mustPlay(t, s, pl("G5"))
	wantTurn(t, s, 2, phJump)
	wantLegal(t, s, "jump G5 pass")
	if d := s.ViewOf(2).Decision; d.Catch != nil {
		t.Fatalf("the poll offers a catch of seat %d", *d.Catch)
	}
	mustPlay(t, s, Pass)
	wantTurn(t, s, 1, phTurn)
	if l := legalStrings(s); !strings.HasPrefix(l, "catch ") {
		t.Fatalf("legal %q: the pass closed the catch window", l)
	}
	if s.Actions() != 1 || s.Ply() != 2 {
		t.Fatalf("actions %d, plies %d: want the pass applied and not counted", s.Actions(), s.Ply())
	}
}

// Under stack_draws the poll on a Draw Two comes after the victim's
// accept, so that a third seat is polled whether or not the victim held a
// card to stack with.
func TestJumpPollAfterAccept(t *testing.T) {
	r := rules(func(r *Rules) { r.StackDraws = true; r.JumpIn = true })
	s := setup(t, r, table{hands: []string{"RD2 R1 R2", "GD2 B5 B6", "Y1 Y2 Y3", "RD2 Y4 Y5"}, top: "R9", colour: -1})
	mustPlay(t, s, pl("RD2"))
	wantTurn(t, s, 1, phPending)
	wantLegal(t, s, "GD2 accept")
	mustPlay(t, s, Accept)
	wantCounts(t, s, 2, 5, 3, 3)
	wantTurn(t, s, 3, phJump)
	wantLegal(t, s, "jump RD2 pass")
	mustPlay(t, s, Pass)
	wantTurn(t, s, 2, phTurn)
}

// A card drawn that cannot be played is kept without a decision, and the
// keep is logged as when a playable one is kept by choice; neither keep
// is counted.
func TestKeepLoggedAlike(t *testing.T) {
	for _, tc := range []struct {
		draw  string
		asked bool
	}{{"R7", true}, {"G8", false}} {
		t.Run(tc.draw, func(t *testing.T) {
			s := setup(t, DefaultRules(), table{hands: []string{"B1 B2", "Y1 Y2 Y3"}, top: "R9", colour: -1, draw: tc.draw})
			mustPlay(t, s, Draw)
			if asked := s.cur == 0 && s.phase == phDrawn; asked != tc.asked {
				t.Fatalf("drawn %s: asked %v, want %v", tc.draw, asked, tc.asked)
			}
			if tc.asked {
				mustPlay(t, s, Keep)
			}
			wantTurn(t, s, 1, phTurn)
			var types []string
			for _, e := range s.ViewOf(1).Events {
				types = append(types, e.Type)
			}
			if got := strings.Join(types, " "); got != "draw keep" || s.Actions() != 1 {
				t.Fatalf("seat 1 sees %q after %d actions, want \"draw keep\" after 1", got, s.Actions())
			}
		})
	}
}
