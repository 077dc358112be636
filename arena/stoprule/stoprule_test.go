package stoprule_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/stoprule"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want stoprule.Rule
	}{
		{"", stoprule.Rule{}},
		{"separated:3", stoprule.Rule{K: 3, Confidence: stoprule.DefaultConfidence}},
		{"separated:1@0.99", stoprule.Rule{K: 1, Confidence: 0.99}},
		{"separated:2@90%", stoprule.Rule{K: 2, Confidence: 0.9}},
		{"separated:12@0.999", stoprule.Rule{K: 12, Confidence: 0.999}},
	} {
		got, err := stoprule.Parse(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if back, err := stoprule.Parse(got.String()); err != nil || back != got {
			t.Errorf("Parse(%q.String() = %q) = %+v, %v", tc.in, got.String(), back, err)
		}
	}
	for _, in := range []string{"separated", "sep:3", "separated:", "separated:0", "separated:-1", "separated:x",
		"separated:3@", "separated:3@1", "separated:3@0.5", "separated:3@95", "separated:3@0.9x", " separated:3", "separated:3@100%"} {
		_, err := stoprule.Parse(in)
		var se *stoprule.SyntaxError
		if !errors.Is(err, stoprule.ErrSyntax) || !errors.As(err, &se) || se.Value != in {
			t.Errorf("Parse(%q): %v, want a *SyntaxError of it", in, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "separated:K@C") || !strings.Contains(msg, se.Reason) {
			t.Errorf("Parse(%q): %q names neither the forms nor the reason", in, msg)
		}
	}
}

// The cases are computed by hand: Phi(2) = 0.977250, so a difference of
// two standard deviations leaves a doubt of 0.022750.
func TestDecide(t *testing.T) {
	const z2 = 0.02275013194817921 // 1 - Phi(2)
	a, b, c := stoprule.Estimate{Name: "a", Mean: 10, SD: 3}, stoprule.Estimate{Name: "b", Mean: 0, SD: 4}, stoprule.Estimate{Name: "c", Mean: -10, SD: 3}
	for _, tc := range []struct {
		name    string
		rule    stoprule.Rule
		est     []stoprule.Estimate
		decided bool
		k       int
		order   string
		doubt   float64
		weakest stoprule.Comparison
	}{
		// a - b = 10, sd hypot(3, 4) = 5: z = 2.
		{"two apart by 2 sd", stoprule.Rule{K: 1, Confidence: 0.95}, []stoprule.Estimate{a, b}, true, 1, "a b", z2, stoprule.Comparison{"a", "b", 1 - z2}},
		{"two apart, asked more", stoprule.Rule{K: 1, Confidence: 0.98}, []stoprule.Estimate{a, b}, false, 1, "a b", z2, stoprule.Comparison{"a", "b", 1 - z2}},
		{"ranked by mean whatever the input order", stoprule.Rule{K: 1, Confidence: 0.95}, []stoprule.Estimate{b, a}, true, 1, "a b", z2, stoprule.Comparison{"a", "b", 1 - z2}},
		// a over c is 20 / hypot(3, 3) = 4.71 sd: a doubt of 1.2e-6 added.
		{"top 1 of 3", stoprule.Rule{K: 1, Confidence: 0.95}, []stoprule.Estimate{c, b, a}, true, 1, "a b c", z2 + 1.2142337364462463e-06, stoprule.Comparison{"a", "b", 1 - z2}},
		// a over b and b over c at 2 sd each: the doubts add to 0.0455.
		{"top 2 of 3", stoprule.Rule{K: 2, Confidence: 0.95}, []stoprule.Estimate{a, b, c}, true, 2, "a b c", 2 * z2, stoprule.Comparison{"a", "b", 1 - z2}},
		{"top 2 of 3, asked more than the sum", stoprule.Rule{K: 2, Confidence: 0.96}, []stoprule.Estimate{a, b, c}, false, 2, "a b c", 2 * z2, stoprule.Comparison{"a", "b", 1 - z2}},
		{"more asked than bots: the whole order", stoprule.Rule{K: 5, Confidence: 0.95}, []stoprule.Estimate{a, b, c}, true, 2, "a b c", 2 * z2, stoprule.Comparison{"a", "b", 1 - z2}},
		// x over y: 5 / sqrt 2 = 3.54 sd (doubt 2.03e-4); x over the
		// wide w: 6 / sqrt 101 = 0.597 sd (doubt 0.2752): w, below y by
		// mean, is the one that keeps x from being decided.
		{"a wide bot below the next", stoprule.Rule{K: 1, Confidence: 0.95},
			[]stoprule.Estimate{{"x", 10, 1}, {"y", 5, 1}, {"w", 4, 10}}, false, 1, "x y w", 0.00020347600872250293 + 0.2752462413749116, stoprule.Comparison{"x", "w", 1 - 0.2752462413749116}},
		{"equal means", stoprule.Rule{K: 1, Confidence: 0.95}, []stoprule.Estimate{{"p", 1, 1}, {"q", 1, 1}}, false, 1, "p q", 0.5, stoprule.Comparison{"p", "q", 0.5}},
		{"no uncertainty", stoprule.Rule{K: 1, Confidence: 0.99}, []stoprule.Estimate{{"p", 1, 0}, {"q", 2, 0}}, true, 1, "q p", 0, stoprule.Comparison{"q", "p", 1}},
		{"one bot", stoprule.Rule{K: 1, Confidence: 0.95}, []stoprule.Estimate{a}, false, 0, "a", 1, stoprule.Comparison{}},
		{"none", stoprule.Rule{K: 3, Confidence: 0.95}, nil, false, 0, "", 1, stoprule.Comparison{}},
		{"not a number is not above", stoprule.Rule{K: 1, Confidence: 0.95}, []stoprule.Estimate{{"p", 1, math.NaN()}, {"q", 0, 1}}, false, 1, "p q", 1, stoprule.Comparison{"p", "q", 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.rule.Decide(tc.est)
			if v.Decided != tc.decided || v.K != tc.k || strings.Join(v.Order, " ") != tc.order {
				t.Errorf("decided %v, K %d, order %v; want %v, %d, %s", v.Decided, v.K, v.Order, tc.decided, tc.k, tc.order)
			}
			if math.Abs(v.Doubt-tc.doubt) > 1e-12 {
				t.Errorf("doubt %.15g, want %.15g", v.Doubt, tc.doubt)
			}
			if v.Weakest.Above != tc.weakest.Above || v.Weakest.Below != tc.weakest.Below || math.Abs(v.Weakest.P-tc.weakest.P) > 1e-12 {
				t.Errorf("weakest %+v, want %+v", v.Weakest, tc.weakest)
			}
			if !strings.Contains(v.String(), "top") {
				t.Errorf("String() = %q", v.String())
			}
		})
	}
}

// DecideWith takes the sd of each difference from its caller: with a
// negative covariance (a fit's centred ratings) it is wider than
// Decide's, and less is decided.
func TestDecideWith(t *testing.T) {
	est := []stoprule.Estimate{{"a", 10, 3}, {"b", 0, 4}}
	r := stoprule.Rule{K: 1, Confidence: 0.95}
	var asked [][2]int
	v := r.DecideWith(est, func(i, j int) float64 { asked = append(asked, [2]int{i, j}); return 10 })
	if v.Decided || !slices.Equal(asked, [][2]int{{0, 1}}) {
		t.Errorf("decided %v, asked %v; want undecided (z = 1), asked for 0 - 1", v.Decided, asked)
	}
	if want := 0.15865525393145707; math.Abs(v.Doubt-want) > 1e-12 { // 1 - Phi(1)
		t.Errorf("doubt %v, want %v", v.Doubt, want)
	}
}

// TestDecideRanked: ranked as given (the standings' order), a top whose
// order disagrees with the means is not decided; one that agrees is, as
// Decide decides it.
func TestDecideRanked(t *testing.T) {
	rule := stoprule.Rule{K: 1, Confidence: 0.95}
	agree := []stoprule.Estimate{{"a", 40, 1}, {"b", 20, 1}}
	disagree := []stoprule.Estimate{{"b", 20, 0.1}, {"a", 40, 5}} // b above a by mu - 3 sigma, a above b by mean
	if v := rule.DecideRanked(agree); !v.Decided || v.Order[0] != "a" {
		t.Errorf("agreeing order: %+v, want decided with a first", v)
	}
	if v := rule.DecideRanked(disagree); v.Decided || v.Order[0] != "b" {
		t.Errorf("disagreeing order: %+v, want undecided with b first (as given)", v)
	}
	if v := rule.Decide(disagree); !v.Decided || v.Order[0] != "a" {
		t.Errorf("Decide of the same: %+v, want decided by mean, a first", v)
	}
}
