package human

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arena-dev/arena/engine"
)

// table is one of the tables the tests seat a person at.
type table struct {
	game    string
	seats   int
	options map[string]string
}

// tables are the tables the tests seat a person at; the safety limits
// (max_plies, max_actions) end random games within a few hundred turns.
var tables = []table{
	{"banqi", 2, map[string]string{"max_plies": "200"}},
	{"banqi", 2, map[string]string{"chain_capture": "true", "capture_facedown": "true", "ranks": "hk", "max_plies": "200"}},
	{"uno", 2, map[string]string{"max_actions": "200"}},
	{"uno", 4, map[string]string{"seven_zero": "true", "jump_in": "true", "stack_draws": "true", "uno_call": "catch_window", "max_actions": "200"}},
	{"uno", 10, map[string]string{"play_to_last": "true", "reverse_deflects_draw": "true", "draw_until_playable": "true", "max_actions": "200"}},
	{"bounce", 8, map[string]string{"max_actions": "200"}},
	{"boon", 3, map[string]string{"rounds": "3"}},
	{"boon", 5, map[string]string{"must_trump": "true"}},
}

// fits fails unless every line is at most screenCols wide and there are
// at most rows of them.
func fits(t *testing.T, what string, lines []string, rows int) {
	t.Helper()
	if len(lines) > rows {
		t.Fatalf("%s: %d lines, want at most %d:\n%s", what, len(lines), rows, strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) > screenCols {
			t.Fatalf("%s: a line of %d columns:\n%s", what, utf8.RuneCountInString(l), l)
		}
	}
}

// At every turn of random games (every game, from 2 to 10 seats, house
// rules on), for the seat to move: the page fits under its prompt on an
// 80x24 terminal, with the legend above it too; every legal action,
// typed as the page lists it, is read back as that action; nonsense is
// refused with a message; the end fits with its result.
func TestEveryTurnFitsAndEveryChoiceReadsBack(t *testing.T) {
	for _, tb := range tables {
		t.Run(fmt.Sprintf("%s/%d/%v", tb.game, tb.seats, tb.options), func(t *testing.T) {
			t.Parallel()
			g, err := engine.Lookup(tb.game)
			if err != nil {
				t.Fatal(err)
			}
			opts, err := engine.Setup(g, tb.seats, tb.options)
			if err != nil {
				t.Fatal(err)
			}
			players := make([]string, tb.seats)
			for i := range players {
				players[i] = fmt.Sprintf("bot%d", i)
			}
			for seed := range uint64(2) {
				playRandom(t, g, opts, players, seed)
			}
		})
	}
}

