package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The JSON spellings of the figures JSON numbers cannot carry, as
// JSONFloat writes them: those of JavaScript, which Python's float(),
// JavaScript's Number(), jq's tonumber and Go's strconv.ParseFloat all
// read as the number they name.
const (
	JSONPosInf    = "Infinity"  // unbounded above: Elo when one side won every game, an open upper end
	JSONNegInf    = "-Infinity" // unbounded below
	JSONUndefined = "NaN"       // undefined: normalized Elo when every pair split, any figure of no games
)

// JSONFloat is a figure in the arena's JSON outputs (arena sprt --json,
// sprt.json, tournament standings): a JSON number when finite, else one of
// the strings JSONPosInf, JSONNegInf and JSONUndefined. A script that
// converts every such field with float() or Number() compares infinite
// bounds correctly, and tells an infinite figure from an undefined one,
// without a case for null.
type JSONFloat float64

// MarshalJSON implements json.Marshaler.
func (f JSONFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	switch {
	case math.IsNaN(x):
		return []byte(`"` + JSONUndefined + `"`), nil
	case math.IsInf(x, 1):
		return []byte(`"` + JSONPosInf + `"`), nil
	case math.IsInf(x, -1):
		return []byte(`"` + JSONNegInf + `"`), nil
	}
	return json.Marshal(x)
}

// UnmarshalJSON implements json.Unmarshaler: a number, one of the three
// strings, or null (what arenas before JSONFloat wrote for both infinite
// and undefined figures: read as undefined).
func (f *JSONFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = JSONFloat(math.NaN())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		switch s {
		case JSONUndefined:
			*f = JSONFloat(math.NaN())
		case JSONPosInf:
			*f = JSONFloat(math.Inf(1))
		case JSONNegInf:
			*f = JSONFloat(math.Inf(-1))
		default:
			return fmt.Errorf("figure %s: want a number, %q, %q or %q", strconv.Quote(s), JSONPosInf, JSONNegInf, JSONUndefined)
		}
		return nil
	}
	var x float64
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*f = JSONFloat(x)
	return nil
}
