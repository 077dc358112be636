package banqi

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"

	"github.com/arena-dev/arena/internal/testkit"
)

// pos builds board rows from "sq:letter" pairs, e.g. "b4:R b5:h"; every
// other square is empty.
func pos(spec string) string {
	b := []byte(strings.Repeat("-", 32))
	for _, f := range strings.Fields(spec) {
		sqName, l, _ := strings.Cut(f, ":")
		b[sq(sqName)] = l[0]
	}
	return string(b)
}

func TestFirstMoveMustBeFlip(t *testing.T) {
	s := NewState(7, DefaultRules())
	l := s.AppendLegal(nil)
	if len(l) != 32 {
		t.Fatalf("want 32 flips, got %d", len(l))
	}
	for i, a := range l {
		if a != Flip(i) {
			t.Fatalf("legal[%d] = %v, want flip of %s", i, a, SquareName(i))
		}
	}
	for _, a := range []Action{mv("a1", "a2"), cp("a1", "a3"), Stop()} {
		if err := s.Play(a); err == nil {
			t.Errorf("%v accepted as first action", a)
		}
	}
}

func TestColourAssignment(t *testing.T) {
	seen := map[Colour]bool{}
	for seed := range uint64(40) {
		s := NewState(seed, DefaultRules())
		if s.ColourOf(0) != NoColour || s.ColourOf(1) != NoColour {
			t.Fatal("colours assigned before the first flip")
		}
		mustPlay(t, s, Flip(int(seed%32)))
		p := s.Board()[seed%32]
		if !p.Up() {
			t.Fatal("flip did not reveal")
		}
		if s.ColourOf(0) != p.Colour() || s.ColourOf(1) != 1-p.Colour() {
			t.Fatalf("revealed %c, colours %v %v", p.Letter(), s.ColourOf(0), s.ColourOf(1))
		}
		v := s.ViewOf(0)
		if *v.You.Colour != p.Colour().Name() || s.ToMove() != 1 {
			t.Fatalf("view colour %v to move %d", *v.You.Colour, s.ToMove())
		}
		seen[p.Colour()] = true
	}
	if !seen[Red] || !seen[Black] {
		t.Fatal("40 seeds never gave both colours to seat 0")
	}
}

// captureTable is the table of the rules reference (3.3 and 3.6), written
// independently of the engine: rows attacker, columns target, K G M R N C P.
var captureTable = map[Ranks][7]string{
	Taiwan: {
		King:     "YYYYYYN",
		Guard:    "NYYYYYY",
		Minister: "NNYYYYY",
		Rook:     "NNNYYYY",
		Knight:   "NNNNYYY",
		Cannon:   "NNNNNNN", // never adjacent; see TestCannonJump
		Pawn:     "YNNNNNY",
	},
	HK: { // K > R > N > C > G > M > P
		King:     "YYYYYYN",
		Guard:    "NYYNNNY",
		Minister: "NNYNNNY",
		Rook:     "NYYYYYY",
		Knight:   "NYYNYYY",
		Cannon:   "NYYNNYY",
		Pawn:     "YNNNNNY",
	},
}

func testAdjacentCaptures(t *testing.T, r Ranks) {
	rules := DefaultRules()
	rules.Ranks = r
	for a := range Type(7) {
		for tg := range Type(7) {
			name := fmt.Sprintf("%c_takes_%c", typeLetters[a], typeLetters[tg]+'a'-'A')
			t.Run(name, func(t *testing.T) {
				att := string(MakePiece(Red, a).Letter())
				tgt := string(MakePiece(Black, tg).Letter())
				s := mustBoard(t, pos("b4:"+att+" b5:"+tgt+" d8:n"), Red, 0, "", rules)
				want := captureTable[r][a][tg] == 'Y'
				if got := hasLegal(s, cp("b4", "b5")); got != want {
					t.Fatalf("%s on b4 capturing %s on b5 legal=%v, want %v", att, tgt, got, want)
				}
				if CanTake(r, a, tg) != want && !(r == Taiwan && a == Cannon) {
					t.Fatalf("CanTake disagrees")
				}
				if want {
					mustPlay(t, s, cp("b4", "b5"))
					if s.board[sq("b5")] != MakePiece(Red, a) || s.board[sq("b4")] != Empty {
						t.Fatalf("capture did not move the piece:\n%s", s.RenderText(-1))
					}
					if !strings.Contains(s.ViewOf(-1).Captured.Black, tgt) {
						t.Fatalf("captured list %q lacks %s", s.ViewOf(-1).Captured.Black, tgt)
					}
				} else if err := s.Play(cp("b4", "b5")); err == nil {
					t.Fatal("illegal capture applied")
				}
			})
		}
	}
}

