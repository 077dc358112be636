package uno

import (
	"bytes"
	"testing"
)

// ParseAction never panics, and what it accepts encodes canonically and
// parses back to the same action.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		`{"type":"play","card":"R7"}`,
		`{"type":"play","card":"WD4","colour":"blue","uno":true}`,
		`{"type":"play","card":"G7","target":2}`,
		`{"type":"jump","card":"YS"}`,
		`{"type":"draw"}`, `{"type":"keep"}`, `{"type":"pass"}`, `{"type":"challenge"}`,
		`{"type":"accept"}`, `{"type":"catch"}`, `{"type":"colour","colour":"red"}`,
		`{"type":"play","card":"W"}`, `{"type":"play","card":"R7","colour":"red"}`,
		`{"type":"play","card":"X9"}`, `{"type":"nope"}`, `{}`, `[]`, `null`, `{"type":"play","card":"R7","target":-1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := ParseAction(raw)
		if err != nil {
			return
		}
		enc := a.AppendJSON(nil)
		b, err := ParseAction(enc)
		if err != nil {
			t.Fatalf("%s -> %s does not parse: %v", raw, enc, err)
		}
		if b != a || !bytes.Equal(b.AppendJSON(nil), enc) {
			t.Fatalf("%s -> %v -> %s -> %v", raw, a, enc, b)
		}
	})
}
