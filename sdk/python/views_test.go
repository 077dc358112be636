package python

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// banqiNames are the piece names by engine type (King .. Pawn), the
// one naming scheme of the project: the letters K G M R N C P.
var banqiNames = map[banqi.Type]string{
	banqi.King: "King", banqi.Guard: "Guard", banqi.Minister: "Minister",
	banqi.Rook: "Rook", banqi.Knight: "Knight", banqi.Cannon: "Cannon", banqi.Pawn: "Pawn",
}

// viewCase is one game, seat count and option preset the views test plays.
type viewCase struct {
	game     string
	seats    int
	opts     map[string]string
	games    int
	maxPlies int
}

var viewCases = []viewCase{
	{"banqi", 2, nil, 4, 400},
	{"banqi", 2, map[string]string{"chain_capture": "true", "capture_facedown": "true"}, 3, 400},
	{"banqi", 2, map[string]string{"ranks": "hk", "repetition": "chase_loss", "no_progress_plies": "40"}, 3, 400},
	{"uno", 2, nil, 2, 300},
	{"uno", 3, map[string]string{"target": "0"}, 3, 300},
	{"uno", 4, map[string]string{"seven_zero": "true", "stack_draws": "true", "jump_in": "true", "target": "0"}, 3, 300},
	{"uno", 6, map[string]string{"reverse_deflects_draw": "true", "play_to_last": "true", "uno_call": "catch_window", "draw_until_playable": "true", "target": "0"}, 2, 300},
	{"uno", 10, map[string]string{"target": "0", "wd4_mode": "enforce"}, 2, 300},
	{"bounce", 2, nil, 8, 300},
	{"bounce", 5, map[string]string{"seven_zero": "true", "jump_in": "true"}, 8, 300},
	{"bounce", 8, map[string]string{"stack_draws": "true", "target": "200"}, 3, 300},
	{"boon", 3, nil, 3, 400},
	{"boon", 4, map[string]string{"must_trump": "true", "no_pick": "redeal", "tiers": "sheepshead"}, 3, 400},
	{"boon", 5, map[string]string{"least_tie": "split", "short_pay": "negative", "final_tie": "play_on"}, 3, 400},
}

// session is what the views test sends the Python bot and what it must
// get back: the lines, the records the bot must write, and its answers.
type session struct {
	in      bytes.Buffer
	records []any
	answers []string // "ready" or "id index"
	views   map[string]int
}