// Taiwanese table, one subtest per cell: includes King cannot take
// Pawn and Pawn takes King.
func TestTaiwanCaptureTable(t *testing.T) { testAdjacentCaptures(t, Taiwan) }

func TestKingCannotTakePawn(t *testing.T) {
	for _, r := range []Ranks{Taiwan, HK} {
		rules := DefaultRules()
		rules.Ranks = r
		s := mustBoard(t, pos("b4:K b5:p"), Red, 0, "", rules)
		if hasLegal(s, cp("b4", "b5")) {
			t.Errorf("%v: general captured a soldier", r)
		}
		s = mustBoard(t, pos("b4:P b5:k"), Red, 0, "", rules)
		if !hasLegal(s, cp("b4", "b5")) {
			t.Errorf("%v: soldier cannot capture the general", r)
		}
	}
}

// Under hk the cannon is an ordinary ranked piece capturing adjacently.
func TestHKCaptureTable(t *testing.T) { testAdjacentCaptures(t, HK) }

func TestHKCannonDoesNotJump(t *testing.T) {
	rules := DefaultRules()
	rules.Ranks = HK
	s := mustBoard(t, pos("a1:C a2:P a3:p"), Red, 0, "", rules)
	if hasLegal(s, cp("a1", "a3")) {
		t.Fatal("hk cannon jumped")
	}
}

func TestCannonJump(t *testing.T) {
	cases := []struct {
		name  string
		board string
		from  string
		to    string
		want  bool
	}{
		{"screen_own_distance2", "a1:C a2:P a3:k", "a1", "a3", true},
		{"screen_enemy", "a1:C a2:p a3:g", "a1", "a3", true},
		{"screen_facedown", "a1:C a2:X a3:p", "a1", "a3", true},
		{"any_distance_column", "a1:C a3:P a8:k", "a1", "a8", true},
		{"gaps_both_sides", "a1:C a4:P a7:r", "a1", "a7", true},
		{"along_row", "a1:C c1:N d1:m", "a1", "d1", true},
		{"row_leftwards", "d5:C b5:N a5:m", "d5", "a5", true},
		{"takes_general", "a1:C a2:P a3:k", "a1", "a3", true},
		{"takes_cannon", "a1:C a2:P a3:c", "a1", "a3", true},
		{"no_screen", "a1:C a5:k", "a1", "a5", false},
		{"two_screens", "a1:C a2:P a3:p a4:k", "a1", "a4", false},
		{"two_screens_first_target_ok", "a1:C a2:P a3:p a4:k", "a1", "a3", true},
		{"never_adjacent", "a1:C a2:k", "a1", "a2", false},
		{"never_facedown_target", "a1:C a2:P a3:X", "a1", "a3", false},
		{"never_own", "a1:C a2:p a3:K", "a1", "a3", false},
		{"not_diagonal", "a1:C b2:P c3:k", "a1", "c3", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hidden := strings.Repeat("p", strings.Count(c.board, ":X"))
			s := mustBoard(t, pos(c.board), Red, 0, hidden, DefaultRules())
			if got := hasLegal(s, cp(c.from, c.to)); got != c.want {
				t.Fatalf("legal=%v want %v; legal list %v", got, c.want, legalStrings(s))
			}
			if c.want {
				mustPlay(t, s, cp(c.from, c.to))
				if s.board[sq(c.to)] != MakePiece(Red, Cannon) {
					t.Fatal("cannon not on target square")
				}
			} else if s.Play(cp(c.from, c.to)) == nil {
				t.Fatal("illegal jump applied")
			}
		})
	}
}

