package stats

import (
	"fmt"
	"math"
)

// nEloPerT converts a t-value per game, (mu - 1/2)/sigma, into normalized
// Elo: nElo = t * 800/ln 10. A normalized Elo difference is the logistic
// Elo gap that would give the same t-value if draws were absent and the
// scores small, so it measures a difference in units of the match's own
// noise rather than of score (Michel Van den Bergh, "Normalized Elo").
const nEloPerT = 800 / math.Ln10

// llrRegularization is the count given to an empty bucket before the
// likelihood is maximized, as fishtest (LLRcalc.regularize) and fastchess
// do: without it an outcome never seen would have probability 0 under
// every hypothesis and the log-likelihoods would be undefined.
const llrRegularization = 1e-3

var (
	triScores   = []float64{0, 0.5, 1}
	pentaScores = []float64{0, 0.25, 0.5, 0.75, 1}
)

// SPRT is a sequential probability ratio test on normalized Elo (nElo)
// bounds: H0 says the test side is Elo0 nElo stronger than the base, H1
// that it is Elo1 stronger; Alpha is the probability of accepting H1 when
// H0 holds, Beta that of accepting H0 when H1 holds. After every game (or
// game pair) the generalized log-likelihood ratio of the results so far is
// compared to Bounds, as fishtest and fastchess do ("normalized" model).
type SPRT struct{ Elo0, Elo1, Alpha, Beta float64 }

