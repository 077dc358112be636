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
	bad := func(msg string, params ...string) error { return &ParamError{Params: params, msg: msg} }
	switch {
	case !finite(s.Elo0) || !finite(s.Elo1):
		return bad(fmt.Sprintf("elo0 and elo1 must be finite numbers, got %v and %v", s.Elo0, s.Elo1), "elo0", "elo1")
	case s.Elo0 >= s.Elo1:
		return bad(fmt.Sprintf("elo0 (%v) must be less than elo1 (%v)", s.Elo0, s.Elo1), "elo0", "elo1")
	case !(s.Alpha > 0 && s.Alpha < 1):
		return bad(fmt.Sprintf("alpha (%v) must be between 0 and 1, exclusive", s.Alpha), "alpha")
	case !(s.Beta > 0 && s.Beta < 1):
		return bad(fmt.Sprintf("beta (%v) must be between 0 and 1, exclusive", s.Beta), "beta")
	case s.Alpha+s.Beta >= 1:
		return bad(fmt.Sprintf("alpha + beta (%v + %v) must be less than 1", s.Alpha, s.Beta), "alpha", "beta")
	}
	return nil
}

// ParamError is an SPRT parameter out of its range: the one check of
// each bound (Validate), which callers map to their own names for the
// parameters (flags, file fields) through Params.
type ParamError struct {
	// Params are the parameters at fault, of elo0, elo1, alpha, beta.
	Params []string
	msg    string
}

func (e *ParamError) Error() string { return "sprt: " + e.msg }

// Reason is the error without its "sprt: " prefix.
func (e *ParamError) Reason() string { return e.msg }

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
// outcomes scores (ascending, symmetric about 1/2) between the hypotheses
// "t-value (mu - 1/2)/sigma is t1" and "is t0".
//
// With d_i = phat_i/p_i for each maximizing distribution p (see
// mleTValue), the LLR is sum_i c_i (log d0_i - log d1_i): the d are what
// the solver computes accurately, also where p_i is tiny or phat_i
// dominates (a state of thousands of won pairs), and no renormalization
// of p is needed (one, dividing by sum p = 1 + 1e-10, cost 5e-6 of LLR
// at 5550 pairs). NaN if a maximization found no root (not seen: a guard
// against a panic in a running SPRT; Verdict treats NaN as "continue").
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
	phat, b := make([]float64, n), make([]float64, n)
	for i := range c {
		phat[i] = c[i] / total
		b[i] = scores[i] - 0.5
	}
	d0, d1 := mleTValue(b, phat, t0), mleTValue(b, phat, t1)
	if d0 == nil || d1 == nil {
		return math.NaN()
	}
	llr := 0.0
	for i := range c {
		llr += c[i] * (math.Log(d0[i]) - math.Log(d1[i]))
	}
	return llr
}

