package stats

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// JSONFloat writes what a JSON number cannot carry as a string that
// float parsers read as the number it names (strconv.ParseFloat here, as
// Python's float() and JavaScript's Number()), tells infinite from
// undefined, and reads back what it wrote, and null as undefined.
func TestJSONFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{math.Inf(1), `"Infinity"`},
		{math.Inf(-1), `"-Infinity"`},
		{math.NaN(), `"NaN"`},
		{277.4, `277.4`},
		{0.99951171875, `0.99951171875`},
		{0, `0`},
	} {
		b, err := json.Marshal(struct{ F JSONFloat }{JSONFloat(tc.f)})
		if err != nil || string(b) != `{"F":`+tc.want+`}` {
			t.Errorf("%v: %s (%v), want %s", tc.f, b, err, tc.want)
			continue
		}
		var back struct{ F JSONFloat }
		if err := json.Unmarshal(b, &back); err != nil || !same(float64(back.F), tc.f) {
			t.Errorf("%s read back as %v (%v), want %v", b, back.F, err, tc.f)
		}
		if s, err := strconv.Unquote(tc.want); err == nil {
			if parsed, err := strconv.ParseFloat(s, 64); err != nil || !same(parsed, tc.f) {
				t.Errorf("%s parses as %v (%v), want %v", tc.want, parsed, err, tc.f)
			}
		}
	}
	var f JSONFloat
	if err := json.Unmarshal([]byte(`null`), &f); err != nil || !math.IsNaN(float64(f)) {
		t.Errorf("null: %v (%v), want NaN", f, err)
	}
	if err := json.Unmarshal([]byte(`"lots"`), &f); err == nil {
		t.Error(`"lots" was read as a figure`)
	}
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
