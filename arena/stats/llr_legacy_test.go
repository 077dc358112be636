package stats

import "math"

// The t-value solver as it was before it was replaced (a fixed-point
// iteration to a 1e-13 change, with renormalization and a continuation
// in t when it failed), kept as the baseline the benchmarks measure the
// current solver against. Not used for any reference value: the
// references are llr_reference_test.go's.

// legacyLLRTValue is the generalized log-likelihood ratio for counts of the
// outcomes scores (ascending, mean 1/2 in the middle) between the
// hypotheses "t-value (mu - 1/2)/sigma is t1" and "is t0".
func legacyLLRTValue(scores []float64, counts []int, t0, t1 float64) float64 {
	n := len(scores)
	c := make([]float64, n)
	total := 0.0
	for i, k := range counts {
		c[i] = float64(k)
		if k <= 0 {
			c[i] = llrRegularization
		}
		total += c[i]
	}
	phat := make([]float64, n)
	for i := range c {
		phat[i] = c[i] / total
	}
	p0 := legacyMLE(scores, phat, 0.5, t0)
	p1 := legacyMLE(scores, phat, 0.5, t1)
	llr := 0.0
	for i := range c {
		llr += c[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return llr
}

// legacyMLE returns the distribution on scores with t-value
// (mu - ref)/sigma = t that maximizes the likelihood of the empirical
// distribution phat (all entries > 0), sum phat_i log p_i.
//
// At the optimum the Lagrange conditions give p_i = phat_i/(1 + x phi_i)
// with phi_i = a_i - ref - t sigma (1 + ((a_i - mu)/sigma)^2)/2, where mu
// and sigma are those of p itself and x solves sum phat_i phi_i/(1 + x
// phi_i) = 0 (Van den Bergh, "Comments on normalized Elo", section 4.1).
// Fixing mu and sigma from the current estimate, solving for x and
// updating p is a fixed-point iteration that converges in a handful of
// steps from the uniform distribution for the bounds SPRTs use. For large
// |t| the first linearization may have no solution; the target is then
// approached in smaller steps of t, each starting from the last solution.
func legacyMLE(scores, phat []float64, ref, t float64) []float64 {
	n := len(scores)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	if q, ok := legacyMLEFrom(scores, phat, ref, t, p); ok {
		return q
	}
	// Continuation in t: from t = 0 (always solvable: a mean constraint)
	// towards the target, halving the step whenever a step fails.
	cur, step := 0.0, t/8
	q, ok := legacyMLEFrom(scores, phat, ref, 0, p)
	if !ok {
		return q // cannot happen with phat > 0; q is the best effort
	}
	for cur != t && math.Abs(step) > math.Abs(t)*1e-9 {
		next := cur + step
		if math.Abs(next-cur) >= math.Abs(t-cur) {
			next = t
		}
		if r, ok := legacyMLEFrom(scores, phat, ref, next, q); ok {
			q, cur = r, next
			step *= 2
		} else {
			step /= 2
		}
	}
	return q
}

// legacyMLEFrom runs the fixed-point iteration of legacyMLE from p. It
// reports false when a linearization has no solution or the iteration does
// not settle.
func legacyMLEFrom(scores, phat []float64, ref, t float64, start []float64) ([]float64, bool) {
	n := len(scores)
	p := append([]float64(nil), start...)
	phi, next := make([]float64, n), make([]float64, n)
	for iter := 0; iter < 1000; iter++ {
		mu, variance := meanVar(scores, p)
		sigma := math.Sqrt(variance)
		if !(sigma > 0) {
			return p, false
		}
		for i, a := range scores {
			z := (a - mu) / sigma
			phi[i] = a - ref - t*sigma*(1+z*z)/2
		}
		x, ok := legacySecular(phi, phat)
		if !ok {
			return p, false
		}
		sum := 0.0
		for i := range next {
			next[i] = phat[i] / (1 + x*phi[i])
			sum += next[i]
		}
		diff := 0.0
		for i := range next { // sum is 1 up to rounding; keep it exact
			next[i] /= sum
			diff = math.Max(diff, math.Abs(next[i]-p[i]))
		}
		p, next = next, p
		if diff < 1e-13 {
			return p, true
		}
	}
	return p, false
}

// legacySecular solves sum_i w_i phi_i/(1 + x phi_i) = 0 for x with every
// 1 + x phi_i > 0 (w_i > 0). The left side decreases strictly from +Inf to
// -Inf on that interval when phi has both signs, so the root is unique;
// Newton's method safeguarded by bisection finds it. ok is false when phi
// does not change sign (no root).
func legacySecular(phi, w []float64) (x float64, ok bool) {
	lo, hi := math.Inf(-1), math.Inf(1)
	pos, neg := false, false
	for _, f := range phi {
		switch {
		case f > 0:
			lo = math.Max(lo, -1/f)
			pos = true
		case f < 0:
			hi = math.Min(hi, -1/f)
			neg = true
		}
	}
	if !pos || !neg {
		return 0, false
	}
	eval := func(x float64) (f, df float64) {
		for i, ph := range phi {
			d := 1 + x*ph
			f += w[i] * ph / d
			df -= w[i] * ph * ph / (d * d)
		}
		return f, df
	}
	a, b := lo, hi // f(a) > 0 > f(b) in the limit
	x = 0          // inside (lo, hi) since lo < 0 < hi
	for iter := 0; iter < 200; iter++ {
		f, df := eval(x)
		if f == 0 {
			return x, true
		}
		if f > 0 {
			a = x
		} else {
			b = x
		}
		next := x - f/df
		if !(next > a && next < b) {
			next = a + (b-a)/2
		}
		if math.Abs(next-x) <= 1e-15*math.Max(1, math.Abs(x)) {
			return next, true
		}
		x = next
	}
	return x, true
}
