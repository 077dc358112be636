package replays_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		sc   script
	}{
		{"2 seats", script{seed: 1}},
		{"3 seats longer", script{seats: 3, seed: 42, options: map[string]string{"target": "40"}}},
		{"4 seats maxtake 5", script{seats: 4, seed: 7, options: map[string]string{"maxtake": "5"}}},
		{"strikes", script{seed: 3, strikeAt: map[int]bool{0: true, 4: true}}},
		{"2 seats forfeit", script{seed: 4, forfeitAt: map[int][]int{3: {1}}}},
		{"3 seats forfeit", script{seats: 3, seed: 5, forfeitAt: map[int][]int{2: {0}}}},
		{"startup forfeit", script{seed: 6, forfeitAt: map[int][]int{0: {0}}}},
		{"big seed", script{seed: 1<<64 - 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, want := play(t, tt.sc)
			path := filepath.Join(t.TempDir(), "g"+replays.Ext)
			if err := rec.WriteFile(path); err != nil {
				t.Fatal(err)
			}
			rp, err := replays.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := replays.Verify(rp); err != nil {
				t.Fatal(err)
			}
			h := rp.Header
			if h.Format != replays.FormatVersion || h.Game != "testnim" || h.Seed != tt.sc.seed ||
				len(h.Seats) != max(tt.sc.seats, 2) || h.Seats[1].Bot != "bob" || h.Clock.MoveMs != 100 ||
				!h.Started.Equal(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)) || h.Options["target"] == "" {
				t.Errorf("header did not round-trip: %+v", h)
			}
			if rp.Path != path {
				t.Errorf("Path = %q", rp.Path)
			}
			got := rp.Result
			if !slices.Equal(got.Ranks, want.Ranks) || !slices.Equal(got.Scores, want.Scores) ||
				got.Reason != want.Reason || got.Plies != want.Plies {
				t.Errorf("result = %+v, want %+v", got, want)
			}
			moves := 0
			for _, e := range rp.Events {
				if e.Move != nil {
					moves++
				}
			}
			if moves != want.Plies || moves == 0 && tt.sc.forfeitAt[0] == nil {
				t.Errorf("%d moves, result says %d", moves, want.Plies)
			}
		})
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g"+replays.Ext)
	entries := func() []string {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}

	// An unfinished game cannot be written, and nothing appears.
	unfinished := replays.NewRecorder(replays.Header{Game: "testnim", Seats: []replays.SeatInfo{{Seat: 0, Bot: "a"}, {Seat: 1, Bot: "b"}}})
	unfinished.Move(0, 0, json.RawMessage(`{"take":1}`), time.Millisecond, 0, false)
	if err := unfinished.WriteFile(path); err == nil || !strings.Contains(err.Error(), "not finished") {
		t.Errorf("WriteFile before Finish: %v", err)
	}
	// Recording a whole game touches no file.
	rec, _ := play(t, script{seed: 11})
	if names := entries(); len(names) != 0 {
		t.Fatalf("files before WriteFile: %v", names)
	}
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if names := entries(); !slices.Equal(names, []string{"g" + replays.Ext}) {
		t.Fatalf("files after WriteFile: %v", names)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm&0o600 != 0o600 || perm&0o022 != 0 {
		t.Errorf("mode %v", perm)
	}

	// Overwriting replaces the file whole.
	rec2, _ := play(t, script{seed: 12, seats: 3})
	if err := rec2.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	rp, err := replays.ReadFile(path)
	if err != nil || rp.Header.Seed != 12 {
		t.Fatalf("after overwrite: %v, %+v", err, rp)
	}
	if names := entries(); len(names) != 1 {
		t.Fatalf("files after overwrite: %v", names)
	}

	// A missing directory fails and leaves nothing behind.
	if err := rec.WriteFile(filepath.Join(dir, "nope", "g"+replays.Ext)); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}
	if names := entries(); len(names) != 1 {
		t.Fatalf("files after failed write: %v", names)
	}

	// Many games written at once share the encoder.
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range 16 {
		wg.Go(func() {
			rec, _ := play(t, script{seed: uint64(100 + i), seats: 2 + i%3})
			errs[i] = rec.WriteFile(filepath.Join(dir, "c"+string(rune('a'+i))+replays.Ext))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("concurrent write %d: %v", i, err)
		}
	}
	for _, n := range entries() {
		if strings.Contains(n, ".tmp") || !strings.HasSuffix(n, replays.Ext) {
			t.Errorf("left behind: %s", n)
		}
		rp, err := replays.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := replays.Verify(rp); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRecorderErrors(t *testing.T) {
	h := replays.Header{Game: "testnim", Seats: []replays.SeatInfo{{Seat: 0, Bot: "a"}, {Seat: 1, Bot: "b"}}}
	path := filepath.Join(t.TempDir(), "g"+replays.Ext)

	rec := replays.NewRecorder(h)
	rec.Move(0, 0, json.RawMessage(`{"take":`), time.Millisecond, 0, false)
	rec.Finish(replays.Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}})
	if err := rec.WriteFile(path); err == nil || !strings.Contains(err.Error(), "ply 0: action is not valid JSON") {
		t.Errorf("invalid action: %v", err)
	}

	rec = replays.NewRecorder(h)
	rec.Finish(replays.Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}})
	rec.Move(0, 0, json.RawMessage(`{"take":1}`), time.Millisecond, 0, false)
	if err := rec.WriteFile(path); err == nil || !strings.Contains(err.Error(), "after the result") {
		t.Errorf("move after Finish: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("file written despite errors: %v", err)
	}

	// Whitespace in an action is compacted so the line stays one line.
	rec = replays.NewRecorder(h)
	rec.Move(0, 0, json.RawMessage("{\n  \"take\": 2\n}"), time.Millisecond, 0, false)
	rec.Finish(replays.Result{Ranks: []int{1, 2}, Scores: []float64{1, 0}, Reason: "x"})
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	rp, err := replays.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(rp.Events[0].Move.Action); got != `{"take":2}` {
		t.Errorf("action = %s", got)
	}
}

