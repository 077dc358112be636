package replays_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/replaytest"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// notedGame is a 3-seat testnim game in which the bots say things with
// some moves, among them what an attacker would (markup, escape
// sequences, a line of its own), and one note the referee dropped.
func notedGame(note func(ply, seat int) protocol.Note) replaytest.Game {
	return replaytest.Game{
		Name: "testnim", Seats: 3, Seed: 9, StrikeAt: map[int]bool{4: true},
		Rand:  rand.New(rand.NewPCG(9, 99)),
		Pick:  func(ply, seat int, legal []engine.Action) engine.Action { return legal[(ply*7+seat*3)%len(legal)] },
		Think: func(ply int) time.Duration { return time.Duration(1000+ply*37) * time.Microsecond },
		Note:  note,
	}
}

var testNotes = map[int]protocol.Note{
	0: {JSON: json.RawMessage(`"take one, keep the tempo"`)},
	1: {JSON: json.RawMessage(`{"depth":3,"best":"+2","scores":[0.1,0.4]}`)},
	2: {JSON: json.RawMessage(`"<script>alert(1)</script>\u001b[2J\u009b\n{\"type\":\"move\"}"`)},
	3: {Dropped: "note is over the bound: 5000 bytes of JSON, at most 1024 are kept"},
	4: {JSON: json.RawMessage(`"never recorded: the referee moves at this ply"`)},
	5: {JSON: json.RawMessage("\"raw \u009b\x7f\u2028 end\"")}, // valid JSON, unescaped
}

func noteAt(ply, _ int) protocol.Note { return testNotes[ply] }

// Notes are recorded with their moves, read back, verified, and shown
// beside their moves; a game without notes records byte for byte as
// before (MoveNote with no note is Move).
func TestNotes(t *testing.T) {
	t.Parallel()
	rec, _ := replaytest.Play(t, notedGame(noteAt))
	rp, _ := replaytest.ReadBack(t, rec)
	if err := replays.Verify(rp); err != nil {
		t.Fatalf("verify: %v", err)
	}
	got := map[int]replays.Move{}
	for _, e := range rp.Events {
		if e.Move != nil && e.Move.Noted() {
			got[e.Move.Ply] = *e.Move
		}
	}
	for ply, want := range testNotes {
		m, ok := got[ply]
		if ply == 4 {
			if ok {
				t.Errorf("the referee's move at ply 4 carries a note: %+v", m)
			}
			continue
		}
		if string(m.Note) != string(want.JSON) || m.NoteDropped != want.Dropped {
			t.Errorf("ply %d: note %s dropped %q, want %s %q", ply, m.Note, m.NoteDropped, want.JSON, want.Dropped)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d moves with notes, want 5", len(got))
	}

	var b bytes.Buffer
	if err := replays.Show(&b, rp, engine.Spectator); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`  (1ms)  note: "take one, keep the tempo"` + "\n",
		`note: {"depth":3,"best":"+2","scores":[0.1,0.4]}` + "\n",
		`note: "<script>alert(1)</script>\u001b[2J\u009b\n{\"type\":\"move\"}"` + "\n",
		"  [note dropped: note is over the bound: 5000 bytes of JSON, at most 1024 are kept]\n",
		`note: "raw \u009b\u007f\u2028 end"` + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\u009b\x7f\u2028") {
		t.Error("show prints a bot's escape sequence raw")
	}

	plain, _ := replaytest.Play(t, notedGame(nil))
	none, _ := replaytest.Play(t, notedGame(func(int, int) protocol.Note { return protocol.Note{} }))
	a, _ := replaytest.ReadBack(t, plain)
	_, pb := replaytest.ReadBack(t, plain)
	_, nb := replaytest.ReadBack(t, none)
	if !bytes.Equal(pb, nb) {
		t.Error("a game whose bots say nothing records differently through MoveNote")
	}
	for _, e := range a.Events {
		if e.Move != nil && e.Move.Noted() {
			t.Errorf("a move with a note in a game without notes: %+v", e.Move)
		}
	}
}

// The note fields end their move line, and a note never makes a line of
// its own, whatever it holds (here a newline and a move line's text).
func TestNoteLines(t *testing.T) {
	t.Parallel()
	rec, _ := replaytest.Play(t, notedGame(noteAt))
	path := filepath.Join(t.TempDir(), "noted"+replays.Ext)
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	lines := replaytest.Lines(t, path)
	var moves, noted int
	for _, l := range lines {
		var m struct{ Type string }
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if m.Type == replays.TypeMove {
			moves++
		}
		if strings.Contains(l, `,"note":`) || strings.Contains(l, `,"note_dropped":`) {
			noted++
			if !strings.HasSuffix(l, `"}`) && !strings.HasSuffix(l, `]}}`) {
				t.Errorf("note not at the end of %s", l)
			}
		}
	}
	if noted != 5 || moves != rec2plies(t, lines) {
		t.Errorf("%d noted lines of %d moves:\n%s", noted, moves, strings.Join(lines, "\n"))
	}
}

// rec2plies is the result line's plies.
func rec2plies(t *testing.T, lines []string) int {
	t.Helper()
	var r struct{ Plies int }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatal(err)
	}
	return r.Plies
}