func TestWinByCapturingAll16(t *testing.T) {
	// Black captures the last red piece while face-down black pieces remain:
	// the game must end at once (red would otherwise still have flips).
	s := mustBoard(t, pos("a1:P a2:g b5:X c7:X"), Red, 1, "pp", DefaultRules())
	mustPlay(t, s, cp("a2", "a1"))
	if !s.Over() {
		t.Fatal("game not over after the 16th red piece was captured")
	}
	o := s.Outcome()
	if !reflect.DeepEqual(o.Ranks, []int{2, 1}) || o.Reason != "all 16 red pieces captured" {
		t.Fatalf("outcome %+v", o)
	}
	if len(s.Legal()) != 0 {
		t.Fatal("legal actions after the end")
	}
}

func TestLossByNoLegalMove(t *testing.T) {
	// Red's soldier on a1 is boxed in by pieces it cannot take, no face-down
	// pieces are left; black makes a quiet move and red cannot act.
	s := mustBoard(t, pos("a1:P a2:g b1:m d8:n"), Red, 1, "", DefaultRules())
	mustPlay(t, s, mv("d8", "d7"))
	if !s.Over() {
		t.Fatalf("not over; red legal %v", legalStrings(s))
	}
	o := s.Outcome()
	if !reflect.DeepEqual(o.Ranks, []int{2, 1}) || o.Reason != "red has no legal move" ||
		!reflect.DeepEqual(o.Scores, []float64{0, 1}) {
		t.Fatalf("outcome %+v", o)
	}
	// With a face-down piece left, red can still flip.
	s = mustBoard(t, pos("a1:P a2:g b1:m d8:n c4:X"), Red, 1, "k", DefaultRules())
	mustPlay(t, s, mv("d8", "d7"))
	if s.Over() {
		t.Fatal("over although red can flip")
	}
}

func TestNoProgressDraw(t *testing.T) {
	r := DefaultRules()
	r.NoProgressPlies = 6
	s := mustBoard(t, pos("a1:R d8:r"), Red, 0, "", r)
	// Walk without repeating a position: a1-a2-a3-a4 and d8-d7-d6.
	mustPlay(t, s, mv("a1", "a2"), mv("d8", "d7"), mv("a2", "a3"), mv("d7", "d6"), mv("a3", "a4"))
	if s.Over() {
		t.Fatal("over too early")
	}
	mustPlay(t, s, mv("d6", "d5"))
	o := s.Outcome()
	if !s.Over() || o.Reason != "draw: 6 plies without flip or capture" || !reflect.DeepEqual(o.Ranks, []int{1, 1}) ||
		!reflect.DeepEqual(o.Scores, []float64{0.5, 0.5}) {
		t.Fatalf("over=%v outcome %+v", s.Over(), o)
	}
	// A flip resets the count.
	s = mustBoard(t, pos("a1:R d8:r c4:X"), Red, 0, "p", r)
	mustPlay(t, s, mv("a1", "a2"), mv("d8", "d7"), mv("a2", "a3"), mv("d7", "d6"), mv("a3", "a4"), Flip(sq("c4")))
	if s.Over() || s.ViewOf(0).PliesSinceProgress != 0 {
		t.Fatalf("flip did not reset: %+v", s.ViewOf(0))
	}
	// Default is 180.
	if DefaultRules().NoProgressPlies != 180 {
		t.Fatal("default no_progress_plies is not 180")
	}
}

func shuffle4() []Action {
	return []Action{mv("a1", "a2"), mv("d8", "d7"), mv("a2", "a1"), mv("d7", "d8")}
}

func TestThirdRepetitionDraw(t *testing.T) {
	for _, chase := range []bool{false, true} {
		r := DefaultRules()
		r.ChaseLoss = chase
		s := mustBoard(t, pos("a1:R d8:r"), Red, 0, "", r)
		mustPlay(t, s, shuffle4()...)
		if s.ViewOf(0).Repeats != 2 || s.Over() {
			t.Fatalf("repeats=%d over=%v", s.ViewOf(0).Repeats, s.Over())
		}
		mustPlay(t, s, shuffle4()[:3]...)
		if s.Over() {
			t.Fatal("over before the third repetition")
		}
		mustPlay(t, s, shuffle4()[3])
		// Nobody chases here, so chase_loss also draws.
		if !s.Over() || s.Outcome().Reason != "draw: third repetition" {
			t.Fatalf("chase=%v over=%v %+v", chase, s.Over(), s.Outcome())
		}
	}
}

