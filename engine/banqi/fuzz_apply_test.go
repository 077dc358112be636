package banqi

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
		`{"type":"flip","at":"a1"}`,
		`{"type":"flip","at":"d8"}`,
		`{"type":"move","from":"a1","to":"a2"}`,
		`{"type":"capture","from":"b2","to":"b3"}`,
		`{"type":"stop"}`,
		`{"type":"flip","at":"z9"}`,
		`{"type":"flip"}`,
		`{}`,
		`null`,
		`[]`,
		`{"type":"move","from":"a1","to":"a1"}`,
		`{"type":"flip","at":"A1"}`,
	} {
		f.Add(uint64(i), uint8(i*9), []byte(s))
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps uint8, raw []byte) {
		enginetest.CheckApply(t, Game{}, 2, seed, steps, raw)
	})
}
