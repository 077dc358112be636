package sdk

import (
	"encoding/json"
	"reflect"
	"testing"

	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// decodeTurn reads every real turn line of every game as encoding/json
// does, with and without a bank, and declines other forms.
func TestDecodeTurnReadsTheRefereesTurns(t *testing.T) {
	var lines [][]byte
	for _, g := range []struct {
		name  string
		seats int
	}{{"banqi", 2}, {"uno", 2}, {"uno", 4}, {"bounce", 3}, {"boon", 3}, {"boon", 5}} {
		lines = append(lines, testkit.Turns(t, g.name, g.seats, nil, 0, 300)...)
	}
	lines = append(lines,
		[]byte(`{"type":"turn","id":7,"view":{"s":"a\"]}"},"legal":[{"x":[1,2]},"b",-1.5e3,true,null],"clock":{"move_ms":100,"bank_ms":2500}}`),
		[]byte(`{"type":"turn","id":8,"view":null,"legal":[],"clock":{"move_ms":0}}`),
	)
	for _, line := range lines {
		var want, got protocol.Turn
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if !decodeTurn(line, &got) {
			t.Fatalf("declined a referee's turn: %s", line)
		}
		if !reflect.DeepEqual(normal(got), normal(want)) {
			t.Fatalf("%s:\n got %+v\nwant %+v", line, got, want)
		}
	}
	for _, line := range []string{
		`{"id":1,"type":"turn","view":{},"legal":[1],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[1],"clock":{"move_ms":1},"extra":1}`,
		`{"type":"turn","id":01,"view":{},"legal":[1],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{"a":"b},"legal":[1],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[1 2],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[nope],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":-inf,"legal":[1],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[0x1p3],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[01],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[1.],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[truex],"clock":{"move_ms":1}}`,
		`{"type":"turn","id":1,"view":{},"legal":[1],"clock":{"move_ms":1}`,
	} {
		var got protocol.Turn
		if decodeTurn([]byte(line), &got) {
			t.Errorf("took a line not in the referee's form: %s", line)
		}
	}
}

// normal makes an empty legal list compare equal to a nil one.
func normal(t protocol.Turn) protocol.Turn {
	if len(t.Legal) == 0 {
		t.Legal = nil
	}
	return t
}

// FuzzDecodeTurn: whatever the line, a turn decodeTurn takes is the turn
// encoding/json reads, when that reads it. (decodeTurn checks the form
// and the numbers, not every detail of JSON inside the view, such as a
// control character in a string: the referee's lines are trusted.)
func FuzzDecodeTurn(f *testing.F) {
	for _, line := range testkit.Turns(f, "uno", 2, nil, 0, 20) {
		f.Add(line)
	}
	f.Add([]byte(`{"type":"turn","id":7,"view":{"s":"a\"]}"},"legal":[{"x":[1,2]},"b",-1.5e3,true,null],"clock":{"move_ms":100,"bank_ms":2500}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast, slow protocol.Turn
		if !decodeTurn(line, &fast) {
			return
		}
		if err := json.Unmarshal(line, &slow); err != nil {
			return
		}
		if !reflect.DeepEqual(normal(fast), normal(slow)) {
			t.Fatalf("%q:\nfast %+v\nslow %+v", line, fast, slow)
		}
	})
}