// Validate reports parameters that do not make a test: the bounds must be
// finite with Elo0 < Elo1, Alpha and Beta strictly between 0 and 1, and
// Alpha + Beta < 1 (else the accept-H0 bound lies above the accept-H1 one).
func (s SPRT) Validate() error {
	switch {
	case !finite(s.Elo0) || !finite(s.Elo1):
		return fmt.Errorf("sprt: elo0 and elo1 must be finite numbers, got %v and %v", s.Elo0, s.Elo1)
	case s.Elo0 >= s.Elo1:
		return fmt.Errorf("sprt: elo0 (%v) must be less than elo1 (%v)", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Errorf("sprt: alpha (%v) must be between 0 and 1, exclusive", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 1):
		return fmt.Errorf("sprt: beta (%v) must be between 0 and 1, exclusive", s.Beta)
	case s.Alpha+s.Beta >= 1:
		return fmt.Errorf("sprt: alpha + beta (%v + %v) must be less than 1", s.Alpha, s.Beta)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Bounds are Wald's stopping bounds on the log-likelihood ratio: the test
// accepts H0 at or below lower = ln(Beta/(1-Alpha)) and H1 at or above
// upper = ln((1-Beta)/Alpha). For Alpha = Beta = 0.05 they are -/+2.944.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Verdict is the decision for a log-likelihood ratio: +1 accept H1 (llr at
// or above the upper bound), -1 accept H0 (at or below the lower bound), 0
// continue (also for NaN).
func (s SPRT) Verdict(llr float64) int {
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return 1
	case llr <= lower:
		return -1
	}
	return 0
}

// LLRPenta is the generalized log-likelihood ratio of H1 against H0 for
// game pairs counted pentanomially: the log of the likelihood of the
// counts under the most likely pair-score distribution with normalized
// Elo Elo1, minus the same under Elo0. The normalized Elo of a pair-score
// distribution with mean mu and variance var is (mu - 1/2)/sqrt(2 var) *
// 800/ln 10 (the per-game t-value times sqrt 2 is the per-pair t-value
// (mu - 1/2)/sqrt(var)). Empty buckets count as 0.001 pairs and negative
// counts as 0; no pairs at all give 0.
func (s SPRT) LLRPenta(p Penta) float64 {
	if p.Pairs() <= 0 {
		return 0
	}
	t0, t1 := math.Sqrt2*s.Elo0/nEloPerT, math.Sqrt2*s.Elo1/nEloPerT
	return llrTValue(pentaScores, p[:], t0, t1)
}

// LLRTri is LLRPenta for unpaired games counted as wins, draws and losses
// (trinomial): the normalized Elo of a game-score distribution is
// (mu - 1/2)/sqrt(var) * 800/ln 10.
func (s SPRT) LLRTri(r WDL) float64 {
	if r.Games() <= 0 {
		return 0
	}
	t0, t1 := s.Elo0/nEloPerT, s.Elo1/nEloPerT
	return llrTValue(triScores, []int{r.L, r.D, r.W}, t0, t1)
}

// llrTValue is the generalized log-likelihood ratio for counts of the
// outcomes scores (ascending, mean 1/2 in the middle) between the
// hypotheses "t-value (mu - 1/2)/sigma is t1" and "is t0".
func llrTValue(scores []float64, counts []int, t0, t1 float64) float64 {
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
	p0 := mleTValue(scores, phat, 0.5, t0)
	p1 := mleTValue(scores, phat, 0.5, t1)
	llr := 0.0
	for i := range c {
		llr += c[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return llr
}

// mleTValue returns the distribution on scores with t-value
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
func mleTValue(scores, phat []float64, ref, t float64) []float64 {
	n := len(scores)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	if q, ok := mleTValueFrom(scores, phat, ref, t, p); ok {
		return q
	}
	// Continuation in t: from t = 0 (always solvable: a mean constraint)
	// towards the target, halving the step whenever a step fails.
	cur, step := 0.0, t/8
	q, ok := mleTValueFrom(scores, phat, ref, 0, p)
	if !ok {
		return q // cannot happen with phat > 0; q is the best effort
	}
	for cur != t && math.Abs(step) > math.Abs(t)*1e-9 {
		next := cur + step
		if math.Abs(next-cur) >= math.Abs(t-cur) {
			next = t
		}
		if r, ok := mleTValueFrom(scores, phat, ref, next, q); ok {
			q, cur = r, next
			step *= 2
		} else {
			step /= 2
		}
	}
	return q
}

// mleTValueFrom runs the fixed-point iteration of mleTValue from p. It
// reports false when a linearization has no solution or the iteration does
// not settle.
func mleTValueFrom(scores, phat []float64, ref, t float64, start []float64) ([]float64, bool) {
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
		x, ok := secular(phi, phat)
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

func meanVar(scores, p []float64) (mu, variance float64) {
	for i, a := range scores {
		mu += p[i] * a
	}
	for i, a := range scores {
		variance += p[i] * (a - mu) * (a - mu)
	}
	return mu, variance
}

// secular solves sum_i w_i phi_i/(1 + x phi_i) = 0 for x with every
// 1 + x phi_i > 0 (w_i > 0). The left side decreases strictly from +Inf to
// -Inf on that interval when phi has both signs, so the root is unique;
// Newton's method safeguarded by bisection finds it. ok is false when phi
// does not change sign (no root).
func secular(phi, w []float64) (x float64, ok bool) {
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

// Estimate is what the test shows while running: the test side's strength
// relative to the base as logistic Elo and as normalized Elo, each with a
// 95% interval from the normal approximation of the mean score, the
// likelihood of superiority and the mean score per game.
//
// When every game (pair) scored the same the observed variance is 0: the
// intervals collapse to the estimate, normalized Elo is +/-Inf unless the
// score is exactly 1/2, and when the test side won (lost) everything Elo
// is +Inf (-Inf) with the finite end of the interval the exact one-sided
// bound, as EloDiff reports it. With no games at all every figure is 0
// except LOS and Score, which are 1/2.
type Estimate struct {
	Elo, EloLow, EloHigh    float64 // logistic Elo with 95% interval
	NElo, NEloLow, NEloHigh float64 // normalized Elo with 95% interval
	LOS                     float64
	Score                   float64 // mean score per game
}

func emptyEstimate() Estimate { return Estimate{LOS: 0.5, Score: 0.5} }

// EstimatePenta estimates from game pairs counted pentanomially, as
// fastchess reports them: the score's standard error comes from the
// variance of the pair scores, normalized Elo is (mu - 1/2)/sqrt(2 var) *
// 800/ln 10 with var the pair-score variance, and LOS is the normal
// probability that the true mean score is above 1/2.
func EstimatePenta(p Penta) Estimate {
	n := 0.0
	for _, c := range p {
		n += float64(max(c, 0))
	}
	if n == 0 {
		return emptyEstimate()
	}
	probs := make([]float64, 5)
	for i, c := range p {
		probs[i] = float64(max(c, 0)) / n
	}
	mu, variance := meanVar(pentaScores, probs)
	return estimate(mu, variance, n, math.Sqrt(2*variance), 2*n, normalLOS(mu, variance/n))
}

// EstimateTri estimates from unpaired games: Elo and its interval are
// EloDiff's, LOS is the package's LOS (decisive games only), normalized
// Elo is (mu - 1/2)/sqrt(var) * 800/ln 10 with var the per-game score
// variance.
func EstimateTri(r WDL) Estimate {
	r = WDL{max(r.W, 0), max(r.D, 0), max(r.L, 0)}
	n := float64(r.Games())
	if n == 0 {
		return emptyEstimate()
	}
	probs := []float64{float64(r.L) / n, float64(r.D) / n, float64(r.W) / n}
	mu, variance := meanVar(triScores, probs)
	return estimate(mu, variance, n, math.Sqrt(variance), n, LOS(r))
}

// estimate fills an Estimate from the mean score mu of n units (games or
// pairs) with per-unit variance variance; nEloScale is the per-game
// standard deviation normalized Elo divides by and games the number of
// games, for the exact bound when one side scored everything.
func estimate(mu, variance, n, nEloScale, games, los float64) Estimate {
	e := Estimate{Score: mu, LOS: los}
	se := math.Sqrt(variance / n)
	lo, hi := mu-z95*se, mu+z95*se
	switch {
	case mu >= 1 || mu <= 0:
		bound := EloFromScore(math.Pow(0.025, 1/games))
		if mu >= 1 {
			e.Elo, e.EloLow, e.EloHigh = math.Inf(1), bound, math.Inf(1)
		} else {
			e.Elo, e.EloLow, e.EloHigh = math.Inf(-1), math.Inf(-1), -bound
		}
	default:
		e.Elo = EloFromScore(mu)
		e.EloLow, e.EloHigh = EloFromScore(clampScore(lo)), EloFromScore(clampScore(hi))
	}
	if nEloScale > 0 {
		e.NElo = (mu - 0.5) / nEloScale * nEloPerT
		e.NEloLow = (lo - 0.5) / nEloScale * nEloPerT
		e.NEloHigh = (hi - 0.5) / nEloScale * nEloPerT
	} else {
		switch {
		case mu > 0.5:
			e.NElo = math.Inf(1)
		case mu < 0.5:
			e.NElo = math.Inf(-1)
		}
		e.NEloLow, e.NEloHigh = e.NElo, e.NElo
	}
	return e
}

// normalLOS is the probability that a normal mean with estimate mu and
// variance v is above 1/2.
func normalLOS(mu, v float64) float64 {
	if !(v > 0) {
		switch {
		case mu > 0.5:
			return 1
		case mu < 0.5:
			return 0
		}
		return 0.5
	}
	return 0.5 * math.Erfc(-(mu-0.5)/math.Sqrt(2*v))
}
