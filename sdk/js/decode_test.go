package js

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// A config is one game, seat count and option preset to sample views of.
type config struct {
	game    string
	seats   int
	options map[string]string
}

var decodeConfigs = []config{
	{"banqi", 2, nil},
	{"banqi", 2, map[string]string{"ranks": "hk", "chain_capture": "true", "capture_facedown": "true"}},
	{"banqi", 2, map[string]string{"chain_capture": "true", "repetition": "chase_loss", "no_progress_plies": "40"}},
	{"uno", 2, nil},
	{"uno", 4, map[string]string{"stack_draws": "true", "jump_in": "true", "uno_call": "catch_window"}},
	{"uno", 10, map[string]string{"seven_zero": "true", "reverse_deflects_draw": "true", "play_to_last": "true", "target": "0"}},
	{"uno", 3, map[string]string{"wd4_mode": "challenge", "draw_until_playable": "true", "scoring": "penalty_low_wins", "target": "200"}},
	{"bounce", 2, nil},
	{"bounce", 5, map[string]string{"seven_zero": "true", "stack_draws": "true"}},
	{"bounce", 8, map[string]string{"rules": "official", "jump_in": "true"}},
	{"boon", 3, nil},
	{"boon", 4, map[string]string{"must_trump": "true", "no_pick": "redeal"}},
	{"boon", 5, map[string]string{"least_tie": "split", "tiers": "sheepshead", "final_tie": "play_on"}},
}

// perConfig is the number of views sampled per config: 13 configs make
// about 7,800 views, each decoded by the SDK and compared.
const perConfig = 600

// TestDecodeRealViews feeds real turn lines of every game (several seat
// counts and option presets, from the engines) to the SDK's typed helpers
// under node, and checks what they decode against the engine's state:
// the piece on every square, colours and side to move, the hands, top
// card, active colour and hand sizes, tricks and their winner, and every
// legal action.
func TestDecodeRealViews(t *testing.T) {
	nodePath := node(t)
	byGame := map[string][]config{}
	var order []string
	for _, c := range decodeConfigs {
		if byGame[c.game] == nil {
			order = append(order, c.game)
		}
		byGame[c.game] = append(byGame[c.game], c)
	}
	for _, game := range order {
		t.Run(game, func(t *testing.T) {
			var in bytes.Buffer
			var want []any
			for _, c := range byGame[game] {
				lines, exp := sample(t, c, perConfig)
				for _, l := range lines {
					in.Write(l)
					in.WriteByte('\n')
				}
				want = append(want, exp...)
			}
			got := runDriver(t, nodePath, game, in.Bytes())
			if len(got) != len(want) {
				t.Fatalf("the driver printed %d lines for %d views", len(got), len(want))
			}
			bad := 0
			for i := range want {
				w := normal(t, want[i])
				if !reflect.DeepEqual(got[i], w) {
					bad++
					if bad <= 3 {
						gj, _ := json.Marshal(got[i])
						wj, _ := json.Marshal(w)
						t.Errorf("view %d: the SDK decoded\n  %s\nthe engine has\n  %s", i, gj, wj)
					}
				}
			}
			if bad > 0 {
				t.Fatalf("%d of %d views decoded wrong", bad, len(want))
			}
			t.Logf("%d views of %s decoded as the engine has them", len(want), game)
		})
	}
}

// runDriver pipes in to testdata/decode.js and returns its lines, decoded.
func runDriver(t *testing.T, nodePath, game string, in []byte) []any {
	t.Helper()
	cmd := exec.Command(nodePath, "testdata/decode.js", game)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/decode.js %s: %v\n%s", game, err, stderr.String())
	}
	var got []any
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("driver line %q: %v", l, err)
		}
		got = append(got, v)
	}
	return got
}