func TestChaseLoss(t *testing.T) {
	// Red's chariot keeps attacking black's horse, which keeps fleeing
	// between c8 and d8 (b8 is blocked).
	cycle := []Action{mv("c8", "d8"), mv("c7", "d7"), mv("d8", "c8"), mv("d7", "c7")}
	setup := pos("c7:R c8:n b8:p a1:K")
	for _, tc := range []struct {
		name   string
		chase  bool
		ranks  []int
		reason string
	}{
		{"chase_loss", true, []int{2, 1}, "red loses: perpetual chase of n on c8 (third repetition)"},
		{"draw3", false, []int{1, 1}, "draw: third repetition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := DefaultRules()
			r.ChaseLoss = tc.chase
			s := mustBoard(t, setup, Red, 1, "", r)
			mustPlay(t, s, cycle...)
			mustPlay(t, s, cycle...)
			if !s.Over() {
				t.Fatal("not over at the third repetition")
			}
			if o := s.Outcome(); !reflect.DeepEqual(o.Ranks, tc.ranks) || o.Reason != tc.reason {
				t.Fatalf("outcome %+v", o)
			}
		})
	}
	// Seat colours swapped: the chaser is seat 1 (red) and loses.
	r := DefaultRules()
	r.ChaseLoss = true
	s := mustBoard(t, setup, Black, 0, "", r)
	mustPlay(t, s, cycle...)
	mustPlay(t, s, cycle...)
	if o := s.Outcome(); !reflect.DeepEqual(o.Ranks, []int{1, 2}) {
		t.Fatalf("outcome %+v", o)
	}
	// Mutual chase is a draw: the fleeing black cannon attacks red's
	// general on a8 (screen b8) from both c8 and d8.
	s = mustBoard(t, pos("c7:R c8:c b8:p a8:K"), Red, 1, "", r)
	mustPlay(t, s, cycle...)
	mustPlay(t, s, cycle...)
	if o := s.Outcome(); !s.Over() || o.Reason != "draw: third repetition" {
		t.Fatalf("mutual chase outcome %+v", o)
	}
}

func TestChainCapture(t *testing.T) {
	setup := pos("a1:R a2:n a3:n d8:p")
	r := DefaultRules()
	r.ChainCapture = true
	s := mustBoard(t, setup, Red, 0, "", r)
	mustPlay(t, s, cp("a1", "a2"))
	if s.ToMove() != 0 || s.ViewOf(0).Chain == nil || *s.ViewOf(0).Chain != "a2" {
		t.Fatalf("no chain: to move %d view %+v", s.ToMove(), s.ViewOf(0))
	}
	if got := s.AppendLegal(nil); !slices.Equal(got, []Action{cp("a2", "a3"), Stop()}) {
		t.Fatalf("chain legal %v", got)
	}
	if s.Play(mv("a2", "b2")) == nil {
		t.Fatal("move accepted during a chain")
	}
	mustPlay(t, s, cp("a2", "a3"))
	if s.ToMove() != 1 || s.ViewOf(0).Chain != nil {
		t.Fatal("chain did not end when no capture is left")
	}
	// stop ends the turn.
	s = mustBoard(t, setup, Red, 0, "", r)
	mustPlay(t, s, cp("a1", "a2"), Stop())
	if s.ToMove() != 1 || s.board[sq("a3")] != MakePiece(Black, Knight) {
		t.Fatal("stop did not end the turn")
	}
	// Off by default: the turn ends after one capture.
	s = mustBoard(t, setup, Red, 0, "", DefaultRules())
	mustPlay(t, s, cp("a1", "a2"))
	if s.ToMove() != 1 {
		t.Fatal("chain without chain_capture")
	}
	if s.Play(Stop()) == nil {
		t.Fatal("stop accepted without a chain")
	}
}