// mleTValue finds the distribution p on the outcomes b (scores minus
// 1/2, ascending, symmetric about 0) with t-value mean/sigma = t that
// maximizes the likelihood sum phat_i log p_i of the empirical
// distribution phat (all entries > 0), and returns d_i = phat_i/p_i (nil
// if no root was found, which the analysis below rules out but rounding
// might not).
//
// The Lagrange conditions (Van den Bergh, "Comments on normalized Elo",
// 4.1) give p_i = phat_i/(1 + x phi_i) with
//
//	phi_i(sigma) = b_i - t sigma/2 - t (b_i - t sigma)^2/(2 sigma)
//
// where sigma is p's own standard deviation (and t sigma its mean), and x
// solves the secular equation sum phat_i phi_i/(1 + x phi_i) = 0. fishtest
// and fastchess find sigma by iterating "solve for x, recompute sigma from
// p"; in lopsided states, where the optimum is nearly a two-point
// distribution, that iteration converges slowly, and the earlier solver's
// 1e-13 stopping test was never met (1000 iterations, then a continuation
// in t: tens of milliseconds per update, and an answer 1e-3 short of the
// LLR at [0 0 0 0 16]). Here sigma is the root of the scalar equation
//
//	H(sigma) = mean(p(sigma)) - t sigma = 0
//
// found by a safeguarded Newton method (rootSigma) in a bracket known in
// advance, which ends in a bounded number of steps whatever the state,
// 5-10 per hypothesis. For t > 0 (t < 0 is the mirror image; t = 0 needs
// no sigma) the bracket follows from phi: p(sigma) exists where some phi_i
// is positive, which for b_i > 0 is on (b_i c-, b_i c+) with c-/+ = (1 -/+
// 1/s)/t, s = sqrt(1 + t^2); and sigma <= 1/(2s) for any distribution on
// [-1/2, 1/2] with mean t sigma. On each connected
// piece of that set H starts positive (p tends to a point mass on the b_i
// whose interval opens there, whose mean b_i exceeds t sigma) and ends
// negative (at 1/(2s) H <= 0 for every distribution; at an inner end p
// tends to a point mass on b_i with mean below t sigma: H -> -b_i/s). For
// the bounds SPRTs use (|nElo| below about 700) there is one piece. Of
// several roots, the one of highest likelihood is kept.
func mleTValue(b, phat []float64, t float64) []float64 {
	n := len(b)
	if t < 0 {
		mb, mp := make([]float64, n), make([]float64, n)
		for i := range n {
			mb[i], mp[i] = -b[n-1-i], phat[n-1-i]
		}
		md := mleTValue(mb, mp, -t)
		d := make([]float64, n)
		for i := range n {
			d[i] = md[n-1-i]
		}
		return d
	}
	sv := &secularSolver{w: phat, phi: make([]float64, n), base: make([]float64, n), d: make([]float64, n)}
	if t == 0 {
		// Mean 1/2 (b-mean 0): phi = b, and the secular equation alone.
		copy(sv.phi, b)
		sv.solve() // b has both signs: always solvable
		return sv.d
	}
	s := math.Hypot(1, t)
	cMinus := t / (s * (s + 1)) // (1 - 1/s)/t without cancellation
	cPlus := (1 + 1/s) / t
	sigmaMax := 1 / (2 * s)

	// h solves for p at sigma, leaving d in sv.d, and returns H and its
	// derivative; false where no phi_i > 0 (rounding at a piece's open
	// end). The derivative follows from differentiating the secular
	// equation: x' = sum w phi'/d^2 / sum w phi^2/d^2, and p_i' = -w_i
	// (x' phi_i + x phi_i')/d_i^2.
	dphi := make([]float64, n)
	h := func(sigma float64) (v, dv float64, ok bool) {
		ts := t * sigma
		for i, bi := range b {
			e := bi - ts
			sv.phi[i] = bi - ts/2 - t*e*e/(2*sigma)
			dphi[i] = -t/2 + t*(2*t*e*sigma+e*e)/(2*sigma*sigma)
		}
		if !sv.solve() {
			return 0, 0, false
		}
		mean, num, den := 0.0, 0.0, 0.0
		for i, bi := range b {
			mean += phat[i] / sv.d[i] * bi
			dd := sv.d[i] * sv.d[i]
			num += phat[i] * dphi[i] / dd
			den += phat[i] * sv.phi[i] * sv.phi[i] / dd
		}
		dx := num / den
		dv = -t
		for i, bi := range b {
			dv -= bi * phat[i] * (dx*sv.phi[i] + sv.x*dphi[i]) / (sv.d[i] * sv.d[i])
		}
		return mean - ts, dv, true
	}

	// guess is where the root search starts: the empirical distribution's
	// deviation, which is close to the root when the counts are not far
	// from the hypothesis (the common case), else the middle of the piece.
	sigmaHat := 0.0
	{
		mean, m2 := 0.0, 0.0
		for i, bi := range b {
			mean += phat[i] * bi
			m2 += phat[i] * bi * bi
		}
		sigmaHat = math.Sqrt(math.Max(m2-mean*mean, 0))
	}
	guess := func(lo, hi float64) float64 {
		if sigmaHat > lo && sigmaHat < hi {
			return sigmaHat
		}
		return lo + (hi-lo)/2
	}

	var best []float64
	bestLL := math.Inf(-1)
	// The pieces: the intervals of the b_i > 0 in ascending order (their
	// ends ascend too), merged where they overlap.
	for i := 0; i < n; {
		if b[i] <= 0 {
			i++
			continue
		}
		lo, hi := b[i]*cMinus, b[i]*cPlus
		fLo := b[i] - t*lo // H's limit at lo, positive
		j := i + 1
		for ; j < n && b[j]*cMinus < hi; j++ {
			hi = b[j] * cPlus
		}
		i = j
		if lo >= sigmaMax {
			break
		}
		f := func(x float64) (float64, float64) {
			v, dv, ok := h(x)
			if !ok {
				return fLo, 0 // below the piece's start: a bisection follows
			}
			return v, dv
		}
		var root float64
		if hi >= sigmaMax {
			hi = sigmaMax
			if fHi, _ := f(sigmaMax); fHi == 0 {
				root = sigmaMax
			}
		}
		if root == 0 {
			root = rootSigma(f, lo, hi, guess(lo, hi))
		}
		if _, _, ok := h(root); !ok {
			continue
		}
		ll := 0.0 // the log-likelihood up to a constant: -sum phat log d
		for k, dk := range sv.d {
			ll -= phat[k] * math.Log(dk)
		}
		if ll > bestLL {
			best, bestLL = append(best[:0], sv.d...), ll
		}
	}
	return best
}

