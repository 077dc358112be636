package js

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// JavaScript's act returns [action, note]: the note goes with the move;
// one the SDK cannot send (not a string or an object, or not JSON) is
// left out with a line on stderr, and the move is sent all the same.
func TestActReturnsANote(t *testing.T) {
	t.Parallel()
	r := startBot(t, "notes.js")
	r.send(hello(0, 1, "g0"))
	r.reply()
	legal := `[{"type":"flip","square":"a1"},{"type":"flip","square":"a2"},{"type":"flip","square":"a3"}]`
	for i, tc := range []struct{ cmd, note string }{
		{"plain", ""},
		{"none", ""},
		{"str", `"3 candidates, best +0.4 <b>"`},
		{"object", `{"best":{"type":"flip","square":"a2"},"scores":[0.5,0.25]}`},
		{"typed", `"an object of legal"`},
		{"async", `"after a promise"`},
		{"number", ""}, // turn 7
		{"array", ""},
		{"bigint", ""},
		{"cycle", ""},
	} {
		id := i + 1
		r.send(fmt.Sprintf(`{"type":"turn","id":%d,"view":{"cmd":%q},"legal":%s,"clock":{"move_ms":1000}}`, id, tc.cmd, legal))
		m := r.reply()
		wantAction(t, m, float64(id), 3)
		if m["index"] != 1.0 {
			t.Errorf("%s: index %v, want 1", tc.cmd, m["index"])
		}
		got := ""
		if n, ok := m["note"]; ok {
			b, _ := json.Marshal(n)
			got = string(b)
			if d := protocol.NoteOf(b); d.Dropped != "" {
				t.Errorf("%s: the referee would drop the note: %s", tc.cmd, d.Dropped)
			}
		}
		if want := reencoded(t, tc.note); got != want {
			t.Errorf("%s: note %s, want %s", tc.cmd, got, tc.note)
		}
	}
	r.send(`{"type":"bye"}`)
	if code := r.exit(10 * time.Second); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	for _, want := range []string{
		"turn id 7: note not sent: a note is a string or an object, not number",
		"turn id 8: note not sent: a note is a string or an object, not an array",
		"turn id 9: note not sent: it does not encode as JSON",
		"turn id 10: note not sent: it does not encode as JSON",
	} {
		if !strings.Contains(r.stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr.String(), "fallback") {
		t.Errorf("a note cost a move:\n%s", r.stderr)
	}
}

// reencoded is JSON text as the test's decoding re-encodes what the bot
// sent (keys sorted, markup escaped), "" for "".
func reencoded(t *testing.T, text string) string {
	t.Helper()
	if text == "" {
		return ""
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