func TestCaptureFacedown(t *testing.T) {
	r := DefaultRules()
	r.CaptureFacedown = true
	cases := []struct {
		hidden   string
		taken    bool
		wantLast string
	}{
		{"n", true, "a1-a2(n)"},  // enemy the chariot may take: captured
		{"g", false, "a1-a2(g)"}, // stronger enemy: revealed, turn ends
		{"N", false, "a1-a2(N)"}, // own piece: revealed, turn ends
	}
	for _, c := range cases {
		t.Run(c.hidden, func(t *testing.T) {
			s := mustBoard(t, pos("a1:R a2:X d8:p"), Red, 0, c.hidden, r)
			mustPlay(t, s, cp("a1", "a2"))
			p, _ := PieceFromLetter(c.hidden[0])
			want := Board{}
			want[sq("d8")] = MakePiece(Black, Pawn)
			if c.taken {
				want[sq("a2")] = MakePiece(Red, Rook)
			} else {
				want[sq("a1")], want[sq("a2")] = MakePiece(Red, Rook), p
			}
			if s.board != want || s.ToMove() != 1 || s.ViewOf(1).Last != c.wantLast || s.quiet != 0 {
				t.Fatalf("board\n%s", s.RenderText(-1))
			}
		})
	}
	// Cannon attacks a face-down piece by jumping only.
	s := mustBoard(t, pos("a1:C a2:X a3:X"), Red, 0, "pp", r)
	if !hasLegal(s, cp("a1", "a3")) || hasLegal(s, cp("a1", "a2")) {
		t.Fatalf("cannon face-down attacks %v", legalStrings(s))
	}
	// Off by default.
	s = mustBoard(t, pos("a1:R a2:X d8:p"), Red, 0, "n", DefaultRules())
	if hasLegal(s, cp("a1", "a2")) || s.Play(cp("a1", "a2")) == nil {
		t.Fatal("face-down attack without capture_facedown")
	}
}

func TestMaxPlies(t *testing.T) {
	g := Game{}
	st, err := g.New(2, 3, engine.Options{"max_plies": "3"})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	mustPlay(t, s, Flip(0), Flip(1))
	if s.Over() {
		t.Fatal("over early")
	}
	mustPlay(t, s, Flip(2))
	if o := s.Outcome(); !s.Over() || o.Reason != "draw: max_plies 3 reached" || !reflect.DeepEqual(o.Ranks, []int{1, 1}) {
		t.Fatalf("outcome %+v", o)
	}
	if DefaultRules().MaxPlies != 2000 {
		t.Fatal("default max_plies")
	}
}

// allActions is every action value that fits the board, legal or not.
func allActions() []Action {
	out := []Action{Stop()}
	for f := range 32 {
		out = append(out, Flip(f))
		for t := range 32 {
			out = append(out, Move(f, t), Capture(f, t))
		}
	}
	return out
}

func randomRules(rng *rand.Rand) Rules {
	r := DefaultRules()
	if rng.IntN(2) == 0 {
		r.Ranks = HK
	}
	r.ChainCapture = rng.IntN(2) == 0
	r.CaptureFacedown = rng.IntN(2) == 0
	r.ChaseLoss = rng.IntN(2) == 0
	return r
}

