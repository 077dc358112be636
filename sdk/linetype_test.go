package sdk

import "testing"

// lineType reads the type where the referee writes it, and decodes in
// full any other line.
func TestLineType(t *testing.T) {
	for _, tc := range []struct {
		line, want string
		ok         bool
	}{
		{`{"type":"turn","id":1}`, "turn", true},
		{`{"id":1,"type":"end"}`, "end", true},
		{`{ "type" : "bye" }`, "bye", true},
		{`{"type":"a\"b"}`, `a"b`, true},
		{`{"type":""}`, "", false},
		{`not json`, "", false},
	} {
		got, err := lineType([]byte(tc.line))
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%s: %q, %v; want %q (ok %v)", tc.line, got, err, tc.want, tc.ok)
		}
	}
}