// norm is v as JSON would give it back (numbers as float64).
func norm(t testing.TB, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func appendJSON(t testing.TB, v any) []byte {
	b, err := engine.AppendJSON(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type seatTurn struct {
	line   []byte
	record map[string]any
	n      int // legal actions
}

// play plays one game of c with seeded, mostly random moves and adds it
// to s: for every seat a hello, every turn that seat got, and the end.
func (s *session) play(t *testing.T, c viewCase, g engine.Game, opts engine.Options, seed uint64, gameID string) {
	st, err := g.New(c.seats, seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 77))
	turns := make([][]seatTurn, c.seats)
	for ply := 0; !st.Over() && ply < c.maxPlies; ply++ {
		seat := st.ToMove()
		legal := st.Legal()
		raws := make([]json.RawMessage, len(legal))
		for i, a := range legal {
			raws[i] = appendJSON(t, a)
		}
		id := int64(len(turns[seat]) + 1)
		line, err := json.Marshal(protocol.Turn{Type: protocol.TypeTurn, ID: id, View: appendJSON(t, st.View(seat)), Legal: raws, Clock: protocol.TurnClock{MoveMs: 1000}})
		if err != nil {
			t.Fatal(err)
		}
		rec := expectTurn(c.game, st, seat, legal)
		rec["id"] = id
		turns[seat] = append(turns[seat], seatTurn{line, rec, len(legal)})
		k := rng.IntN(len(legal))
		if c.game == "uno" || c.game == "bounce" {
			// Mostly play a card, so that hands end in a few hundred plies.
			var plays []int
			for i, a := range legal {
				if a.(uno.Action).Type == uno.ActPlay {
					plays = append(plays, i)
				}
			}
			if len(plays) > 0 && rng.IntN(10) < 9 {
				k = plays[rng.IntN(len(plays))]
			}
		}
		if err := st.Apply(legal[k]); err != nil {
			t.Fatal(err)
		}
	}
	resolved := map[string]string(opts)
	for seat := range c.seats {
		players := make([]string, c.seats)
		for i := range players {
			players[i] = fmt.Sprintf("p%d", i)
		}
		hello, _ := json.Marshal(protocol.Hello{Type: protocol.TypeHello, Protocol: 1, Game: c.game, Options: resolved,
			Seat: seat, Seats: c.seats, Players: players, Match: "pytest", GameID: gameID, Seed: seed,
			Clock: protocol.Clock{StartupMs: 10000, MoveMs: 1000, MarginMs: 50}})
		s.in.Write(hello)
		s.in.WriteByte('\n')
		s.records = append(s.records, norm(t, map[string]any{"hello": gameID, "game": c.game, "seat": seat, "seats": c.seats, "options": resolved}))
		s.answers = append(s.answers, "ready")
		for _, tu := range turns[seat] {
			s.in.Write(tu.line)
			s.in.WriteByte('\n')
			s.records = append(s.records, norm(t, tu.record))
			id := tu.record["id"].(int64)
			s.answers = append(s.answers, fmt.Sprintf("%d %d", id, (7*id)%int64(tu.n)))
			s.views[c.game]++
		}
		if !st.Over() {
			continue
		}
		o := st.Outcome()
		end, _ := json.Marshal(protocol.End{Type: protocol.TypeEnd, GameID: gameID, Ranks: o.Ranks, Scores: o.Scores, Reason: o.Reason, View: appendJSON(t, st.View(seat))})
		s.in.Write(end)
		s.in.WriteByte('\n')
		view := expectTurn(c.game, st, seat, nil)
		delete(view, "legal")
		s.records = append(s.records, norm(t, map[string]any{"end": gameID, "rank": o.Ranks[seat], "score": o.Scores[seat],
			"won": o.Ranks[seat] == 1, "ranks": o.Ranks, "reason": o.Reason, "view": view}))
		s.views[c.game]++
	}
}

// expectTurn is what decode.py must decode from seat's view of st (and
// from legal), computed from the engine's own state and typed actions.
func expectTurn(game string, st engine.State, seat int, legal []engine.Action) map[string]any {
	switch game {
	case "banqi":
		return expectBanqi(st.(*banqi.State), seat, legal)
	case "uno", "bounce":
		return expectUno(st.(*uno.State), seat, legal)
	case "boon":
		return expectBoon(st.(*boon.State), seat, legal)
	}
	panic(game)
}

func expectBanqi(st *banqi.State, seat int, legal []engine.Action) map[string]any {
	board := st.Board()
	colourName := func(c banqi.Colour) string {
		if c == banqi.NoColour {
			return ""
		}
		return c.Name()
	}
	var squares []any
	count := map[string]int{}
	cannons := 0
	for sq := range 32 {
		p := board[sq]
		kind, colour := "", ""
		if p.Up() {
			kind, colour = banqiNames[p.Type()], p.Colour().Name()
			count[colour]++
			if p.Type() == banqi.Cannon {
				cannons++
			}
		}
		squares = append(squares, []any{banqi.SquareName(sq), string(p.Letter()), kind, colour, p == banqi.FaceDown, p == banqi.Empty})
	}
	mine, theirs := colourName(st.ColourOf(seat)), ""
	if mine != "" {
		theirs = colourName(st.ColourOf(1 - seat))
	}
	v := st.ViewOf(seat)
	captured := map[string][]string{"red": {}, "black": {}}
	for colour, letters := range map[string]string{"red": v.Captured.Red, "black": v.Captured.Black} {
		for i := range len(letters) {
			p, _ := banqi.PieceFromLetter(letters[i])
			captured[colour] = append(captured[colour], banqiNames[p.Type()])
		}
	}
	chain := ""
	if v.Chain != nil {
		chain = *v.Chain
	}
	acts, targets, movers, capMovers := []any{}, []string{}, []string{}, []string{}
	for _, a := range legal {
		a := a.(banqi.Action)
		switch a.Kind {
		case banqi.KindFlip:
			acts = append(acts, []string{"flip", banqi.SquareName(int(a.From)), banqi.SquareName(int(a.From))})
		case banqi.KindMove:
			acts = append(acts, []string{"move", banqi.SquareName(int(a.From)), banqi.SquareName(int(a.To))})
			movers = append(movers, string(board[a.From].Letter()))
		case banqi.KindCapture:
			acts = append(acts, []string{"capture", banqi.SquareName(int(a.From)), banqi.SquareName(int(a.To))})
			targets = append(targets, string(board[a.To].Letter()))
			capMovers = append(capMovers, string(board[a.From].Letter()))
		case banqi.KindStop:
			acts = append(acts, []string{"stop", "", ""})
		}
	}
	return map[string]any{
		"squares":        squares,
		"pieces":         map[string]int{"red": count["red"], "black": count["black"], "mine": count[mine], "theirs": count[theirs], "cannons": cannons},
		"me":             []any{seat, mine},
		"to_move":        st.ToMove(),
		"colour_to_move": colourName(st.ColourOf(st.ToMove())),
		"my_turn":        st.ToMove() == seat,
		"captured":       captured,
		"facedown_pool":  map[string]int{"red": len(v.FaceDown.Red), "black": len(v.FaceDown.Black)},
		"chain":          chain,
		"legal":          acts,
		"targets":        targets,
		"movers":         append(movers, capMovers...),
	}
}

var unoTypeNames = map[uno.ActionType]string{uno.ActPlay: "play", uno.ActDraw: "draw", uno.ActKeep: "keep", uno.ActPass: "pass",
	uno.ActChallenge: "challenge", uno.ActAccept: "accept", uno.ActJump: "jump", uno.ActCatch: "catch", uno.ActColour: "colour"}

func unoCard(c uno.Card) []any {
	colour, kind, number := "", "", -1
	if c.Colour() >= 0 {
		colour = uno.ColourNames[c.Colour()]
	}
	switch {
	case c == uno.Wild:
		kind = "wild"
	case c == uno.WildDraw:
		kind = "wild_draw_four"
	case c.IsNumber():
		kind, number = "number", c.Face()
	case c.Face() == uno.FaceSkip:
		kind = "skip"
	case c.Face() == uno.FaceReverse:
		kind = "reverse"
	case c.Face() == uno.FaceDrawTwo:
		kind = "draw_two"
	}
	return []any{c.String(), colour, kind, number, c.Points(), c.IsWild()}
}

func expectUno(st *uno.State, seat int, legal []engine.Action) map[string]any {
	v := st.ViewOf(seat)
	hand := []any{}
	for _, c := range st.Hand(seat) {
		hand = append(hand, unoCard(c))
	}
	colour := ""
	if st.ActiveColour() >= 0 {
		colour = uno.ColourNames[st.ActiveColour()]
	}
	counts, others := []int{}, map[string]int{}
	for s := range st.Seats() {
		counts = append(counts, st.Count(s))
		if s != seat {
			others[fmt.Sprint(s)] = st.Count(s)
		}
	}
	decision := ""
	if v.Decision != nil {
		decision = v.Decision.Kind
	}
	acts, plays := []any{}, 0
	for _, a := range legal {
		a := a.(uno.Action)
		card, named := "", ""
		if a.Card != uno.NoCard {
			card = a.Card.String()
		}
		if a.Colour >= 0 {
			named = uno.ColourNames[a.Colour]
		}
		if a.Type == uno.ActPlay || a.Type == uno.ActJump {
			plays++
		}
		acts = append(acts, []any{unoTypeNames[a.Type], card, named, int(a.Target), a.Uno})
	}
	return map[string]any{
		"hand": hand, "top": unoCard(st.Top()), "colour": colour, "counts": counts, "others": others,
		"direction": v.Direction, "draw_pile": v.DrawPile, "to_move": st.ToMove(), "seat": seat,
		"decision": decision, "legal": acts, "plays": plays,
	}
}

var boonKinds = map[boon.Kind]string{boon.KindTake: "take", boon.KindPass: "pass", boon.KindBury: "bury", boon.KindPlay: "play"}

func expectBoon(st *boon.State, seat int, legal []engine.Action) map[string]any {
	v := st.ViewOf(seat)
	hand := []any{}
	for _, c := range st.Hand(seat).Cards() {
		hand = append(hand, []any{c.String(), c.Suit().Name(), c.Rank(), c.Points(), c.Suit() == boon.Gold})
	}
	n := st.Seats()
	partners := []int{}
	if st.Mode() == boon.ModePicker && st.Picker() >= 0 && st.Picker() != seat {
		for s := range n {
			if s != seat && s != st.Picker() {
				partners = append(partners, s)
			}
		}
	}
	vc, sizes := []int{}, []int{}
	for s := range n {
		vc = append(vc, st.VC(s))
		sizes = append(sizes, st.Hand(s).Len())
	}
	trick := []any{}
	for i, c := range v.Trick.Cards {
		trick = append(trick, []any{(v.Trick.Leader + i) % n, c})
	}
	acts := []any{}
	for _, a := range legal {
		a := a.(boon.Action)
		card := ""
		if a.Kind == boon.KindBury || a.Kind == boon.KindPlay {
			card = a.Card.String()
		}
		acts = append(acts, []string{boonKinds[a.Kind], card})
	}
	return map[string]any{
		"seat": seat, "hand": hand, "phase": st.Phase().String(), "mode": st.Mode().String(),
		"picker": st.Picker(), "is_picker": st.Picker() >= 0 && st.Picker() == seat, "partners": partners,
		"vc": vc, "hand_sizes": sizes, "trick": trick, "trick_winner": v.Trick.Winner, "tricks": len(v.Tricks),
		"boon": v.Boon, "buried": v.Buried, "legal": acts,
	}
}

// TestRealViews feeds real views of every game, at several seat counts and
// option presets, to the SDK in one process (keep-alive across all the
// games), decodes each with the typed helpers (testdata/decode.py), and
// checks every decoded value against the engine's state and typed legal
// actions, and every answer against the choice decode.py had to make.
func TestRealViews(t *testing.T) {
	testkit.Tool(t, "python3")
	s := &session{views: map[string]int{}}
	for ci, c := range viewCases {
		g, opts := testkit.Setup(t, c.game, c.seats, c.opts)
		for n := range c.games {
			s.play(t, c, g, opts, uint64(1000*ci+n+1), fmt.Sprintf("pytest-%s-%d-g%04d", c.game, ci, n))
		}
	}
	s.in.WriteString(`{"type":"bye"}` + "\n")
	for _, game := range []string{"banqi", "uno", "bounce", "boon"} {
		if s.views[game] < 1000 {
			t.Errorf("%s: only %d views", game, s.views[game])
		}
	}

	script, err := os.ReadFile(filepath.Join("testdata", "decode.py"))
	if err != nil {
		t.Fatal(err)
	}
	outDir := t.TempDir()
	outFile := filepath.Join(outDir, "decoded.jsonl")
	b := startBot(t, string(script), outFile)
	go func() {
		b.stdin.Write(s.in.Bytes())
	}()
	start := time.Now()
	for i, want := range s.answers {
		line := b.recv(60 * time.Second)
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("answer %d: %q: %v", i, line, err)
		}
		got := fmt.Sprint(m["type"])
		if m["type"] == "action" {
			got = fmt.Sprintf("%v %v", m["id"], m["index"])
		}
		if got != want {
			t.Fatalf("answer %d: got %s (%s), want %s; stderr: %s", i, got, line, want, b.stderr)
		}
	}
	code, rest := b.exit(10 * time.Second)
	if code != 0 || len(rest) > 0 {
		t.Fatalf("exit status %d after bye, further lines %q; stderr: %s", code, rest, b.stderr)
	}
	if e := b.stderr.String(); e != "" {
		t.Fatalf("the decoder wrote to stderr (a failed check or a fallback):\n%s", lastLines([]byte(e), 40))
	}
	f, err := os.Open(outFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(s.records) {
			t.Fatalf("more records than expected (%d)", len(s.records))
		}
		var got any
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, s.records[i]) {
			want, _ := json.Marshal(s.records[i])
			t.Fatalf("record %d differs:\n got %s\nwant %s\n%s", i, sc.Bytes(), want, firstDiff(got, s.records[i], ""))
		}
	}
	if i != len(s.records) {
		t.Fatalf("%d records, want %d", i, len(s.records))
	}
	t.Logf("%d records (views: %v) decoded and checked in %v", i, s.views, time.Since(start).Round(time.Millisecond))
}

// firstDiff names the first place where got and want differ.
func firstDiff(got, want any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %v, want an object", path, got)
		}
		for k := range w {
			if !reflect.DeepEqual(g[k], w[k]) {
				return firstDiff(g[k], w[k], path+"."+k)
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s.%s: unexpected", path, k)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %v, want %v", path, got, want)
		}
		for i := range w {
			if !reflect.DeepEqual(g[i], w[i]) {
				return firstDiff(g[i], w[i], fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	return fmt.Sprintf("%s: got %v, want %v", strings.TrimPrefix(path, "."), got, want)
}