// Every action not in Legal is rejected with the state unchanged, and
// every action in Legal is accepted.
func TestIllegalActionRejected(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	all := allActions()
	for g := range testkit.Pick(4, 10) {
		s := NewState(uint64(g), randomRules(rng))
		for !s.Over() {
			legal := s.AppendLegal(nil)
			before := s.Clone()
			beforeView, _ := json.Marshal(s.View(0))
			for _, a := range all {
				if s.ply%4 != 0 && a.Kind != KindStop && a.From%8 != int8(s.ply%8) {
					continue // a sample of the actions off the fourth ply, to keep the test fast
				}
				if slices.Contains(legal, a) {
					continue
				}
				if err := s.Play(a); err == nil {
					t.Fatalf("illegal %v accepted\n%s", a, before.RenderText(-1))
				}
			}
			for _, bad := range []engine.Action{nil, Action{Kind: 9}, Action{KindMove, 40, 3}, Action{KindFlip, -1, -1}} {
				if s.Apply(bad) == nil {
					t.Fatalf("bad action %v accepted", bad)
				}
			}
			if !reflect.DeepEqual(before, s) {
				t.Fatal("state changed by rejected actions")
			}
			if v, _ := json.Marshal(s.View(0)); string(v) != string(beforeView) {
				t.Fatal("view changed by rejected actions")
			}
			for _, a := range legal {
				c := s.Clone()
				if err := c.Play(a); err != nil {
					t.Fatalf("legal %v rejected: %v", a, err)
				}
			}
			if err := s.Apply(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestParseActionRoundTrip(t *testing.T) {
	g := Game{}
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	for seed := range uint64(40) {
		s := NewState(seed, randomRules(rng))
		for !s.Over() {
			legal := s.Legal()
			for _, a := range legal {
				raw, err := json.Marshal(a)
				if err != nil {
					t.Fatal(err)
				}
				b, err := g.ParseAction(raw)
				if err != nil {
					t.Fatalf("%s: %v", raw, err)
				}
				if b != a {
					t.Fatalf("%s parsed to %#v, want %#v", raw, b, a)
				}
				raw2, _ := json.Marshal(b)
				if string(raw2) != string(raw) {
					t.Fatalf("re-marshal %s != %s", raw2, raw)
				}
				n++
			}
			if err := s.Apply(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d actions checked", n)
	}
}

func TestParseActionErrors(t *testing.T) {
	g := Game{}
	cases := map[string]string{
		`[1]`:                           "JSON object",
		`{}`:                            `missing "type"`,
		`{"type":"jump"}`:               `unknown type "jump"`,
		`{"type":"flip"}`:               `missing "square"`,
		`{"type":"flip","square":"e1"}`: `bad square "e1"`,
		`{"type":"move","from":"a1"}`:   `missing "to"`,
		`{"type":"capture","from":"a9","to":"a1"}`: `bad square "a9"`,
	}
	for in, want := range cases {
		_, err := g.ParseAction(json.RawMessage(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to mention %s", in, err, want)
		}
	}
	a, err := g.ParseAction(json.RawMessage(`{"type":"move","from":"b3","to":"b4","comment":"x"}`))
	if err != nil || a != mv("b3", "b4") || a.String() != "b3-b4" {
		t.Fatalf("unknown field: %v %v", a, err)
	}
}

func TestOptions(t *testing.T) {
	g, err := engine.Lookup("banqi")
	if err != nil {
		t.Fatal(err)
	}
	info := g.Info()
	if info.MinSeats != 2 || info.MaxSeats != 2 {
		t.Fatal("seats")
	}
	opts, err := engine.Setup(g, 2, map[string]string{"ranks": "hk", "chain_capture": "1", "repetition": "chase_loss"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(2, 1, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := st.(*State).Rules()
	if r.Ranks != HK || !r.ChainCapture || !r.ChaseLoss || r.CaptureFacedown || r.NoProgressPlies != 180 || r.MaxPlies != 2000 {
		t.Fatalf("rules %+v", r)
	}
	for _, bad := range []map[string]string{{"ranks": "x"}, {"no_progress_plies": "0"}, {"max_plies": "abc"}, {"nope": "1"}} {
		if _, err := engine.Setup(g, 2, bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if _, err := engine.Setup(g, 3, nil); err == nil {
		t.Error("3 seats accepted")
	}
}

// TestParseLastReadsWhatViewsSay: ParseLast reads back the view's last
// action of every ply of random games (its flips, moves, attacks and
// stops), and refuses what lastNotation never writes.
func TestParseLastReadsWhatViewsSay(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for g := range 20 {
		s := NewState(uint64(g), randomRules(rng))
		for !s.Over() {
			l := s.AppendLegal(nil)
			a := l[rng.IntN(len(l))]
			mustPlay(t, s, a)
			text := s.lastNotation()
			last, err := ParseLast(text)
			if err != nil {
				t.Fatalf("ParseLast(%q): %v", text, err)
			}
			want := Last{Stop: a.Kind == KindStop, From: -1, To: -1, Revealed: s.lastReveal}
			if a.Kind != KindStop {
				want.From = int(a.From)
			}
			if a.Kind == KindMove || a.Kind == KindCapture {
				want.To = int(a.To)
			}
			if last != want {
				t.Fatalf("ParseLast(%q) = %+v, want %+v (after %v)", text, last, want, a)
			}
		}
	}
	for _, bad := range []string{"", "e5", "b3-", "b3-e9", "b3(", "b3(KK)", "b3(Z)", "b3-b4(k"} {
		if _, err := ParseLast(bad); err == nil {
			t.Errorf("ParseLast(%q) took it", bad)
		}
	}
}