// TestCorruption damages a good replay in many ways; each must fail with
// an error naming the file and saying what is wrong.
func TestCorruption(t *testing.T) {
	dir := t.TempDir()
	good := record(t, dir, script{seed: 5})
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := decompress(t, good)
	if len(lines) < 8 {
		t.Fatalf("game too short: %d lines", len(lines))
	}
	last := len(lines) - 1
	// lines[0] header, lines[1+k] the move at ply k, lines[last] result.
	edit := func(f func(ls []string) []string) []byte {
		return compress(t, joinLines(f(slices.Clone(lines))))
	}
	setLine := func(i int, f func(m map[string]any)) []byte {
		return edit(func(ls []string) []string { ls[i] = editJSON(t, ls[i], f); return ls })
	}
	flipped := slices.Clone(data)
	flipped[len(flipped)/2] ^= 0x55

	tests := []struct {
		name   string
		data   []byte
		verify bool // the error comes from Verify, not ReadFile
		want   []string
		is     error
	}{
		{"empty file", nil, false, []string{"empty"}, nil},
		{"truncated half", data[:len(data)/2], false, []string{"truncated"}, replays.ErrTruncated},
		{"truncated checksum", data[:len(data)-2], false, []string{"truncated"}, replays.ErrTruncated},
		{"random bytes", []byte("this is not zstd at all, just text\n"), false, []string{"bad zstd data", "corrupt or not a zstd file"}, replays.ErrCorrupt},
		{"flipped byte", flipped, false, []string{"bad zstd data"}, replays.ErrCorrupt},
		{"text cut mid-line", compress(t, joinLines(lines)[:len(joinLines(lines))-10]), false,
			[]string{"truncated", "middle of a line", "line " + itoa(last+1)}, replays.ErrTruncated},
		{"no result line", edit(func(ls []string) []string { return ls[:last] }), false,
			[]string{"truncated: no result line"}, replays.ErrTruncated},
		{"not JSON", edit(func(ls []string) []string { ls[3] = "{oops"; return ls }), false, []string{"line 4: not JSON"}, nil},
		{"no type", edit(func(ls []string) []string { ls[3] = `{"ply":2}`; return ls }), false, []string{"line 4", `missing "type"`}, nil},
		{"empty line", edit(func(ls []string) []string { return slices.Insert(ls, 2, "") }), false, []string{"line 3: empty line"}, nil},
		{"unknown line type", edit(func(ls []string) []string { return slices.Insert(ls, 2, `{"type":"chat","text":"hi"}`) }), false,
			[]string{"line 3", `unknown line type "chat"`}, nil},
		{"header not first", edit(func(ls []string) []string { ls[0], ls[1] = ls[1], ls[0]; return ls }), false,
			[]string{"line 1", "header missing", `"move"`}, nil},
		{"two headers", edit(func(ls []string) []string { return slices.Insert(ls, 1, ls[0]) }), false,
			[]string{"line 2", "header line is not first"}, nil},
		{"format 2", setLine(0, func(m map[string]any) { m["format"] = 2 }), false,
			[]string{"line 1", "unsupported format version 2"}, nil},
		{"line after result", edit(func(ls []string) []string { return append(ls, ls[2]) }), false,
			[]string{"line " + itoa(last+2), `"move" line after the result line`}, nil},
		{"plies out of order", edit(func(ls []string) []string { ls[3], ls[4] = ls[4], ls[3]; return ls }), false,
			[]string{"line 4", "ply 3, want 2", "out of order"}, nil},
		{"seat out of range", setLine(2, func(m map[string]any) { m["seat"] = 7 }), false,
			[]string{"line 3", "seat 7 out of range"}, nil},
		{"result plies", setLine(last, func(m map[string]any) { m["plies"] = 1 }), false,
			[]string{"result says 1 plies"}, nil},
		// Semantic damage: Read accepts it, Verify does not.
		{"illegal action", setLine(4, func(m map[string]any) { m["action"] = map[string]any{"take": 9} }), true,
			[]string{"line 5: ply 3", "played +9", "mismatch", "illegal"}, nil},
		{"malformed action", setLine(4, func(m map[string]any) { m["action"] = map[string]any{"give": 1} }), true,
			[]string{"line 5: ply 3", "bad action", `missing "take"`}, nil},
		{"wrong seat", setLine(3, func(m map[string]any) { m["seat"] = 1 - asInt(m["seat"]) }), true,
			[]string{"line 4: ply 2", "turn"}, nil},
		{"edited rank", setLine(last, func(m map[string]any) { m["ranks"] = []int{1, 1} }), true,
			[]string{"(result)", "ranks [1 1] recorded, the replay gives"}, nil},
		{"edited score", setLine(last, func(m map[string]any) { m["scores"] = []float64{1, 2} }), true,
			[]string{"(result)", "scores [1 2] recorded"}, nil},
		{"edited reason", setLine(last, func(m map[string]any) { m["reason"] = "resigned" }), true,
			[]string{"(result)", `reason "resigned" recorded`}, nil},
		{"game cut short", edit(func(ls []string) []string {
			ls = slices.Delete(ls, last-1, last)
			ls[len(ls)-1] = editJSON(t, ls[len(ls)-1], func(m map[string]any) { m["plies"] = asInt(m["plies"]) - 1 })
			return ls
		}), true, []string{"game is not over", "2 seats are still in play"}, nil},
		{"referee move without cause", setLine(2, func(m map[string]any) { m["by"] = "referee" }), true,
			[]string{"line 3: ply 1", "referee move"}, nil},
		{"unknown game", setLine(0, func(m map[string]any) { m["game"] = "chess" }), true,
			[]string{"line 1", `unknown game "chess"`, "testnim"}, nil},
		{"bad option", setLine(0, func(m map[string]any) { m["options"] = map[string]string{"target": "1000"} }), true,
			[]string{"line 1", "option target"}, nil},
		{"too many seats", setLine(0, func(m map[string]any) {
			m["seats"] = []map[string]any{{"seat": 0, "bot": "a"}, {"seat": 1, "bot": "b"}, {"seat": 2, "bot": "c"}, {"seat": 3, "bot": "d"}, {"seat": 4, "bot": "e"}}
		}), false, []string{"result has 2 ranks and 2 scores for 5 seats"}, nil},
	}
	// A different seed changes who starts; the first move then fails.
	tests = append(tests, struct {
		name   string
		data   []byte
		verify bool
		want   []string
		is     error
	}{"wrong seed", setLine(0, func(m map[string]any) { m["seed"] = 6 }), true, []string{"line 2: ply 0", "turn"}, nil})

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad"+replays.Ext)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			rp, err := replays.ReadFile(path)
			if tt.verify {
				if err != nil {
					t.Fatalf("ReadFile: %v", err)
				}
				err = replays.Verify(rp)
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.Contains(msg, path) {
				t.Errorf("error does not name the file: %s", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error is not %v", tt.is)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := replays.ReadFile(filepath.Join(t.TempDir(), "none"+replays.Ext))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

func TestForfeits(t *testing.T) {
	t.Run("2 seats stop at once", func(t *testing.T) {
		path := record(t, t.TempDir(), script{seed: 8, forfeitAt: map[int][]int{4: {1}}})
		rp := readVerified(t, path)
		r := rp.Result
		if !slices.Equal(r.Ranks, []int{1, 2}) || !slices.Equal(r.Scores, []float64{1, 0}) || r.Plies != 4 {
			t.Errorf("result %+v", r)
		}
		if len(r.Forfeits) != 1 || r.Forfeits[0] != (replays.SeatForfeit{Failure: protocol.Failure{Seat: 1, Reason: "timeout", Detail: "no reply within 100ms"}}) {
			t.Errorf("forfeits %+v", r.Forfeits)
		}
		lastEv := rp.Events[len(rp.Events)-1]
		if lastEv.Type() != replays.TypeForfeit || lastEv.Ply() != 4 || lastEv.Seat() != 1 {
			t.Errorf("last event %+v", lastEv)
		}
		// ForfeitOutcome's reason is the referee's words: not compared.
		lines := decompress(t, path)
		last := len(lines) - 1
		lines[last] = editJSON(t, lines[last], func(m map[string]any) { m["reason"] = "bob timed out" })
		if err := verifyText(t, joinLines(lines)); err != nil {
			t.Errorf("reason edit rejected: %v", err)
		}
		lines[last] = editJSON(t, lines[last], func(m map[string]any) { m["ranks"] = []int{1, 1} })
		if err := verifyText(t, joinLines(lines)); err == nil || !strings.Contains(err.Error(), "ranks [1 1] recorded, the replay gives [1 2]") {
			t.Errorf("rank edit: %v", err)
		}
		// No move may follow once one seat is left.
		lines = decompress(t, path)
		mv := editJSON(t, lines[1], func(m map[string]any) { m["ply"] = 4 })
		lines = slices.Insert(lines, last, mv)
		lines[last+1] = editJSON(t, lines[last+1], func(m map[string]any) { m["plies"] = 5 })
		if err := verifyText(t, joinLines(lines)); err == nil || !strings.Contains(err.Error(), "fewer than two seats") {
			t.Errorf("move after forfeit: %v", err)
		}
	})
	t.Run("3 seats play on", func(t *testing.T) {
		path := record(t, t.TempDir(), script{seats: 3, seed: 9, forfeitAt: map[int][]int{2: {1}}})
		rp := readVerified(t, path)
		refMoves := 0
		for _, e := range rp.Events {
			if m := e.Move; m != nil && m.By == replays.ByReferee {
				if m.Seat != 1 {
					t.Errorf("referee moved for seat %d", m.Seat)
				}
				refMoves++
			}
		}
		if refMoves == 0 {
			t.Error("no referee moves for the forfeited seat")
		}
		if rp.Result.Ranks[1] != 3 || rp.Result.Ranks[0] == 3 || rp.Result.Ranks[2] == 3 {
			t.Errorf("ranks %v: forfeited seat 1 should be last", rp.Result.Ranks)
		}
		if !strings.HasPrefix(rp.Result.Reason, "seat ") {
			t.Errorf("reason %q should be the engine's", rp.Result.Reason)
		}
		// The forfeited seat cannot move by itself.
		lines := decompress(t, path)
		for i, l := range lines {
			if strings.Contains(l, `"by":"referee"`) {
				lines[i] = strings.Replace(l, `,"by":"referee"`, "", 1)
				break
			}
		}
		if err := verifyText(t, joinLines(lines)); err == nil || !strings.Contains(err.Error(), "seat 1 (bob) has forfeited") {
			t.Errorf("own move after forfeit: %v", err)
		}
	})
	t.Run("3 seats two forfeit", func(t *testing.T) {
		path := record(t, t.TempDir(), script{seats: 3, seed: 10, forfeitAt: map[int][]int{1: {2}, 3: {0}}})
		rp := readVerified(t, path)
		r := rp.Result
		if !slices.Equal(r.Ranks, []int{2, 1, 2}) || !slices.Equal(r.Scores, []float64{0, 1, 0}) || r.Plies != 3 || len(r.Forfeits) != 2 {
			t.Errorf("result %+v", r)
		}
	})
	t.Run("result forfeits must match", func(t *testing.T) {
		path := record(t, t.TempDir(), script{seats: 3, seed: 9, forfeitAt: map[int][]int{2: {1}}})
		lines := decompress(t, path)
		last := len(lines) - 1
		lines[last] = editJSON(t, lines[last], func(m map[string]any) {
			m["forfeits"] = []map[string]any{{"seat": 2, "reason": "crash"}}
		})
		if err := verifyText(t, joinLines(lines)); err == nil || !strings.Contains(err.Error(), "forfeits [seat 2 crash] recorded") {
			t.Errorf("forfeit list edit: %v", err)
		}
	})
}

func readVerified(t *testing.T, path string) *replays.Replay {
	t.Helper()
	rp, err := replays.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := replays.Verify(rp); err != nil {
		t.Fatal(err)
	}
	return rp
}

// verifyText compresses text, reads and verifies it.
func verifyText(t *testing.T, text string) error {
	t.Helper()
	rp, err := replays.Read(bytes.NewReader(compress(t, text)))
	if err != nil {
		return err
	}
	return replays.Verify(rp)
}

func TestShow(t *testing.T) {
	dir := t.TempDir()
	path := record(t, dir, script{seats: 3, seed: 9, forfeitAt: map[int][]int{5: {1}}, strikeAt: map[int]bool{2: true}})
	rp := readVerified(t, path)
	show := func(seat int) string {
		t.Helper()
		var b bytes.Buffer
		if err := replays.Show(&b, rp, seat); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	first := rp.Events[0].Move
	if first == nil {
		t.Fatal("first event is not a move")
	}
	act, _ := json.Marshal(first.Action)
	_ = act
	var take struct{ Take int }
	json.Unmarshal(first.Action, &take)

	spec := show(engine.Spectator)
	t.Log(spec)
	for _, want := range []string{
		"game testnim  (replay format 1, arena v0.0.0-test)",
		"options maxtake=3 target=21",
		"seed 9  match m-test  game g-9  started 2025-06-01T12:00:00Z",
		"seat 0: alice\nseat 1: bob\nseat 2: carol\n",
		"view: spectator",
		"--- start ---\ntotal 0/21  taken [0 0 0]\n",
		"--- ply 0: seat 0 (alice): +" + itoa(take.Take) + "  (1ms)\n",
		"--- ply 1: seat 1 (bob): ",
		"! strike at ply 2: seat 2 (carol) illegal_action: not a legal action\n",
		"--- ply 2: seat 2 (carol): ",
		"[by referee]",
		"! forfeit at ply 5: seat 1 (bob) timeout: no reply within 100ms\n",
		"--- result after " + itoa(rp.Result.Plies) + " plies: " + engine.NameSeats(rp.Result.Reason, []string{"alice", "bob", "carol"}),
		"seat 1 (bob)  (forfeit: timeout)",
	} {
		if !strings.Contains(spec, want) {
			t.Errorf("spectator output lacks %q", want)
		}
	}
	if strings.Contains(spec, "secret") {
		t.Error("spectator output shows a secret")
	}
	if n := strings.Count(spec, "--- ply "); n != rp.Result.Plies {
		t.Errorf("%d plies shown, want %d", n, rp.Result.Plies)
	}

	seat1 := show(1)
	if !strings.Contains(seat1, "view: seat 1 (bob)") || !strings.Contains(seat1, "your secret: ") {
		t.Errorf("seat 1 output:\n%s", seat1)
	}
	if strings.Count(seat1, "your secret: ") != rp.Result.Plies+1 {
		t.Errorf("secret not shown after every ply")
	}

	for _, bad := range []int{3, -2} {
		err := replays.Show(&bytes.Buffer{}, rp, bad)
		if err == nil || !strings.Contains(err.Error(), "no seat "+itoa(bad)+": the game has 3 seats (0-2)") {
			t.Errorf("Show seat %d: %v", bad, err)
		}
	}

	// Without a text renderer, Show prints the JSON view.
	jpath := record(t, t.TempDir(), script{game: "testnim-json", seed: 2})
	jrp := readVerified(t, jpath)
	var b bytes.Buffer
	if err := replays.Show(&b, jrp, 0); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, `{"total":0,"target":21,"to_move":0,"taken":[0,0],"secret":`) {
		t.Errorf("JSON view missing:\n%s", out)
	}
	b.Reset()
	if err := replays.Show(&b, jrp, engine.Spectator); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "secret") {
		t.Errorf("spectator JSON view shows a secret")
	}
}

func TestEventAccessors(t *testing.T) {
	var e replays.Event
	if e.Type() != "" || e.Ply() != -1 || e.Seat() != -1 {
		t.Error("empty event")
	}
	e = replays.Event{Strike: &protocol.Failure{Ply: 3, Seat: 1}}
	if e.Type() != "strike" || e.Ply() != 3 || e.Seat() != 1 {
		t.Error("strike event")
	}
	m := replays.Move{ThinkUs: 1500}
	if m.Think() != 1500*time.Microsecond {
		t.Error("Think")
	}
	o := engine.Outcome{Ranks: []int{1, 2}, Scores: []float64{3, 1}, Reason: "r"}
	if got := replays.ResultOf(o).Outcome(); !reflect.DeepEqual(got, o) {
		t.Errorf("ResultOf/Outcome: %+v", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func asInt(v any) int {
	n, _ := v.(json.Number).Int64()
	return int(n)
}
