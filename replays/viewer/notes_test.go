package viewer_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

// hostileNote is what seat 0 says at ply: its own text, then markup that
// would run if the page took it for HTML.
func hostileNote(ply int) string {
	return fmt.Sprintf("seat-0-said-%d <script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">", ply)
}

// notedUno is a 3-seat Uno hand whose bots all say something: seat 0
// hostile markup, seat 1 an object, seat 2 a note the referee dropped.
func notedUno(t *testing.T) *replays.Replay {
	t.Helper()
	return play(t, game{name: "uno", seats: 3, seed: 5, options: map[string]string{"target": "0", "voluntary_draw": "false"},
		note: func(ply, seat int) protocol.Note {
			switch seat {
			case 0:
				b, _ := json.Marshal(hostileNote(ply))
				return protocol.Note{JSON: b}
			case 1:
				return protocol.Note{JSON: json.RawMessage(fmt.Sprintf(`{"said":"seat-1-said-%d","depth":2}`, ply))}
			}
			return protocol.Note{Dropped: "seat-2-dropped: note is over the bound"}
		}})
}

// saidBy is what the moves of seat said, in order: the note as text
// (a string's value, an object's JSON), or "note dropped: why".
func saidBy(r *replays.Replay, seat int) []string {
	var out []string
	for _, e := range r.Events {
		m := e.Move
		if m == nil || m.Seat != seat || !m.Noted() {
			continue
		}
		var s string
		switch {
		case m.NoteDropped != "":
			s = "note dropped: " + m.NoteDropped
		case json.Unmarshal(m.Note, &s) == nil:
		default:
			s = string(m.Note)
		}
		out = append(out, s)
	}
	return out
}

// A page for one seat holds that seat's notes and no other's: not
// hidden, absent from the file's bytes.
func TestNotesOfOneSeat(t *testing.T) {
	t.Parallel()
	r := notedUno(t)
	dir := t.TempDir()
	all := string(read(t, page(t, dir, "all.html", r, viewer.Options{})))
	for _, said := range []string{"seat-0-said-", "seat-1-said-", "seat-2-dropped"} {
		if !strings.Contains(all, said) {
			t.Errorf("the page of every seat lacks %q", said)
		}
	}
	for seat := range 3 {
		html := string(read(t, page(t, dir, fmt.Sprintf("seat%d.html", seat), r, viewer.ForSeat(seat))))
		for other := range 3 {
			said := []string{"seat-0-said-", "seat-1-said-", "seat-2-dropped"}[other]
			if got := strings.Contains(html, said); got != (other == seat) {
				t.Errorf("the page for seat %d holds seat %d's note: %v", seat, other, got)
			}
		}
	}
}

// The viewer shows each move's note beside it, as text: the markup in a
// note is shown, never run; a dropped note says so.
func TestNotesShown(t *testing.T) {
	r := notedUno(t)
	dir := t.TempDir()
	path := page(t, dir, "notes.html", r, viewer.Options{})
	if strings.Contains(string(read(t, path)), "<script>window") {
		t.Fatal("a note's markup is in the page's bytes unescaped")
	}
	b := newBrowser(t)
	b.open(path)
	if pwned := eval[string](b, `String(window.pwned)`); pwned != "undefined" {
		t.Fatalf("a note ran as script: window.pwned = %s", pwned)
	}
	if n := eval[int](b, `document.querySelectorAll("img, script:not([id])").length`); n != 1 {
		t.Errorf("%d img or script elements, want only the viewer's script", n)
	}
	for seat := range 3 {
		want := saidBy(r, seat)
		got := eval[[]string](b, fmt.Sprintf(`[...document.querySelectorAll("#moves li.move")].filter(li => li.querySelector(".who").textContent.startsWith(%q)).map(li => li.querySelector(".bot-note")).filter(n => n).map(n => n.textContent)`,
			fmt.Sprintf("seat %d ", seat)))
		if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("seat %d's notes in the move list:\n%q\nwant\n%q", seat, got, want)
		}
	}
	// The status line of seat 0's first noted move shows its note in full.
	for p, e := range r.Events {
		if m := e.Move; m != nil && m.Seat == 0 && m.Noted() {
			b.jump(m.Ply + 1)
			if got, want := b.text("#status .bot-note"), hostileNote(m.Ply); got != want {
				t.Errorf("status after event %d shows note %q, want %q", p, got, want)
			}
			break
		}
	}

	one := page(t, dir, "seat0.html", r, viewer.ForSeat(0))
	b.open(one)
	if got := eval[int](b, `document.querySelectorAll("#moves .bot-note").length`); got != len(saidBy(r, 0)) {
		t.Errorf("the page for seat 0 shows %d notes, want its own %d", got, len(saidBy(r, 0)))
	}
}
