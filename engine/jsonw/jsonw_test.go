package jsonw

import (
	"encoding/json"
	"testing"
)

func TestMatchesEncodingJSON(t *testing.T) {
	strs := []string{"", "plain", "R7", "b3(K)", `quote"`, `back\slash`, "<tag>&", "tab\there", "ünïcode", "\x00\x1f", "\u2028"}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := String(nil, s); string(got) != string(want) {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
		want, _ = json.Marshal(&s)
		if got := StringPtr(nil, &s); string(got) != string(want) {
			t.Errorf("StringPtr(%q) = %s, want %s", s, got, want)
		}
	}
	for _, xs := range [][]string{nil, {}, strs} {
		want, _ := json.Marshal(xs)
		if got := Strings(nil, xs); string(got) != string(want) {
			t.Errorf("Strings(%q) = %s, want %s", xs, got, want)
		}
	}
	for _, xs := range [][]int{nil, {}, {0, -1, 42, 1 << 40}} {
		want, _ := json.Marshal(xs)
		if got := Ints(nil, xs); string(got) != string(want) {
			t.Errorf("Ints(%v) = %s, want %s", xs, got, want)
		}
	}
	floats := []float64{0, 1, -1, 0.5, 1.0 / 3, 2.5e-7, -1e-7, 1e-6, 123456789, 1e20, 1e21, -3.2e25, 5e-324}
	for _, f := range floats {
		want, _ := json.Marshal(f)
		if got := Float(nil, f); string(got) != string(want) {
			t.Errorf("Float(%v) = %s, want %s", f, got, want)
		}
	}
	for _, xs := range [][]float64{nil, {}, floats} {
		want, _ := json.Marshal(xs)
		if got := Floats(nil, xs); string(got) != string(want) {
			t.Errorf("Floats(%v) = %s, want %s", xs, got, want)
		}
	}
	for _, m := range []map[string]string{nil, {}, {"b": "2", "a": "<&>", "z\u2028": `"q"`}} {
		want, _ := json.Marshal(m)
		if got := StringMap(nil, m); string(got) != string(want) {
			t.Errorf("StringMap(%v) = %s, want %s", m, got, want)
		}
	}
	if got := StringPtr(nil, nil); string(got) != "null" {
		t.Errorf("StringPtr(nil) = %s", got)
	}
}

type num int

func (n num) AppendJSON(dst []byte) []byte { return append(dst, []byte(string(rune('0'+int(n))))...) }

func TestArrayAndValues(t *testing.T) {
	for _, xs := range [][]num{nil, {}, {1, 2, 3}} {
		want, _ := json.Marshal([]int(nil))
		if xs != nil {
			ints := make([]int, len(xs))
			for i, x := range xs {
				ints[i] = int(x)
			}
			want, _ = json.Marshal(ints)
		}
		if got := Values(nil, xs); string(got) != string(want) {
			t.Errorf("Values(%v) = %s, want %s", xs, got, want)
		}
	}
	if got := Array(nil, []string{"a", `"`}, String); string(got) != `["a","\""]` {
		t.Errorf("Array of strings = %s", got)
	}
}
