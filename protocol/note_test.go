package protocol_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-dev/arena/protocol"
)

// What CheckNote keeps and what it drops, and why, as docs/protocol.md
// says: a string or an object, compacted, at most MaxNote bytes of JSON.
func TestCheckNote(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", protocol.MaxNote-2) // with its quotes: exactly the bound
	for _, tc := range []struct {
		name, raw, want string
		err             error
	}{
		{"absent", "", "", nil},
		{"null", "null", "", nil},
		{"string", `"3 candidates, best +0.4"`, `"3 candidates, best +0.4"`, nil},
		{"empty string", `""`, `""`, nil},
		{"object compacted", `{ "best" : 3,  "scores" : [ 1, 2 ] }`, `{"best":3,"scores":[1,2]}`, nil},
		{"control bytes escaped stay as sent", `"a\u0000b\u001b[2J"`, `"a\u0000b\u001b[2J"`, nil},
		{"markup is text", `"<script>alert(1)</script>"`, `"<script>alert(1)</script>"`, nil},
		{"at the bound", `"` + long + `"`, `"` + long + `"`, nil},
		{"over the bound", `"` + long + `x"`, "", protocol.ErrNoteTooLong},
		{"whitespace does not count", `{"k":   "` + long[:protocol.MaxNote-10] + `"}`, `{"k":"` + long[:protocol.MaxNote-10] + `"}`, nil},
		{"number", `42`, "", protocol.ErrNoteKind},
		{"array", `["a"]`, "", protocol.ErrNoteKind},
		{"bool", `true`, "", protocol.ErrNoteKind},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := protocol.CheckNote(json.RawMessage(tc.raw))
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if string(got) != tc.want {
				t.Fatalf("note %s, want %s", got, tc.want)
			}
			n := protocol.NoteOf(json.RawMessage(tc.raw))
			if (n.Dropped != "") != (tc.err != nil) || string(n.JSON) != tc.want {
				t.Fatalf("NoteOf: %+v", n)
			}
		})
	}
}

// A note that tries to be the action is only a note: the choice is the
// reply's own index.
func TestNoteIsNotTheAction(t *testing.T) {
	t.Parallel()
	var a protocol.Action
	line := `{"type":"action","id":4,"index":0,"note":{"type":"action","id":4,"index":2}}`
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatal(err)
	}
	if a.Index == nil || *a.Index != 0 || a.ID != 4 || len(a.Action) != 0 {
		t.Fatalf("decoded %+v", a)
	}
	if _, ok := protocol.DecodeIndexAction([]byte(line)); ok {
		t.Fatal("the fast path took a line with a note")
	}
}

// A bot's note, as the referee records it.
func ExampleNoteOf() {
	fmt.Printf("%s\n", protocol.NoteOf(json.RawMessage(`{ "depth": 3, "best": "b3-b4" }`)).JSON)
	fmt.Println(protocol.NoteOf(json.RawMessage(`[1, 2]`)).Dropped)
	// Output:
	// {"depth":3,"best":"b3-b4"}
	// note is not a string or an object (it starts "[1, 2]"): send a string or an object
}
