package tournament

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
)

// records2 is n games of a against b in 2 seats with ranks for a, b.
func records2(a, b string, n int, ranks ...int) []ledger.Record {
	var out []ledger.Record
	for i := range n {
		out = append(out, ledger.Record{GameID: fmt.Sprintf("%s-%s-%d", a, b, i), Bots: []string{a, b}, Ranks: ranks})
	}
	return out
}

// The standings' JSON: an Elo the games do not bound is "Infinity" (it was
// +/-9999), a pair's LOS is the exact one of its decisive games, and a
// multi-seat score is the exact sum: 21, not 20.999999999999993.
func TestStandingsJSONFigures(t *testing.T) {
	t.Parallel()
	var recs []ledger.Record
	recs = append(recs, records2("a", "b", 10, 1, 2)...) // a 10-0 b
	recs = append(recs, records2("a", "c", 1, 1, 2)...)  // a 1-9 c
	recs = append(recs, records2("c", "a", 9, 1, 2)...)  // (c first)
	recs = append(recs, records2("b", "c", 4, 1, 1)...)  // draws only
	st, err := Compute("x", "banqi", "round-robin", 2, -1, []string{"a", "b", "c"}, recs)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	// The fields as a script reads them.
	var got struct {
		Pairs []map[string]any `json:"pairs"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]func(elo, low, high, los any) bool{
		"a-b": func(elo, low, high, los any) bool {
			l, ok := low.(float64)
			return elo == "Infinity" && ok && l > 0 && high == "Infinity" && los == 2047.0/2048
		},
		"a-c": func(elo, low, high, los any) bool {
			e, ok := elo.(float64)
			return ok && e < 0 && los == 12.0/2048
		},
		"b-c": func(elo, low, high, los any) bool { return elo == 0.0 && los == 0.5 },
	}
	if len(got.Pairs) != len(want) {
		t.Fatalf("pairs %v, want %d", got.Pairs, len(want))
	}
	for _, p := range got.Pairs {
		if check := want[fmt.Sprint(p["a"], "-", p["b"])]; check == nil || !check(p["elo"], p["elo_low"], p["elo_high"], p["los"]) {
			t.Errorf("pair %v", p)
		}
	}
	if strings.Contains(string(data), "9999") {
		t.Errorf("a clamped Elo in %s", data)
	}

	// 4 seats: x third of four in 63 games, ahead of w alone: a third of a
	// point each, 21 in all.
	var four []ledger.Record
	for i := range 63 {
		four = append(four, ledger.Record{GameID: fmt.Sprint(i), Bots: []string{"x", "y", "z", "w"}, Ranks: []int{3, 1, 2, 4}})
	}
	st, err = Compute("x", "uno", "round-robin", 4, -1, []string{"x", "y", "z", "w"}, four)
	if err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(st)
	for _, want := range []string{`"name":"x","games":63,"wins":0,"draws":0,"losses":63,"score":21,"score_pct":33.333333333333336,`,
		`"name":"z","games":63,"wins":0,"draws":0,"losses":63,"score":42,"score_pct":66.66666666666667,`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("want %s in %s", want, data)
		}
	}
}
