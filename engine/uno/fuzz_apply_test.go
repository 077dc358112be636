package uno

import (
	"testing"

	"github.com/arena-dev/arena/engine/enginetest"
)

// FuzzApply parses an action from arbitrary bytes and applies it to a
// state reached by random play (up to 255 random actions from the fuzzed
// seed): ParseAction never panics and what it accepts round-trips through
// its canonical JSON; an action the legal list holds (by canonical JSON,
// as the referee compares) applies; any other is refused and leaves every
// view, the seat to move and the legal list byte-for-byte unchanged.
func FuzzApply(f *testing.F) {
	for i, s := range []string{
		`{"type":"play","card":"R7"}`,
		`{"type":"play","card":"WD4","colour":"blue","uno":true}`,
		`{"type":"play","card":"G7","target":2}`,
		`{"type":"jump","card":"YS"}`,
		`{"type":"draw"}`,
		`{"type":"keep"}`,
		`{"type":"pass"}`,
		`{"type":"challenge"}`,
		`{"type":"accept"}`,
		`{"type":"catch"}`,
		`{"type":"colour","colour":"red"}`,
		`{"type":"play","card":"W","colour":"green"}`,
		`{"type":"play","card":"R7","target":-1}`,
		`{}`,
	} {
		f.Add(uint64(i), uint8(i*9), []byte(s))
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps uint8, raw []byte) {
		enginetest.CheckApply(t, Uno, 2+int(seed%9), seed, steps, raw)
	})
}
