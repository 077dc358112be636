package engine

import (
	"reflect"
	"strings"
	"testing"
)

func TestRanksFromScores(t *testing.T) {
	cases := []struct {
		scores []float64
		want   []int
	}{
		{[]float64{1, 0}, []int{1, 2}},
		{[]float64{0.5, 0.5}, []int{1, 1}},
		{[]float64{10, 30, 30, 5}, []int{3, 1, 1, 4}},
		{[]float64{}, []int{}},
	}
	for _, tc := range cases {
		if got := RanksFromScores(tc.scores); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("RanksFromScores(%v) = %v, want %v", tc.scores, got, tc.want)
		}
	}
}

func TestWithForfeits(t *testing.T) {
	cases := []struct {
		name      string
		ranks     []int
		forfeited []bool
		want      []int
	}{
		{"none", []int{2, 1, 3}, []bool{false, false, false}, []int{2, 1, 3}},
		{"the winner forfeited", []int{1, 2, 3}, []bool{true, false, false}, []int{3, 1, 2}},
		{"two forfeit, tied last", []int{1, 2, 3, 4}, []bool{true, false, true, false}, []int{3, 1, 3, 2}},
		{"tie kept among the rest", []int{1, 1, 3}, []bool{false, false, true}, []int{1, 1, 3}},
	}
	for _, tc := range cases {
		o := Outcome{Ranks: tc.ranks, Scores: make([]float64, len(tc.ranks)), Reason: "r"}
		got := o.WithForfeits(tc.forfeited)
		if !reflect.DeepEqual(got.Ranks, tc.want) || got.Reason != "r" {
			t.Errorf("%s: ranks %v, want %v", tc.name, got.Ranks, tc.want)
		}
	}
}

func TestForfeitOutcome(t *testing.T) {
	o := ForfeitOutcome([]bool{false, true}, "b forfeited")
	if !reflect.DeepEqual(o.Ranks, []int{1, 2}) || !reflect.DeepEqual(o.Scores, []float64{1, 0}) || o.Reason != "b forfeited" {
		t.Fatalf("2 seats: %+v", o)
	}
	o = ForfeitOutcome([]bool{true, false, true}, "")
	if !reflect.DeepEqual(o.Ranks, []int{2, 1, 2}) {
		t.Fatalf("3 seats: %+v", o)
	}
}

func TestResolve(t *testing.T) {
	specs := []OptionSpec{
		{Name: "ranks", Kind: "enum", Choices: []string{"taiwan", "hk"}, Default: "taiwan"},
		{Name: "chain", Kind: "bool", Default: "false"},
		{Name: "limit", Kind: "int", Min: 1, Max: 100, Default: "50"},
	}
	cases := []struct {
		name    string
		given   map[string]string
		want    Options
		wantErr string
	}{
		{"defaults", nil, Options{"ranks": "taiwan", "chain": "false", "limit": "50"}, ""},
		{"canonical values", map[string]string{"chain": "1", "limit": "007", "ranks": "hk"}, Options{"ranks": "hk", "chain": "true", "limit": "7"}, ""},
		{"unknown option names the known ones", map[string]string{"colour": "x"}, nil, `no option "colour" (options: ranks, chain, limit)`},
		{"bad enum", map[string]string{"ranks": "fr"}, nil, "ranks=\"fr\": want one of taiwan|hk"},
		{"bad bool", map[string]string{"chain": "maybe"}, nil, "want true or false"},
		{"int out of range", map[string]string{"limit": "0"}, nil, "want an integer from 1 to 100"},
		{"not an int", map[string]string{"limit": "ten"}, nil, "want an integer"},
	}
	for _, tc := range cases {
		got, err := Resolve("g", specs, tc.given)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.name, got, err, tc.want)
		}
		if got.Int("limit") == 0 {
			t.Errorf("%s: Int(limit) = 0", tc.name)
		}
	}
}

func TestResolvePresets(t *testing.T) {
	specs := []OptionSpec{
		{Name: "rules", Kind: "enum", Choices: []string{"official", "bounce"}, Default: "official",
			Sets: map[string]map[string]string{"bounce": {"start": "number", "call": "bounce"}}},
		{Name: "start", Kind: "enum", Choices: []string{"official", "number"}, Default: "official"},
		{Name: "call", Kind: "enum", Choices: []string{"uno", "bounce"}, Default: "uno"},
	}
	cases := []struct {
		given map[string]string
		want  Options
	}{
		{nil, Options{"rules": "official", "start": "official", "call": "uno"}},
		{map[string]string{"rules": "bounce"}, Options{"rules": "bounce", "start": "number", "call": "bounce"}},
		{map[string]string{"rules": "bounce", "start": "official"}, Options{"rules": "bounce", "start": "official", "call": "bounce"}},
	}
	for _, tc := range cases {
		got, err := Resolve("g", specs, tc.given)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Resolve(%v) = %v, %v; want %v", tc.given, got, err, tc.want)
		}
	}
	if _, err := Resolve("g", specs, map[string]string{"rules": "house"}); err == nil || !strings.Contains(err.Error(), "rules") {
		t.Errorf("a bad preset value must be refused by name, got %v", err)
	}
}
