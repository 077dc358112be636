// Package stoprule is the stop rule on rating uncertainty that a ladder's
// final and a round-robin tournament play until: "separated:K@C", the top
// K decided at confidence C. It parses the rule as people write it
// (Parse: a flag's or a file's value) and decides it from skill
// estimates with their uncertainty (Rule.Decide), whoever rates: the
// ladder's Weng-Lin ratings (mu, sigma), a tournament's Bradley-Terry
// standings (with the covariance of their fit) or its Plackett-Luce
// ones. The budget (games, cycles) that ends a run the rule does not is
// the caller's.
//
// # The decision
//
// The estimates are ranked by mean, best first (equal means keep the
// order given). The top K are separated when, in the normal
// approximation of the ratings' uncertainty,
//
//	Doubt = sum_{i=1}^{K-1} (1 - P(s_i > s_{i+1})) + sum_{j>K} (1 - P(s_K > s_j))  <=  1 - C
//
// with P(s_a > s_b) = Phi((m_a - m_b) / sd(a - b)), sd(a - b) =
// sqrt(sd_a^2 + sd_b^2) for independent estimates (Weng-Lin skills) or
// the fit's own for correlated ones (Bradley-Terry: Rule.DecideWith).
// That is: the top K are in a decided order, and the K-th is above every
// bot below it. If every one of those comparisons holds, the top K
// are the top K in that order; Doubt bounds the probability that one
// fails (the union bound, which holds however the comparisons depend on
// each other), so C is the confidence in the whole top K, not in each
// comparison.
//
// Why a correction for the several comparisons, and this one: with C
// asked of each comparison alone, a top 5 at 95 % could be wrong one
// time in five. Bonferroni's even split (each at 1 - (1-C)/n) would ask
// as much of a comparison with the last bot as of the close one at the
// top; summing the actual doubts costs nothing for the pairs far apart
// (their doubt is about 0) and so is as strict as the close pairs
// make it. The K-th is compared with every bot below, not only the
// (K+1)-th: a bot of few games, its mean low and its sigma wide, may be
// more likely above the K-th than the (K+1)-th is.
//
// Why no correction for looking again after every game: both ratings
// are posteriors (Weng-Lin's by construction, Bradley-Terry's a maximum
// a posteriori fit with its Laplace approximation), and a posterior
// probability means the same whenever it is read, however the decision
// to stop was made, as far as the model holds. The models are
// approximations (the normal shape above all, for few games), which a
// higher C covers.
//
// With fewer than K+1 bots the rule asks for the whole order (K is
// taken as one less than the bots: separating the top n-1 orders all
// n). With fewer than two nothing can be compared, and nothing is
// decided: the budget ends such a run.
package stoprule

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// DefaultConfidence is the confidence of a rule that states none
// ("separated:3" is "separated:3@0.95").
const DefaultConfidence = 0.95

// Kind is the one kind of rule there is (the word before the colon).
const Kind = "separated"

// Rule is "separated:K@Confidence": play until the top K are decided.
// The zero Rule is no rule.
type Rule struct {
	K          int
	Confidence float64
}

// Forms are the accepted forms, for messages and help.
var Forms = fmt.Sprintf("%s:K or %s:K@C (K a whole number from 1; C a confidence above 0.5 and below 1, as 0.95 or 95%%; without it %v)",
	Kind, Kind, DefaultConfidence)

// ErrSyntax is wrapped by every error of Parse.
var ErrSyntax = errors.New("not a stop rule")

// SyntaxError is a value Parse cannot read: the value, and what is wrong.
type SyntaxError struct {
	Value  string
	Reason string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%q is %v: %s; want %s", e.Value, ErrSyntax, e.Reason, Forms)
}

func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Parse reads a rule as people write it: "separated:K" or
// "separated:K@C" (Forms). "" is the zero Rule: none.
func Parse(s string) (Rule, error) {
	if s == "" {
		return Rule{}, nil
	}
	bad := func(reason string) (Rule, error) { return Rule{}, &SyntaxError{Value: s, Reason: reason} }
	kind, rest, ok := strings.Cut(s, ":")
	if !ok || kind != Kind {
		return bad("it does not start with " + Kind + ":")
	}
	k, conf, hasConf := strings.Cut(rest, "@")
	n, err := strconv.Atoi(k)
	if err != nil || n < 1 {
		return bad(fmt.Sprintf("K %q is not a whole number from 1", k))
	}
	r := Rule{K: n, Confidence: DefaultConfidence}
	if !hasConf {
		return r, nil
	}
	pct := strings.HasSuffix(conf, "%")
	c, err := strconv.ParseFloat(strings.TrimSuffix(conf, "%"), 64)
	if pct {
		c /= 100
	}
	if err != nil || !(c > 0.5 && c < 1) {
		return bad(fmt.Sprintf("confidence %q is not above 0.5 and below 1", conf))
	}
	r.Confidence = c
	return r, nil
}

// IsZero says r is no rule.
func (r Rule) IsZero() bool { return r.K == 0 }

// String is r as Parse reads it: "separated:3@0.95".
func (r Rule) String() string {
	if r.IsZero() {
		return ""
	}
	return fmt.Sprintf("%s:%d@%s", Kind, r.K, strconv.FormatFloat(r.Confidence, 'f', -1, 64))
}

