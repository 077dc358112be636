package sdk_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// A Player's note goes with its move, in a reply the referee reads as it
// was meant (judged by protocol's own rules); a note that cannot be sent
// is left out with a line on the log, the move sent all the same; a turn
// without a note is answered as before, byte for byte.
func TestNote(t *testing.T) {
	t.Parallel()
	type thought struct {
		Best  string  `json:"best"`
		Score float64 `json:"score"`
	}
	for _, tc := range []struct {
		name string
		note func(c *sdk.Context)
		want string // the reply's note, "" for none
		log  string // in the log, "" for nothing
	}{
		{"none", func(*sdk.Context) {}, "", ""},
		{"string", func(c *sdk.Context) { c.Note("3 candidates, best +0.4") }, `"3 candidates, best +0.4"`, ""},
		{"struct", func(c *sdk.Context) { c.Note(thought{"b8", 0.5}) }, `{"best":"b8","score":0.5}`, ""},
		{"the last counts", func(c *sdk.Context) { c.Note("first"); c.Note("second") }, `"second"`, ""},
		{"markup stays text", func(c *sdk.Context) { c.Note("<b>") }, `"\u003cb\u003e"`, ""},
		{"too long", func(c *sdk.Context) { c.Note(strings.Repeat("x", protocol.MaxNote)) }, "", "note not sent: note is over the bound"},
		{"a number", func(c *sdk.Context) { c.Note(42) }, "", "note not sent: note is not a string or an object"},
		{"does not encode", func(c *sdk.Context) { c.Note(map[string]any{"f": func() {}}) }, "", "note not sent: json: unsupported type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			bot := sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, c *sdk.Context) (int, error) {
				tc.note(c)
				return 1, nil
			})
			s := sdk.NewSession(bot, sdk.Options{Log: &log})
			if _, _, err := s.Handle([]byte(hello1), time.Now()); err != nil {
				t.Fatal(err)
			}
			reply, _, err := s.Handle([]byte(turn1), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			line := bytes.TrimSuffix(reply, []byte("\n"))
			var a protocol.Action
			if err := json.Unmarshal(line, &a); err != nil || a.Index == nil || *a.Index != 1 || a.ID != 1 {
				t.Fatalf("reply %s: %+v, %v", reply, a, err)
			}
			if string(a.Note) != tc.want {
				t.Errorf("note %s, want %s", a.Note, tc.want)
			}
			if n := protocol.NoteOf(a.Note); n.Dropped != "" {
				t.Errorf("the referee would drop the note: %s", n.Dropped)
			}
			if tc.want == "" && string(line) != `{"type":"action","id":1,"index":1}` {
				t.Errorf("a reply without a note: %s", line)
			}
			if !strings.Contains(log.String(), tc.log) || (tc.log == "") != (log.Len() == 0) {
				t.Errorf("log %q, want %q", log.String(), tc.log)
			}
			// The next turn starts with no note.
			bot.Move = func(*json.RawMessage, []json.RawMessage, *sdk.Context) (int, error) { return 0, nil }
			reply, _, _ = s.Handle([]byte(strings.Replace(turn1, `"id":1`, `"id":2`, 1)), time.Now())
			if string(reply) != "{\"type\":\"action\",\"id\":2,\"index\":0}\n" {
				t.Errorf("a note carried over to the next turn: %s", reply)
			}
		})
	}
}

// A bot that says what it thought with each move (Context.Note): the
// replay shows the note beside the move, and no other bot is sent it.
func ExampleContext_Note() {
	bot := sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, c *sdk.Context) (int, error) {
		c.Note(map[string]any{"considered": len(legal), "chose": 0})
		return 0, nil
	})
	referee := strings.NewReader(`{"type":"hello","protocol":1,"game":"banqi","seat":0,"seats":2,"seed":7}
{"type":"turn","id":1,"view":{},"legal":[{"type":"flip","square":"a8"},{"type":"flip","square":"b8"}],"clock":{"move_ms":1000}}
{"type":"bye"}
`)
	if err := sdk.Run(referee, os.Stdout, bot, sdk.Options{Name: "thinker"}); err != nil {
		panic(err)
	}
	// Output:
	// {"type":"ready","name":"thinker"}
	// {"type":"action","id":1,"index":0,"note":{"chose":0,"considered":2}}
}