func playRandom(t *testing.T, g engine.Game, opts engine.Options, players []string, seed uint64) {
	t.Helper()
	st, err := g.New(len(players), seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	seats := make([]game, len(players))
	for i := range seats {
		seats[i] = newGame(g.Info().Name, names{players: players, me: i})
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for turn := 0; !st.Over(); turn++ {
		if turn == 1000 {
			t.Fatalf("no end after %d turns: the options should end the game sooner", turn)
		}
		seat := st.ToMove()
		view, _ := json.Marshal(st.View(seat))
		legal := st.Legal()
		raw := make([]json.RawMessage, len(legal))
		for i, a := range legal {
			raw[i], _ = json.Marshal(a)
		}
		p := seats[seat].show(view, raw)
		if _, ok := seats[seat].(*jsonGame); ok || len(p.table) == 0 {
			t.Fatalf("turn %d: no drawing of %s", turn, view)
		}
		// A turn: a blank line, the page, the prompt.
		fits(t, fmt.Sprintf("turn %d, seat %d", turn, seat), p.lines(screenRows-2, true), screenRows-2)
		legend := seats[seat].legend()
		fits(t, "the legend and the page", append(legend, p.lines(screenRows-1-len(legend), false)...), screenRows-1)
		if n := utf8.RuneCountInString(seats[seat].prompt()); n > screenCols-10 {
			t.Fatalf("a prompt of %d columns leaves no room to type", n)
		}
		for i := range legal {
			typed := typedAs(seats[seat], i)
			got, err := seats[seat].read(typed)
			if err != nil || got != i {
				t.Fatalf("turn %d: %s typed as %q reads as %d, %v; want %d\n%s", turn, raw[i], typed, got, err, i, strings.Join(p.lines(99, true), "\n"))
			}
		}
		for _, nonsense := range []string{"zz", "e9", "b9-b10", "play", "wd4 purple", "r7>12", "au15", "flip", "!"} {
			if i, err := seats[seat].read(nonsense); err == nil && typedAs(seats[seat], i) != nonsense {
				t.Fatalf("turn %d: %q was read as %s", turn, nonsense, raw[i])
			} else if err != nil {
				fits(t, "a refusal", say(err.Error()), 3)
			}
		}
		k := rng.IntN(len(legal))
		seats[seat].chose(k)
		if err := st.Apply(legal[k]); err != nil {
			t.Fatal(err)
		}
	}
	for seat := range players {
		view, _ := json.Marshal(st.View(seat))
		p := seats[seat].show(view, nil)
		fits(t, "the end", p.lines(screenRows-2-resultRows, true), screenRows-2-resultRows)
	}
}

// typedAs is legal action i as the page tells the person to type it.
func typedAs(g game, i int) string {
	switch g := g.(type) {
	case *banqiGame:
		return g.legal[i].String()
	case *unoGame:
		typed, _ := g.typed(g.legal[i])
		return typed
	case *boonGame:
		typed, _ := g.typed(g.legal[i])
		return typed
	}
	return ""
}

// A person types moves as they would say them; each reads as the
// action meant, or is refused saying why and what to type.
func TestReadsWhatPeopleType(t *testing.T) {
	for _, tc := range []struct {
		name    string
		at      position
		entry   string
		want    string // the action read, as JSON; or
		refused string // a part of the message
	}{
		// Banqi (docs/games/banqi.md's view: seat 0, black, after b4-b3).
		{name: "banqi flip", at: banqiAsRed, entry: "a1", want: `{"type":"flip","square":"a1"}`},
		{name: "banqi flip word", at: banqiAsRed, entry: "Flip A1", want: `{"type":"flip","square":"a1"}`},
		{name: "banqi move dash", at: banqiAsRed, entry: "b3-b4", want: `{"type":"move","from":"b3","to":"b4"}`},
		{name: "banqi move space", at: banqiAsRed, entry: "b3 b4", want: `{"type":"move","from":"b3","to":"b4"}`},
		{name: "banqi move word", at: banqiAsRed, entry: "move b3 to b4", want: `{"type":"move","from":"b3","to":"b4"}`},
		{name: "banqi face up", at: banqiAsRed, entry: "b3", refused: "b3 is face up: to move your Minister type e.g. b3-b4."},
		{name: "banqi empty", at: banqiAsRed, entry: "b4", refused: "b4 is empty"},
		{name: "banqi theirs", at: banqiAsRed, entry: "c3", refused: "c3 is face up, and your Guard there cannot move now: c4, c2 and d3 are face down and b3 holds your Minister."},
		{name: "banqi their piece", at: banqiAsBlack, entry: "b3", refused: "b3 is face up (a red Minister): flip a face-down square (X)."},
		{name: "banqi off the board", at: banqiAsRed, entry: "e5", refused: "e5 is not a square: the board runs from a1 to d8"},
		{name: "banqi off the board x", at: banqiAsRed, entry: "x1", refused: "x1 is not a square: the board runs from a1 to d8"},
		{name: "banqi off the board z", at: banqiAsRed, entry: "z9", refused: "z9 is not a square: the board runs from a1 to d8"},
		{name: "banqi off the board in a move", at: banqiAsRed, entry: "b3xb0", refused: "b0 is not a square"},
		{name: "banqi move x", at: banqiAsRed, entry: "b3xb4", want: `{"type":"move","from":"b3","to":"b4"}`},
		{name: "banqi move x spaced", at: banqiAsRed, entry: "b3 x b4", want: `{"type":"move","from":"b3","to":"b4"}`},
		{name: "banqi bad move", at: banqiAsRed, entry: "b3-b1", refused: "your Minister on b3 can play b3-b4"},
		{name: "banqi not yours", at: banqiAsRed, entry: "a3-a4", refused: "there is no face-up piece of yours on a3"},
		{name: "banqi stuck", at: banqiAsRed, entry: "c3-c2", refused: "your Guard on c3 cannot move now: c4, c2 and d3 are face down and b3 holds your Minister."},
		{name: "banqi stuck by pieces", at: position{"banqi", banqiHemmed, `[{"type":"flip","square":"a1"}]`, 0}, entry: "b2-b1", refused: "your Guard on b2 cannot move now: b1 is face down, a2 holds your Pawn and b3 and c2 hold bot1's pieces, which it cannot take."},
		{name: "banqi unreadable view", at: position{"banqi", `{"board":"?"}`, banqiLegal, 0}, entry: "a1", refused: `"a1" is not a choice: type its number, 1 to 3.`},
		{name: "a game without a drawing", at: position{"chess", `{}`, banqiLegal, 0}, entry: "e4", refused: `"e4" is not a choice: type its number, 1 to 3.`},
		{name: "banqi gibberish", at: banqiAsRed, entry: "hello", refused: `Cannot read "hello"`},

		// Uno (docs/games/uno.md's challenge: seat 0 played WD4 on seat 1).
		{name: "uno challenge", at: unoToChallenge, entry: "c", want: `{"type":"challenge"}`},
		{name: "uno challenge word", at: unoToChallenge, entry: "Challenge", want: `{"type":"challenge"}`},
		{name: "uno accept", at: unoToChallenge, entry: "accept", want: `{"type":"accept"}`},
		{name: "uno no draw now", at: unoToChallenge, entry: "draw", refused: "You cannot draw now. bot0 played a wild draw four"},
		// Uno (the docs' example view: seat 1 to play on R2).
		{name: "uno code", at: unoOnRed2, entry: "r8", want: `{"type":"play","card":"R8"}`},
		{name: "uno words", at: unoOnRed2, entry: "red 8", want: `{"type":"play","card":"R8"}`},
		{name: "uno wild", at: unoOnRed2, entry: "wd4 green", want: `{"type":"play","card":"WD4","colour":"green"}`},
		{name: "uno wild words", at: unoOnRed2, entry: "wild draw four g", want: `{"type":"play","card":"WD4","colour":"green"}`},
		{name: "uno wild +4", at: unoOnRed2, entry: "w+4 blue", want: `{"type":"play","card":"WD4","colour":"blue"}`},
		{name: "uno wild needs a colour", at: unoOnRed2, entry: "wd4", refused: "Name the colour: wd4 red, wd4 yellow, wd4 green or wd4 blue"},
		{name: "uno draw", at: unoOnRed2, entry: "draw", want: `{"type":"draw"}`},
		{name: "uno d", at: unoOnRed2, entry: "d", want: `{"type":"draw"}`},
		{name: "uno not held", at: unoOnRed2, entry: "r7", refused: "You hold no red 7. Your turn: play a red card, a 2 or a wild, or draw (d)."},
		{name: "uno no match", at: unoOnRed2, entry: "y1", refused: "Yellow 1 cannot be played now. Your turn: play a red card, a 2 or a wild"},
		{name: "uno colour of a number", at: unoOnRed2, entry: "r8 green", refused: `Cannot read "green" in "r8 green"`},
		{name: "uno number in words", at: unoOnRed2, entry: "red eight", want: `{"type":"play","card":"R8"}`},
		{name: "uno face alone", at: unoOnRed2, entry: "eight", want: `{"type":"play","card":"R8"}`},
		{name: "uno face alone held", at: unoOnRed2, entry: "reverse", refused: "Yellow reverse cannot be played now."},
		{name: "uno face alone not held", at: unoOnRed2, entry: "skip", refused: "You hold no skip. Your turn: play a red card"},
		{name: "uno zero", at: unoOnBlue5, entry: "blue zero", want: `{"type":"play","card":"B0"}`},
		{name: "uno skip", at: unoOnBlue5, entry: "skip", want: `{"type":"play","card":"BS"}`},
		{name: "uno colour and skip", at: unoOnBlue5, entry: "blue skip", want: `{"type":"play","card":"BS"}`},
		{name: "uno draw two alone", at: unoOnBlue5, entry: "draw two", want: `{"type":"play","card":"BD2"}`},
		{name: "uno colour and reverse", at: unoOnBlue5, entry: "blue reverse", refused: "You hold no blue reverse."},
		{name: "uno which skip", at: unoOnBlue5, entry: "green skip", refused: "Green skip cannot be played now."},
		{name: "uno ambiguous skip", at: position{"uno", unoSkips, unoSkipsLegal, 1}, entry: "skip", refused: "Which skip? You can play blue skip (bs) and green skip (gs)."},
		{name: "uno draw after drawing", at: position{"uno", unoDrawn, `[{"type":"play","card":"R7"},{"type":"keep"}]`, 1}, entry: "d", refused: "You cannot draw now. You drew red 7: play it (r7) or keep it (k)?"},

		// Boon (docs/games/boon.md: seat 1 plays to trick 2; then buries).
		{name: "boon code", at: boonTrick2, entry: "au1", want: `{"type":"play","card":"Au1"}`},
		{name: "boon words", at: boonTrick2, entry: "play gold 1", want: `{"type":"play","card":"Au1"}`},
		{name: "boon upper case", at: boonTrick2, entry: "G4", want: `{"type":"play","card":"G4"}`},
		{name: "boon not held", at: boonTrick2, entry: "b5", refused: "You hold no blue 5."},
		{name: "boon no take now", at: boonTrick2, entry: "take", refused: "You cannot take the Boon now."},
		{name: "boon bury", at: boonBurying, entry: "bury au13", want: `{"type":"bury","card":"Au13"}`},
		{name: "boon take", at: boonPicking, entry: "t", want: `{"type":"take"}`},
		{name: "boon pass", at: boonPicking, entry: "pass", want: `{"type":"pass"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, legal, _ := seated(t, tc.at)
			i, err := g.read(tc.entry)
			switch {
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Fatalf("%q: %v (read %d), want a refusal saying %q", tc.entry, err, i, tc.refused)
			case tc.refused == "" && err != nil:
				t.Fatalf("%q: %v", tc.entry, err)
			case tc.refused == "" && string(legal[i]) != tc.want:
				t.Fatalf("%q read as %s, want %s", tc.entry, legal[i], tc.want)
			}
		})
	}
}

// position is a turn the tests show the person: at seat me of game
// (its players bot0, bot1, ...), view and legal as sent (JSON text).
type position struct {
	game, view, legal string
	me                int
}

// The positions most tests show (the views are below).
var (
	banqiAsRed     = position{"banqi", banqiRed, banqiLegal, 1}
	banqiAsBlack   = position{"banqi", banqiView, banqiLegal, 0}
	unoToChallenge = position{"uno", unoChallenge, `[{"type":"challenge"},{"type":"accept"}]`, 1}
	unoOnRed2      = position{"uno", unoView, unoLegal, 1}
	unoOnBlue5     = position{"uno", unoBlue, unoBlueLegal, 1}
	boonTrick2     = position{"boon", boonView, boonLegal, 1}
	boonBurying    = position{"boon", boonBury, boonBuryLegal, 1}
	boonPicking    = position{"boon", boonPick, `[{"type":"take"},{"type":"pass"}]`, 0}
)

// seated is the person shown position at: the game, the legal actions,
// the page.
func seated(t *testing.T, at position) (game, []json.RawMessage, page) {
	t.Helper()
	var legal []json.RawMessage
	if err := json.Unmarshal([]byte(at.legal), &legal); err != nil {
		t.Fatal(err)
	}
	g := newGame(at.game, names{players: []string{"bot0", "bot1", "bot2", "bot3"}[:seatsOf(at.game)], me: at.me})
	return g, legal, g.show(json.RawMessage(at.view), legal)
}

func seatsOf(game string) int {
	switch game {
	case "banqi":
		return 2
	case "uno":
		return 3
	}
	return 4
}

// What a person is asked, and what happened, are sentences naming the
// players, not the view's fields.
func TestDecisionsAndEventsAreSentences(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   position
		want []string
		once []string // said once, not twice
		not  []string
	}{
		{"uno challenge", unoToChallenge, []string{
			"bot0 played wild draw four and named blue.",
			"bot0 played a wild draw four and named blue (the colour was red). Challenge it (c) or accept the 4 cards (a)?",
			"1) c  challenge the Wild Draw Four",
			"2) a  accept: draw 4 cards",
			"Your hand (3 cards): green: skip (gs) · blue: 1 (b1), 2 (b2)",
		}, nil, nil},
		{"uno after a challenge", position{"uno", unoChallenged, `[{"type":"play","card":"B1"},{"type":"draw"}]`, 1}, []string{
			"You challenged bot0's Wild Draw Four: it was a bluff.",
			"bot0's hand was: red 3 (r3), green 5 (g5).",
			"1) b1  blue 1",
			"2) d   draw a card",
			"The discard pile was shuffled into a new draw pile.",
			"bot0 drew 4 cards: the Wild Draw Four was a bluff.",
		}, nil, nil},
		{"uno turn", unoOnRed2, []string{
			"Hand 1 · top card: red 2 · colour: red · draw pile 86 · clockwise",
			"In order of play: you 6 cards, bot2 6, bot0 6.",
			"You played red 5.",
			"bot2 played red 1.",
			"Your turn: play a red card, a 2 or a wild, or draw (d).",
		}, nil, nil},
		{"banqi", banqiAsBlack, []string{
			"8  X  X  X  X  8    you: black (seat 0)",
			"3  X [M] G  X  3",
			"bot1's red Minister moved b4-b3 and took your black Minister.",
			"Your move (you are black): flip a piece, or move or capture with one of yours.",
		}, nil, nil},
		{"boon", boonTrick2, []string{
			"Round 1 · bot3 dealt · you picked and play alone against the others",
			"Trick 2, now: bot3 led blue 2, bot0 red 3; bot3 is winning, 0 points so far.",
			"Played: you green 2, bot2 blue 1, bot3 green 3.",
			"bot3 won the trick.",
			"The Boon you took: green 6, gold 1, gold 4 and gold 13; you buried: gold 4, gold 10, gold 11 and gold 13.",
			"Play a card to trick 2: follow blue if you can.",
			"victory cards in hand tricks points",
		}, nil, []string{"VC"}},
		{"uno call", position{"uno", unoCalled, `[{"type":"draw"}]`, 1}, []string{
			"bot0 played red 2, calling Uno!",
			"In order of play: you 1 card, bot2 6, bot0 1.",
			"Your hand (1 card):",
		}, nil, []string{"Uno!.", "1 cards"}},
		{"banqi captures in words", banqiAsBlack, []string{
			"you lost: Minister", "bot1 lost: none", "ply 4; 0 moves since a flip or capture",
		}, nil, []string{"captured:"}},
		{"banqi one move", position{"banqi", strings.Replace(banqiView, `"plies_since_progress":0`, `"plies_since_progress":1`, 1), banqiLegal, 0}, []string{
			"1 move since a flip or capture",
		}, nil, nil},
		{"boon passes said once", position{"boon", boonPassed, `[{"type":"take"},{"type":"pass"}]`, 2}, []string{
			"Take the Boon (4 cards, unseen) and play alone against the others (t), or pass (p)?",
		}, []string{"bot1 passed."}, nil},
		{"boon last card to bury", position{"boon", strings.Replace(boonBury, `"bury_left":4`, `"bury_left":1`, 1), boonBuryLegal, 1}, []string{
			"Bury 1 more card, one at a time",
		}, nil, []string{"card(s)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, p := seated(t, tc.at)
			page := strings.Join(p.lines(99, true), "\n")
			flat := strings.Join(strings.Fields(page), " ") // a sentence may be wrapped
			for _, w := range tc.want {
				if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("no %q in the page:\n%s", w, page)
				}
			}
			for _, w := range tc.once {
				if n := strings.Count(flat, w); n != 1 {
					t.Errorf("%q said %d times in the page:\n%s", w, n, page)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(flat, w) {
					t.Errorf("%q in the page:\n%s", w, page)
				}
			}
			for _, raw := range []string{"kind=", "pending=", "seat=", `"type"`} {
				if strings.Contains(page, raw) {
					t.Errorf("the page shows the view's fields (%s):\n%s", raw, page)
				}
			}
		})
	}
}

// Views from the games' docs (docs/games/*.md), as sent.
const (
	banqiView = `{"you":{"seat":0,"colour":"black"},"board":["XXXX","XXXX","XXXX","XXXX","X-XX","XMGX","XXXX","XXXX"],"colours":["black","red"],"to_move":0,"chain":null,"captured":{"red":"","black":"m"},"facedown":{"red":"KGMRRNNCCPPPPP","black":"kggmrrnnccppppp"},"ply":4,"plies_since_progress":0,"repeats":1,"last":"b4-b3","ranks":"taiwan"}`
	// Seat 0 (red) with its Guard on b2 hemmed in (ranks hk: a Guard
	// takes no Rook or Knight).
	banqiHemmed = `{"you":{"seat":0,"colour":"red"},"board":["XXXX","XXXX","XXXX","XXXX","XXXX","XrXX","PGnX","XXXX"],"colours":["red","black"],"to_move":0,"chain":null,"captured":{"red":"","black":""},"facedown":{"red":"KGMMRRNNCCPPPP","black":"kggmmrnccppppp"},"ply":10,"plies_since_progress":0,"repeats":1,"last":"c2(n)","ranks":"hk"}`
	// The same, as seat 1 (red) to move would see it.
	banqiRed   = `{"you":{"seat":1,"colour":"red"},"board":["XXXX","XXXX","XXXX","XXXX","X-XX","XMGX","XXXX","XXXX"],"colours":["black","red"],"to_move":1,"chain":null,"captured":{"red":"","black":"m"},"facedown":{"red":"KGMRRNNCCPPPPP","black":"kggmrrnnccppppp"},"ply":4,"plies_since_progress":0,"repeats":1,"last":"b4-b3","ranks":"taiwan"}`
	banqiLegal = `[{"type":"flip","square":"a1"},{"type":"flip","square":"a8"},{"type":"move","from":"b3","to":"b4"}]`

	unoView  = `{"you":1,"hand":["R8","Y1","YR","G7","B3","B8","WD4"],"top":"R2","colour":"red","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[6,6,6],"scores":[0,0,0],"finished":[],"draw_pile":86,"discard":["R7","R5","R1","R2"],"events":[{"type":"play","seat":1,"card":"R5"},{"type":"play","seat":2,"card":"R1"},{"type":"play","seat":0,"card":"R2"}],"decision":{"kind":"play"},"hands":[],"actions":3,"over":false,"rules":{"rules":"official","start_card":"official","voluntary_draw":true,"draw_until_playable":false,"wd4_mode":"challenge","uno_call":"autocatch","call":"uno","scoring":"winner_collects","target":0,"stack_draws":false,"seven_zero":false,"reverse_deflects_draw":false,"play_to_last":false,"jump_in":false,"max_actions":100000}}`
	unoLegal = `[{"type":"play","card":"R8"},{"type":"play","card":"WD4","colour":"red"},{"type":"play","card":"WD4","colour":"yellow"},{"type":"play","card":"WD4","colour":"green"},{"type":"play","card":"WD4","colour":"blue"},{"type":"draw"}]`

	unoBlue       = `{"you":1,"hand":["B0","BS","BD2","GS","Y4"],"top":"B5","colour":"blue","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[5,5,5],"scores":[0,0,0],"finished":[],"draw_pile":80,"discard":["B5"],"events":[],"decision":{"kind":"play"},"hands":[],"actions":9,"over":false,"rules":{"rules":"official","call":"uno","target":0}}`
	unoBlueLegal  = `[{"type":"play","card":"B0"},{"type":"play","card":"BS"},{"type":"play","card":"BD2"},{"type":"draw"}]`
	unoSkips      = `{"you":1,"hand":["BS","GS","R1"],"top":"RS","colour":"red","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[5,3,5],"scores":[0,0,0],"finished":[],"draw_pile":80,"discard":["RS"],"events":[],"decision":{"kind":"play"},"hands":[],"actions":9,"over":false,"rules":{"rules":"official","call":"uno","target":0}}`
	unoSkipsLegal = `[{"type":"play","card":"BS"},{"type":"play","card":"GS"},{"type":"play","card":"R1"},{"type":"draw"}]`
	unoDrawn      = `{"you":1,"hand":["R7","B3"],"top":"R2","colour":"red","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[5,2,5],"scores":[0,0,0],"finished":[],"draw_pile":80,"discard":["R2"],"events":[{"type":"draw","seat":1,"n":1,"why":"turn","cards":["R7"]}],"decision":{"kind":"drawn","card":"R7"},"hands":[],"actions":9,"over":false,"rules":{"rules":"official","call":"uno","target":0}}`
	unoCalled     = `{"you":1,"hand":["G5"],"top":"R2","colour":"red","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[1,1,6],"scores":[0,0,0],"finished":[],"draw_pile":80,"discard":["R2"],"events":[{"type":"play","seat":0,"card":"R2","uno":true}],"decision":{"kind":"play"},"hands":[],"actions":9,"over":false,"rules":{"rules":"official","call":"uno","target":0}}`

	unoChallenge  = `{"you":1,"hand":["GS","B1","B2"],"top":"WD4","colour":"blue","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[2,3,6],"scores":[0,0,0],"finished":[],"draw_pile":40,"discard":["WD4"],"events":[{"type":"play","seat":0,"card":"WD4","colour":"blue"}],"decision":{"kind":"pending","pending":4,"challenge":true,"from":0,"prev_colour":"red"},"hands":[],"actions":30,"over":false,"rules":{"rules":"official","call":"uno","target":0}}`
	unoChallenged = `{"you":1,"hand":["GS","B1","B2"],"top":"WD4","colour":"blue","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[6,3,2],"scores":[0,0,0],"finished":[],"draw_pile":96,"discard":["WD4"],"events":[{"type":"challenge","seat":1,"target":0,"why":"guilty"},{"type":"reveal","seat":0,"n":2,"cards":["R3","G5"]},{"type":"reshuffle","seat":-1,"n":100},{"type":"draw","seat":0,"n":4,"why":"bluff"}],"decision":{"kind":"play"},"hands":[],"actions":31,"over":false,"rules":{"rules":"official","call":"uno","target":0}}`

	boonView      = `{"seat":1,"seats":4,"round":1,"dealer":3,"vc":[5,5,5,5],"phase":"play","to_move":1,"decision":"play","mode":"picker","picker":1,"team":"picker","passed":[0],"hand":["G4","G5","G6","R2","R4","Au1"],"hand_sizes":[5,6,6,5],"boon_size":4,"boon":["G6","Au1","Au4","Au13"],"buried":["Au4","Au10","Au11","Au13"],"bury_left":0,"tricks_per_round":7,"trick_no":2,"trick":{"leader":3,"led":"B","cards":["B2","R3"],"winner":3,"points":0},"tricks":[{"leader":0,"led":"G","cards":["G1","G2","B1","G3"],"winner":3,"points":0}],"trick_points":[0,0,0,0],"tricks_won":[0,0,0,1],"events":[{"type":"play","seat":1,"card":"G2"},{"type":"play","seat":2,"card":"B1"},{"type":"play","seat":3,"card":"G3"},{"type":"trick","seat":3},{"type":"play","seat":3,"card":"B2"},{"type":"play","seat":0,"card":"R3"}],"last_round":null}`
	boonLegal     = `[{"type":"play","card":"G4"},{"type":"play","card":"G5"},{"type":"play","card":"G6"},{"type":"play","card":"R2"},{"type":"play","card":"R4"},{"type":"play","card":"Au1"}]`
	boonBury      = `{"seat":1,"seats":4,"round":1,"dealer":3,"vc":[5,5,5,5],"phase":"bury","to_move":1,"decision":"bury","mode":"picker","picker":1,"team":"picker","passed":[0],"hand":["G2","G4","G5","G6","R2","R4","Au1","Au4","Au10","Au11","Au13"],"hand_sizes":[7,11,7,7],"boon_size":4,"boon":["G6","Au1","Au4","Au13"],"bury_left":4,"tricks_per_round":7,"trick_no":1,"trick":{"leader":0,"led":"","cards":[],"winner":-1,"points":0},"tricks":[],"trick_points":[0,0,0,0],"tricks_won":[0,0,0,0],"events":[{"type":"take","seat":1}],"last_round":null}`
	boonBuryLegal = `[{"type":"bury","card":"G2"},{"type":"bury","card":"G4"},{"type":"bury","card":"G5"},{"type":"bury","card":"G6"},{"type":"bury","card":"R2"},{"type":"bury","card":"R4"},{"type":"bury","card":"Au1"},{"type":"bury","card":"Au4"},{"type":"bury","card":"Au10"},{"type":"bury","card":"Au11"},{"type":"bury","card":"Au13"}]`
	boonPassed    = `{"seat":2,"seats":4,"round":1,"dealer":3,"vc":[5,5,5,5],"phase":"pick","to_move":2,"decision":"take_or_pass","mode":"pick","picker":-1,"team":"undecided","passed":[0,1],"hand":["G1","R3","Au3","Au6","Au7","Au8","Au12"],"hand_sizes":[7,7,7,7],"boon_size":4,"bury_left":0,"tricks_per_round":7,"trick_no":1,"trick":{"leader":0,"led":"","cards":[],"winner":-1,"points":0},"tricks":[],"trick_points":[0,0,0,0],"tricks_won":[0,0,0,0],"events":[{"type":"deal","seat":3},{"type":"pass","seat":0},{"type":"pass","seat":1}],"last_round":null}`
	boonPick      = `{"seat":0,"seats":4,"round":1,"dealer":3,"vc":[5,5,5,5],"phase":"pick","to_move":0,"decision":"take_or_pass","mode":"pick","picker":-1,"team":"undecided","passed":[],"hand":["G1","R3","Au3","Au6","Au7","Au8","Au12"],"hand_sizes":[7,7,7,7],"boon_size":4,"bury_left":0,"tricks_per_round":7,"trick_no":1,"trick":{"leader":0,"led":"","cards":[],"winner":-1,"points":0},"tricks":[],"trick_points":[0,0,0,0],"tricks_won":[0,0,0,0],"events":[{"type":"deal","seat":3}],"last_round":null}`
)

// A move is told with the piece that made it, read from the board
// before it: the person's King that took a Knight on d7 is their King
// though the other seat's Pawn has taken it there since, and the Pawn
// is told as the other seat's; then the same for a Pawn's move.
func TestBanqiTellsThePieceThatMoved(t *testing.T) {
	view := func(ply int, board, capturedRed, capturedBlack, last string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"you":{"seat":0,"colour":"red"},"board":[%s],"colours":["red","black"],"to_move":0,"chain":null,`+
			`"captured":{"red":%q,"black":%q},"facedown":{"red":"GMRRNNCPPPP","black":"kggmmrrnccppp"},"ply":%d,"plies_since_progress":0,"repeats":1,"last":%q,"ranks":"taiwan"}`,
			board, capturedRed, capturedBlack, ply, last))
	}
	g := newGame("banqi", names{players: []string{"you", "greedy"}, me: 0})
	for _, turn := range []struct {
		view  json.RawMessage
		legal string
		typed string // the person's move at this turn
		want  []string
	}{
		{view(8, `"XcXX","XXpn","XXXK","XXXP","XXXX","MGCX","XXXX","XXXX"`, "", "", "c7(p)"),
			`[{"type":"flip","square":"a8"},{"type":"capture","from":"d6","to":"d7"}]`, "d6-d7", nil},
		{view(10, `"XcXX","XX-p","XXX-","XXXP","XXXX","MGCX","XXXX","XXXX"`, "K", "n", "c7-d7"),
			`[{"type":"flip","square":"a8"},{"type":"move","from":"d5","to":"d6"}]`, "d5-d6", []string{
				"Your red King moved d6-d7 and took greedy's black Knight.",
				"greedy's black Pawn moved c7-d7 and took your red King.",
				"you lost: King", "greedy lost: Knight",
			}},
		{view(12, `"XcXX","XX--","XXXp","XXX-","XXXX","MGCX","XXXX","XXXX"`, "KP", "n", "d7-d6"),
			`[{"type":"flip","square":"a8"}]`, "", []string{
				"Your red Pawn moved d5-d6.",
				"greedy's black Pawn moved d7-d6 and took your red Pawn.",
				"you lost: King, Pawn",
			}},
	} {
		var legal []json.RawMessage
		if err := json.Unmarshal([]byte(turn.legal), &legal); err != nil {
			t.Fatal(err)
		}
		page := strings.Join(g.show(turn.view, legal).lines(99, true), "\n")
		flat := strings.Join(strings.Fields(page), " ")
		for _, w := range turn.want {
			if !strings.Contains(flat, w) {
				t.Errorf("no %q in the page:\n%s", w, page)
			}
		}
		if turn.typed != "" {
			i, err := g.read(turn.typed)
			if err != nil {
				t.Fatal(err)
			}
			g.chose(i)
		}
	}
}
