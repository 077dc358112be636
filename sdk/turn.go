package sdk

import (
	"bytes"
	"encoding/json"

	"github.com/arena-dev/arena/protocol"
)

// decodeTurn reads a turn line in the form the referee writes it,
// {"type":"turn","id":N,"view":V,"legal":[A,...],"clock":{"move_ms":M[,"bank_ms":B]}},
// into t in one pass: View and Legal are slices of one copy of the line,
// so nothing is decoded that the bot does not decode itself. It reports
// false for any other form (Run then decodes the line with encoding/json);
// it checks the line's structure, not that the view is valid JSON: the
// line is the referee's.
func decodeTurn(line []byte, t *protocol.Turn) bool {
	const head = `{"type":"turn","id":`
	rest, ok := bytes.CutPrefix(line, []byte(head))
	if !ok {
		return false
	}
	id, rest, ok := protocol.CutInt(rest)
	if !ok {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"view":`)); !ok {
		return false
	}
	// The copy the Turn points into: the line reader reuses its buffer.
	buf := append([]byte(nil), rest...)
	end, ok := skipValue(buf, 0)
	if !ok {
		return false
	}
	view := buf[:end:end]
	i := end
	if !bytes.HasPrefix(buf[i:], []byte(`,"legal":[`)) {
		return false
	}
	i += len(`,"legal":[`)
	// The entries' bounds first, in an array on the stack, so that Legal
	// is one allocation of its final size rather than a slice grown.
	var boundsArray [2 * 32]int
	bounds := boundsArray[:0]
	for i < len(buf) && buf[i] != ']' {
		if len(bounds) > 0 {
			if buf[i] != ',' {
				return false
			}
			i++
		}
		end, ok := skipValue(buf, i)
		if !ok {
			return false
		}
		bounds = append(bounds, i, end)
		i = end
	}
	var legal []json.RawMessage
	if len(bounds) > 0 {
		legal = make([]json.RawMessage, len(bounds)/2)
		for k := range legal {
			start, end := bounds[2*k], bounds[2*k+1]
			legal[k] = buf[start:end:end]
		}
	}
	if i >= len(buf) {
		return false
	}
	rest, ok = bytes.CutPrefix(buf[i+1:], []byte(`,"clock":{"move_ms":`))
	if !ok {
		return false
	}
	move, rest, ok := protocol.CutInt(rest)
	if !ok {
		return false
	}
	var bank int64
	if after, found := bytes.CutPrefix(rest, []byte(`,"bank_ms":`)); found {
		if bank, rest, ok = protocol.CutInt(after); !ok {
			return false
		}
	}
	if !bytes.Equal(rest, []byte(`}}`)) {
		return false
	}
	*t = protocol.Turn{Type: protocol.TypeTurn, ID: id, View: view, Legal: legal, Clock: protocol.TurnClock{MoveMs: move, BankMs: bank}}
	return true
}

// skipValue returns the end of the JSON value that starts at b[i]: a
// string, an object or array (strings and nesting followed), or a number,
// true, false or null. ok is false if b ends first or b[i] starts none.
func skipValue(b []byte, i int) (end int, ok bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		depth := 0
		for i < len(b) {
			c := b[i]
			if !structural[c] {
				i++
				continue
			}
			switch c {
			case '"':
				end, ok := skipString(b, i)
				if !ok {
					return 0, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			default: // '}', ']'
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	case c == 't' || c == 'f' || c == 'n':
		for _, word := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(b[i:], []byte(word)) {
				return i + len(word), true
			}
		}
		return 0, false
	case c == '-' || c >= '0' && c <= '9':
		return skipNumber(b, i)
	}
	return 0, false
}

// skipNumber returns the end of the JSON number at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func skipNumber(b []byte, i int) (int, bool) {
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	return i, true
}

// skipString returns the end of the string that starts at b[i] (a quote).
func skipString(b []byte, i int) (int, bool) {
	for i++; i < len(b); i++ {
		if c := b[i]; inString[c] {
			continue
		} else if c == '"' {
			return i + 1, true
		}
		i++ // a backslash: skip what it escapes
	}
	return 0, false
}

// structural marks the bytes that skipValue follows inside an object or
// array (a string's quote, nesting), inString those that neither end nor
// escape within a string: one table lookup per byte rather than a
// comparison with each (a turn's view is most of its line, and scanning
// it most of the SDK's work on a turn). Eight bytes at a time (SWAR) is
// slower on the views of the games: their strings are short.
var structural, inString = func() (s, in [256]bool) {
	for _, c := range []byte(`"{}[]`) {
		s[c] = true
	}
	for c := range in {
		in[c] = c != '"' && c != '\\'
	}
	return s, in
}()