// hNoise is where rootSigma stops: |H| at or below it is rounding (H is a
// difference of means of scores within [-1/2, 1/2], each good to about
// 1e-16); going on would only chase noise.
const hNoise = 1e-15

// rootSigma finds the root of f (value and derivative) in (lo, hi),
// where f is positive towards lo and negative towards hi, starting at x:
// Newton's method, with a bisection of the bracket whenever a Newton step
// would leave it or has not halved |f| (Numerical Recipes' rtsafe), so it
// converges quadratically near the root and never does worse than
// bisection far from it. It stops when |f| <= hNoise or the step is below
// rounding: typically after 3-6 evaluations, at most a few hundred.
func rootSigma(f func(float64) (float64, float64), lo, hi, x float64) float64 {
	const eps = 0x1p-52
	fx, dfx := f(x)
	dxOld, dx := hi-lo, hi-lo
	for range 400 {
		if math.Abs(fx) <= hNoise {
			return x
		}
		if fx > 0 {
			lo = x
		} else {
			hi = x
		}
		next := x - fx/dfx
		if !(next > lo && next < hi) || math.Abs(2*fx) > math.Abs(dxOld*dfx) {
			dxOld, dx = dx, (hi-lo)/2
			next = lo + dx
		} else {
			dxOld, dx = dx, fx/dfx
		}
		if !(next > lo && next < hi) || math.Abs(next-x) <= 4*eps*math.Abs(x) {
			return x // the step is below rounding
		}
		x = next
		fx, dfx = f(x)
	}
	return x
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

// secularSolver solves sum_i w_i phi_i/(1 + x phi_i) = 0 for x with
// every 1 + x phi_i > 0 (w_i > 0), leaving d_i = 1 + x phi_i in d. The left
// side decreases strictly from +Inf to -Inf between the poles x = -1/phi_i
// of the largest positive and the most negative phi, so the root is
// unique; there is none when phi does not take both signs.
//
// The root can lie extremely close to a pole (in a lopsided state, where
// p_i is 1e6 times phat_i), and then 1 + x phi_i computed from x loses
// most of its digits. So x is written as pole + delta, or pole - delta,
// from the pole nearer the root, and d_i = (1 - phi_i/phi_k) +/- delta
// phi_i, exact at the pole and accurate near it; delta is found by
// Newton's method from 0 on q(delta) = delta times the sum (smooth there:
// the pole's term becomes its weight), safeguarded by bisection.
type secularSolver struct {
	w, phi, base, d []float64
	// x is the last root; the next solve starts from it when it lies in
	// the new bracket (the root search in sigma moves x by little).
	x     float64
	haveX bool
}

func (sv *secularSolver) solve() bool {
	phi, w, d, base := sv.phi, sv.w, sv.d, sv.base
	kPos, kNeg := -1, -1
	for i, f := range phi {
		if f > 0 && (kPos < 0 || f > phi[kPos]) {
			kPos = i
		}
		if f < 0 && (kNeg < 0 || f < phi[kNeg]) {
			kNeg = i
		}
	}
	if kPos < 0 || kNeg < 0 {
		return false
	}
	lo, hi := -1/phi[kPos], -1/phi[kNeg]
	mid := lo + (hi-lo)/2
	g := 0.0
	for i, f := range phi {
		g += w[i] * f / (1 + mid*f)
	}
	if g == 0 {
		for i, f := range phi {
			d[i] = 1 + mid*f
		}
		sv.x, sv.haveX = mid, true
		return true
	}
	// The root is in (lo, mid) when g(mid) < 0: x = lo + delta, sign +1;
	// else in (mid, hi): x = hi - delta, sign -1.
	k, sign, span, pole := kPos, 1.0, mid-lo, lo
	if g > 0 {
		k, sign, span, pole = kNeg, -1, hi-mid, hi
	}
	for i, f := range phi {
		base[i] = 1 - f/phi[k] // 0 at the pole's own index (and ties)
	}
	// q has the sign of sign at 0 and the other sign at span, and one
	// root in between.
	q := func(delta float64) (v, dv float64) {
		for i, f := range phi {
			if base[i] == 0 { // a pole's term: delta w f/(sign delta f)
				v += sign * w[i]
				continue
			}
			di := base[i] + sign*delta*f
			v += w[i] * f * delta / di
			dv += w[i] * f * base[i] / (di * di)
		}
		return v, dv
	}
	a, bEnd := 0.0, span
	delta := 0.0
	if d0 := sign * (sv.x - pole); sv.haveX && d0 > 0 && d0 < span {
		delta = d0
	}
	for range 200 {
		v, dv := q(delta)
		if v == 0 && delta > 0 {
			break
		}
		if (v > 0) == (sign > 0) {
			a = delta
		} else {
			bEnd = delta
		}
		next := delta - v/dv
		if !(next > a && next < bEnd) {
			next = a + (bEnd-a)/2
		}
		if next == delta || math.Abs(next-delta) <= 1e-15*next {
			delta = next
			break
		}
		delta = next
	}
	for i, f := range phi {
		d[i] = base[i] + sign*delta*f
	}
	sv.x, sv.haveX = pole+sign*delta, true
	return true
}

// Estimate is what the test shows while running: the test side's strength
// relative to the base as logistic Elo and as normalized Elo, each with a
// 95% interval from the normal approximation of the mean score, the
// likelihood of superiority and the mean score per game. The conventions,
// the same paired and unpaired (the unit is the pair, or the game):
//
//   - Elo is EloFromScore of the mean score; its interval is the score's
//     normal interval converted end by end, open (+/-Inf) past score 0 or
//     1; when every game went one way Elo is +/-Inf and the finite end is
//     the exact one-sided bound (see scoreElo).
//   - nElo is (mu - 1/2)/sd * 800/ln 10, sd the per-game standard
//     deviation (paired: the pair scores' times sqrt 2), with the score's
//     normal interval scaled alike. When every unit scored the same sd is
//     0: nElo and its interval are +/-Inf if that score is above or below
//     1/2, and NaN (undefined, shown as "-" and JSON null) if it is 1/2,
//     as fastchess's 0/0.
//   - LOS is LOS of the games' wins and losses (paired too: the games of
//     the counted pairs), exact at any count; draws do not count.
//
// With no games at all every figure is 0 except LOS and Score, which are
// 1/2.
type Estimate struct {
	Elo, EloLow, EloHigh    float64 // logistic Elo with 95% interval
	NElo, NEloLow, NEloHigh float64 // normalized Elo with 95% interval
	LOS                     float64
	Score                   float64 // mean score per game
}

func emptyEstimate() Estimate { return Estimate{LOS: 0.5, Score: 0.5} }

// EstimatePenta estimates from game pairs counted pentanomially, as
// fastchess reports them: the score's standard error comes from the
// variance of the pair scores, and normalized Elo is (mu - 1/2)/sqrt(2
// var) * 800/ln 10 with var the pair-score variance. games are the same
// pairs' games as wins, draws and losses, for LOS (which counts decisive
// games, and a pair's score does not tell a won and a lost game from two
// draws).
func EstimatePenta(p Penta, games WDL) Estimate {
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
	return estimate(mu, variance, n, math.Sqrt(2*variance), 2*n, games)
}

// EstimateTri estimates from unpaired games: Elo and its interval are
// EloDiff's, LOS is LOS's, normalized Elo is (mu - 1/2)/sqrt(var) * 800/ln
// 10 with var the per-game score variance.
func EstimateTri(r WDL) Estimate {
	r = WDL{max(r.W, 0), max(r.D, 0), max(r.L, 0)}
	n := float64(r.Games())
	if n == 0 {
		return emptyEstimate()
	}
	probs := []float64{float64(r.L) / n, float64(r.D) / n, float64(r.W) / n}
	mu, variance := meanVar(triScores, probs)
	return estimate(mu, variance, n, math.Sqrt(variance), n, r)
}

// estimate fills an Estimate from the mean score mu of n units (games or
// pairs) with per-unit variance variance; nEloScale is the per-game
// standard deviation normalized Elo divides by, games the number of
// games, for the exact bound when one side scored everything, and
// results their wins, draws and losses, for LOS.
func estimate(mu, variance, n, nEloScale, games float64, results WDL) Estimate {
	e := Estimate{Score: mu, LOS: LOS(results)}
	se := math.Sqrt(variance / n)
	e.Elo, e.EloLow, e.EloHigh = scoreElo(mu, se, games)
	if nEloScale > 0 {
		e.NElo = (mu - 0.5) / nEloScale * nEloPerT
		e.NEloLow = (mu - z95*se - 0.5) / nEloScale * nEloPerT
		e.NEloHigh = (mu + z95*se - 0.5) / nEloScale * nEloPerT
	} else {
		switch {
		case mu > 0.5:
			e.NElo = math.Inf(1)
		case mu < 0.5:
			e.NElo = math.Inf(-1)
		default:
			e.NElo = math.NaN()
		}
		e.NEloLow, e.NEloHigh = e.NElo, e.NElo
	}
	return e
}