// normal is v as JSON decodes it (maps, float64s), to compare with the
// driver's lines.
func normal(t *testing.T, v any) any {
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

// sample plays games of c with seeded random choices and returns count
// turn lines, each the turn the seat to move would get, with what the SDK
// should decode from it, taken from the engine's state.
func sample(t *testing.T, c config, count int) ([][]byte, []any) {
	g, opts := testkit.Setup(t, c.game, c.seats, c.options)
	var lines [][]byte
	var want []any
	for seed := uint64(1); len(lines) < count; seed++ {
		st, err := g.New(c.seats, seed, opts)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		stride := 1 + rng.IntN(4)
		taken := 0
		for ply := 0; !st.Over() && len(lines) < count && taken < count/6; ply++ {
			legal := st.Legal()
			if ply%stride == 0 {
				lines = append(lines, turnLine(t, st, legal, int64(len(lines)+1)))
				want = append(want, expect(t, st, legal))
				taken++
			}
			if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return lines, want
}

func turnLine(t *testing.T, st engine.State, legal []engine.Action, id int64) []byte {
	lj := make([]json.RawMessage, len(legal))
	for i, a := range legal {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		lj[i] = b
	}
	view, err := json.Marshal(st.View(st.ToMove()))
	if err != nil {
		t.Fatal(err)
	}
	line, err := json.Marshal(protocol.Turn{Type: protocol.TypeTurn, ID: id, View: view, Legal: lj, Clock: protocol.TurnClock{MoveMs: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	return line
}

func expect(t *testing.T, st engine.State, legal []engine.Action) any {
	switch s := st.(type) {
	case *banqi.State:
		return expectBanqi(s, legal)
	case *uno.State:
		return expectUno(t, s, legal)
	case *boon.State:
		return expectBoon(s, legal)
	}
	t.Fatalf("no expectations for %T", st)
	return nil
}

// The project's names for the Banqi kinds, in banqi.Type order.
var banqiKinds = [7]string{banqi.King: "king", banqi.Guard: "guard", banqi.Minister: "minister", banqi.Rook: "rook", banqi.Knight: "knight", banqi.Cannon: "cannon", banqi.Pawn: "pawn"}

func banqiCode(p banqi.Piece) string {
	switch {
	case p == banqi.FaceDown:
		return "X"
	case p == banqi.Empty:
		return "-"
	}
	return p.Colour().Name()[:1] + ":" + banqiKinds[p.Type()]
}

func colourOrNil(c banqi.Colour) any {
	if c == banqi.NoColour {
		return nil
	}
	return c.Name()
}

func expectBanqi(s *banqi.State, legal []engine.Action) any {
	seat := s.ToMove()
	board := s.Board()
	mine := s.ColourOf(seat)
	at := map[string]string{}
	var pieces, nMine, theirs, down, empty, kings int
	for sq, p := range board {
		at[banqi.SquareName(sq)] = banqiCode(p)
		switch {
		case p.Up():
			pieces++
			if mine != banqi.NoColour && p.Colour() == mine {
				nMine++
			} else if mine != banqi.NoColour {
				theirs++
			}
			if p.Type() == banqi.King {
				kings++
			}
		case p == banqi.FaceDown:
			down++
		default:
			empty++
		}
	}
	view := s.ViewOf(seat)
	captured := map[string][]string{"red": {}, "black": {}}
	for colour, letters := range map[string]string{"red": view.Captured.Red, "black": view.Captured.Black} {
		for i := range len(letters) {
			p, _ := banqi.PieceFromLetter(letters[i])
			captured[colour] = append(captured[colour], p.Colour().Name()+":"+banqiKinds[p.Type()])
		}
	}
	actions := make([]any, len(legal))
	for i, la := range legal {
		a := la.(banqi.Action)
		switch a.Kind {
		case banqi.KindFlip:
			actions[i] = []any{"flip", banqi.SquareName(int(a.From)), nil, banqiCode(board[a.From]), nil, true}
		case banqi.KindMove, banqi.KindCapture:
			kind := map[banqi.Kind]string{banqi.KindMove: "move", banqi.KindCapture: "capture"}[a.Kind]
			actions[i] = []any{kind, banqi.SquareName(int(a.From)), banqi.SquareName(int(a.To)), banqiCode(board[a.From]), banqiCode(board[a.To]), true}
		default:
			actions[i] = []any{"stop", nil, nil, nil, nil, true}
		}
	}
	var chain any
	if view.Chain != nil {
		chain = *view.Chain
	}
	return map[string]any{
		"at": at, "pieces": pieces, "mine": nMine, "theirs": theirs, "faceDown": down, "empty": empty, "kings": kings,
		"toMove": seat, "seat": seat, "myColour": colourOrNil(mine), "sideToMove": colourOrNil(s.ColourOf(seat)),
		"chain": chain, "captured": captured,
		"hidden":  map[string]int{"red": len(view.FaceDown.Red), "black": len(view.FaceDown.Black)},
		"actions": actions,
	}
}

var unoKinds = [13]string{"number", "number", "number", "number", "number", "number", "number", "number", "number", "number", "skip", "reverse", "draw_two"}

func unoCard(c uno.Card) any {
	var colour, value any
	kind := "wild"
	switch {
	case c == uno.WildDraw:
		kind = "wild_draw_four"
	case c != uno.Wild:
		colour = uno.ColourNames[c.Colour()]
		kind = unoKinds[c.Face()]
		if c.IsNumber() {
			value = c.Face()
		}
	}
	return []any{c.String(), colour, kind, value, c.IsWild(), c.Points()}
}

func expectUno(t *testing.T, s *uno.State, legal []engine.Action) any {
	seat := s.ToMove()
	hand := []any{}
	for _, c := range s.Hand(seat) {
		hand = append(hand, unoCard(c))
	}
	counts := make([]int, s.Seats())
	others := []any{}
	for i := range counts {
		counts[i] = s.Count(i)
		if i != seat {
			others = append(others, []int{i, s.Count(i)})
		}
	}
	var colour any
	if c := s.ActiveColour(); c >= 0 {
		colour = uno.ColourNames[c]
	}
	view := s.ViewOf(seat)
	if len(view.Hand) != len(hand) {
		t.Fatalf("view hand %v, engine hand %v", view.Hand, s.Hand(seat))
	}
	var decision any
	if d := view.Decision; d != nil {
		var card any
		if d.Card != "" {
			card = d.Card
		}
		decision = []any{d.Kind, card, d.Pending}
	}
	actions := make([]any, len(legal))
	for i, la := range legal {
		a := la.(uno.Action)
		var card, col, target any
		if a.Type == uno.ActPlay || a.Type == uno.ActJump {
			card = a.Card.String()
		}
		if a.Colour >= 0 {
			col = uno.ColourNames[a.Colour]
		}
		if a.Target >= 0 {
			target = int(a.Target)
		}
		typ := strings.SplitN(string(must(json.Marshal(a))), `"`, 5)[3]
		actions[i] = []any{typ, card, col, target, a.Uno}
	}
	return map[string]any{
		"seat": seat, "hand": hand, "top": unoCard(s.Top()), "colour": colour, "direction": view.Direction,
		"toMove": seat, "counts": counts, "others": others, "drawPile": view.DrawPile, "discard": len(view.Discard),
		"topIsLastDiscard": len(view.Discard) > 0, "decision": decision, "actions": actions,
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func boonCard(c boon.Card) any {
	return []any{c.String(), c.Suit().Name(), c.Rank(), c.Points(), c.Suit() == boon.Gold}
}

func expectBoon(s *boon.State, legal []engine.Action) any {
	seat := s.ToMove()
	hand := []any{}
	for _, c := range s.Hand(seat).Cards() {
		hand = append(hand, boonCard(c))
	}
	vc := make([]int, s.Seats())
	sizes := make([]int, s.Seats())
	for i := range vc {
		vc[i] = s.VC(i)
		sizes[i] = s.Hand(i).Len()
	}
	view := s.ViewOf(seat)
	var boonCards any
	if view.Boon != nil {
		boonCards = view.Boon
	}
	tr := view.Trick
	cards := []any{}
	for i, c := range tr.Cards {
		cards = append(cards, []any{(tr.Leader + i) % s.Seats(), c})
	}
	var led, winning any
	if tr.Led != "" {
		led = map[string]string{"B": "blue", "G": "green", "R": "red", "Au": "gold"}[tr.Led]
	}
	if tr.Winner >= 0 {
		winning = tr.Cards[(tr.Winner-tr.Leader+s.Seats())%s.Seats()]
	}
	actions := make([]any, len(legal))
	for i, la := range legal {
		a := la.(boon.Action)
		switch a.Kind {
		case boon.KindTake:
			actions[i] = []any{"take", nil}
		case boon.KindPass:
			actions[i] = []any{"pass", nil}
		case boon.KindBury:
			actions[i] = []any{"bury", a.Card.String()}
		default:
			actions[i] = []any{"play", a.Card.String()}
		}
	}
	return map[string]any{
		"seat": seat, "hand": hand, "handPoints": s.Hand(seat).Points(), "picker": s.Picker(),
		"isPicker": s.Picker() >= 0 && s.Picker() == seat, "mode": s.Mode().String(), "phase": s.Phase().String(),
		"vc": vc, "toMove": seat, "myTurn": true, "handSizes": sizes, "boon": boonCards,
		"trick":              []any{tr.Leader, led, cards, tr.Winner, winning},
		"trickWinnerByBeats": tr.Winner, "tricks": len(view.Tricks), "actions": actions,
	}
}

// TestTables checks the SDK's rule tables against the engines': Banqi's
// capture table under both rank orders, Boon's trick rule for every pair
// of cards, and the seeded generator against a Go rendering of it
// (splitmix64 seeding xoshiro128**), seeds up to 2^53-1 and BigInt ones.
func TestTables(t *testing.T) {
	nodePath := node(t)
	var deck []string
	for c := range boon.Card(boon.NumCards) {
		deck = append(deck, c.String())
	}
	type rnd struct {
		seed   uint64
		stream uint64
		bigint bool
	}
	rnds := []rnd{{0, 0, false}, {1, 0, false}, {7320360202848550, 1, false}, {1<<53 - 1, 0, false}, {1<<53 - 1, 9, false}, {1<<64 - 1, 3, true}}
	var in bytes.Buffer
	in.WriteString(`{"type":"x_cantake"}` + "\n")
	in.Write(must(json.Marshal(map[string]any{"type": "x_beats", "cards": deck})))
	in.WriteByte('\n')
	for _, r := range rnds {
		seed := any(r.seed)
		if r.bigint {
			seed = fmt.Sprint(r.seed)
		}
		in.Write(must(json.Marshal(map[string]any{"type": "x_random", "seed": seed, "stream": r.stream, "bigint": r.bigint, "n": 8})))
		in.WriteByte('\n')
	}
	got := runDriver(t, nodePath, "banqi", in.Bytes())

	var cantake [2][7][7]bool
	for r := range 2 {
		for a := range banqi.Type(7) {
			for tg := range banqi.Type(7) {
				cantake[r][a][tg] = banqi.CanTake(banqi.Ranks(r), a, tg)
			}
		}
	}
	if w := normal(t, cantake); !reflect.DeepEqual(got[0], w) {
		t.Errorf("banqi.canTake:\n got %v\nwant %v", got[0], w)
	}
	beats := make([][]bool, len(deck))
	for i := range deck {
		beats[i] = make([]bool, len(deck))
		for j := range deck {
			beats[i][j] = boon.Beats(boon.Card(i), boon.Card(j))
		}
	}
	if w := normal(t, beats); !reflect.DeepEqual(got[1], w) {
		t.Errorf("boon.beats differs from boon.Beats:\n got %v\nwant %v", got[1], w)
	}
	for i, r := range rnds {
		g := newRandom(r.seed, r.stream)
		want := make([]float64, 8)
		for k := range want {
			want[k] = g.float()
		}
		if w := normal(t, want); !reflect.DeepEqual(got[2+i], w) {
			t.Errorf("Random(%d, %d):\n got %v\nwant %v", r.seed, r.stream, got[2+i], w)
		}
	}
}

// random is the SDK's generator in Go: splitmix64 seeded with
// seed*31+stream gives xoshiro128**'s state.
type random struct{ s [4]uint32 }

func newRandom(seed, stream uint64) *random {
	x := seed*31 + stream
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	a, b := next(), next()
	r := &random{[4]uint32{uint32(a), uint32(a >> 32), uint32(b), uint32(b >> 32)}}
	if r.s == [4]uint32{} {
		r.s[0] = 1
	}
	return r
}

func rotl(x uint32, k uint) uint32 { return x<<k | x>>(32-k) }

func (r *random) uint32() uint32 {
	s := &r.s
	result := rotl(s[1]*5, 7) * 9
	t := s[1] << 9
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = rotl(s[3], 11)
	return result
}

func (r *random) float() float64 {
	hi := uint64(r.uint32() >> 5)
	lo := uint64(r.uint32() >> 6)
	return float64(hi<<26|lo) / (1 << 53)
}