// Estimate is one bot's skill as its rating estimates it: a mean and
// the standard deviation of its uncertainty, on any scale (Elo, mu) as
// long as every estimate of a decision shares it.
type Estimate struct {
	Name     string
	Mean, SD float64
}

// Comparison is one of a decision's: P is the probability that Above's
// skill is above Below's.
type Comparison struct {
	Above, Below string
	P            float64
}

// Verdict is a rule decided on estimates.
type Verdict struct {
	Rule Rule
	// Decided says the top K are separated: Doubt <= 1 - Confidence.
	Decided bool
	// K is the top decided on: the rule's, or one less than the bots
	// when they are fewer than K+1 (0 with fewer than two).
	K int
	// Order is the bots ranked by mean, best first (DecideRanked: as
	// given).
	Order []string
	// Doubt bounds the probability that the top K are not the top K in
	// that order (the package doc's sum; 1 with nothing to compare).
	Doubt float64
	// Weakest is the comparison with the most doubt (none with fewer
	// than two bots).
	Weakest Comparison
}

// Decide decides r on independent estimates (a Gaussian skill model's
// such as Weng-Lin's): the sd of a difference is sqrt(sd_a^2 + sd_b^2).
func (r Rule) Decide(est []Estimate) Verdict {
	return r.DecideWith(est, func(a, b int) float64 { return math.Hypot(est[a].SD, est[b].SD) })
}

// DecideWith decides r with diffSD(a, b), the standard deviation of
// est[a].Mean - est[b].Mean (indices into est), for estimates that are
// correlated (a Bradley-Terry fit: stats.BTFit.DiffSD).
func (r Rule) DecideWith(est []Estimate, diffSD func(a, b int) float64) Verdict {
	order := make([]int, len(est))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return byMean(est[a].Mean, est[b].Mean) })
	return r.decide(est, order, diffSD)
}

// DecideRanked decides r, as Decide, on estimates ranked as the
// standings rank them, best first (a ladder ranks by the conservative
// mu - 3 sigma): the comparisons follow that order, so a decided top K
// is the standings' own. Where the standings put a bot above another of
// a higher mean, that comparison's doubt is over one half: the rule
// waits until games make the two orders agree.
func (r Rule) DecideRanked(est []Estimate) Verdict {
	order := make([]int, len(est))
	for i := range order {
		order[i] = i
	}
	return r.decide(est, order, func(a, b int) float64 { return math.Hypot(est[a].SD, est[b].SD) })
}

// decide decides r on est ranked by order (indices into est).
func (r Rule) decide(est []Estimate, order []int, diffSD func(a, b int) float64) Verdict {
	v := Verdict{Rule: r, K: min(r.K, len(est)-1), Doubt: 1, Order: make([]string, len(est))}
	for i, o := range order {
		v.Order[i] = est[o].Name
	}
	if v.K < 1 || r.IsZero() {
		v.K = max(v.K, 0)
		return v
	}
	v.Doubt = 0
	most := -1.0
	compare := func(a, b int) {
		p := above(est[a].Mean-est[b].Mean, diffSD(a, b))
		v.Doubt += 1 - p
		if 1-p > most {
			most, v.Weakest = 1-p, Comparison{Above: est[a].Name, Below: est[b].Name, P: p}
		}
	}
	for i := 0; i+1 < v.K; i++ {
		compare(order[i], order[i+1])
	}
	for j := v.K; j < len(order); j++ {
		compare(order[v.K-1], order[j])
	}
	v.Decided = v.Doubt <= 1-r.Confidence
	return v
}

// byMean orders means high to low, NaN last.
func byMean(a, b float64) int {
	switch {
	case a > b || (!math.IsNaN(a) && math.IsNaN(b)):
		return -1
	case b > a || (math.IsNaN(a) && !math.IsNaN(b)):
		return 1
	}
	return 0
}

// above is P(d + noise > 0) for a normal noise of sd: Phi(d/sd). A
// difference without uncertainty is certain (0.5 if none); one that is
// not a number is not above.
func above(d, sd float64) float64 {
	switch {
	case math.IsNaN(d) || math.IsNaN(sd):
		return 0
	case sd > 0:
		return 0.5 * math.Erfc(-d/(sd*math.Sqrt2)) // 0.5 for an infinite sd
	case d > 0:
		return 1
	case d < 0:
		return 0
	}
	return 0.5
}

// String says the verdict for people: "the top 2 are separated at
// 95 % (order: a, b; doubt 0.012)", or what keeps them apart.
func (v Verdict) String() string {
	conf := strconv.FormatFloat(100*v.Rule.Confidence, 'f', -1, 64) + " %"
	are := "are"
	if v.K == 1 {
		are = "is"
	}
	switch {
	case v.K < 1:
		return fmt.Sprintf("the top %d cannot be separated: fewer than two bots are rated", v.Rule.K)
	case v.Decided:
		return fmt.Sprintf("the top %d %s separated at %s (order: %s; doubt %.3g)", v.K, are, conf, strings.Join(v.Order[:v.K], ", "), v.Doubt)
	}
	return fmt.Sprintf("the top %d %s not separated at %s (doubt %.3g, most from %s above %s: %.1f %%)",
		v.K, are, conf, v.Doubt, v.Weakest.Above, v.Weakest.Below, 100*v.Weakest.P)
}
