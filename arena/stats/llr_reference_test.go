package stats

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// This file computes the GLR that fishtest's LLR_normalized defines (the
// log-likelihood of the counts under the most likely outcome distribution
// with t-value (mu - 1/2)/sigma = t1, minus the same for t0; empty buckets
// count 0.001) independently of the package's solver, in 256-bit
// arithmetic and by bisection only, so that degenerate states (all pairs
// won, a lone draw among thousands of wins) can be checked to far better
// than 1e-6.
//
// The maximizer satisfies the Lagrange conditions p_i = phat_i/(1 + x
// phi_i), phi_i = b_i - t sigma/2 - t (b_i - t sigma)^2/(2 sigma), with b_i
// the outcome's score minus 1/2 and sigma the standard deviation of p
// itself (Van den Bergh, "Comments on normalized Elo", 4.1; the mean is
// 1/2 + t sigma). For a given sigma, x solves sum phat_i phi_i/(1 + x
// phi_i) = 0 (bisection on the Lagrange multiplier x between the poles);
// sigma is right when p's mean is 1/2 + t sigma: the reference scans sigma
// over (0, 1/(2 sqrt(1+t^2))] (larger sigma cannot have that mean) for
// sign changes of mean(p) - 1/2 - t sigma, bisects each, and keeps the
// root of highest likelihood.

const refPrec = 256

func bf(x float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }

func bfAdd(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(refPrec).Add(a, b) }
func bfSub(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(refPrec).Sub(a, b) }
func bfMul(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(refPrec).Mul(a, b) }
func bfQuo(a, b *big.Float) *big.Float { return new(big.Float).SetPrec(refPrec).Quo(a, b) }

// refProblem is one constrained maximization: counts (regularized), their
// empirical distribution and the outcomes' scores minus 1/2.
type refProblem struct {
	c, phat, b []*big.Float
}

func newRefProblem(counts []int) refProblem {
	n := len(counts)
	var pr refProblem
	total := bf(0)
	for _, k := range counts {
		c := bf(float64(k))
		if k <= 0 {
			c, _ = new(big.Float).SetPrec(refPrec).SetString("0.001")
		}
		pr.c = append(pr.c, c)
		total = bfAdd(total, c)
	}
	for i := range n {
		pr.phat = append(pr.phat, bfQuo(pr.c[i], total))
		pr.b = append(pr.b, bfSub(bfQuo(bf(float64(i)), bf(float64(n-1))), bf(0.5)))
	}
	return pr
}

// solve returns p = phat/(1 + x phi) with x the root of the secular
// equation, or nil if phi does not take both signs (no root).
func (pr refProblem) solve(phi []*big.Float) []*big.Float {
	var lo, hi *big.Float // 1 + x phi_i > 0 for all i: lo < x < hi
	for _, f := range phi {
		switch f.Sign() {
		case 1:
			if v := bfQuo(bf(-1), f); lo == nil || v.Cmp(lo) > 0 {
				lo = v
			}
		case -1:
			if v := bfQuo(bf(-1), f); hi == nil || v.Cmp(hi) < 0 {
				hi = v
			}
		}
	}
	if lo == nil || hi == nil {
		return nil
	}
	for range 300 {
		mid := bfQuo(bfAdd(lo, hi), bf(2))
		s := bf(0)
		for i, f := range phi {
			s = bfAdd(s, bfQuo(bfMul(pr.phat[i], f), bfAdd(bf(1), bfMul(mid, f))))
		}
		if s.Sign() > 0 { // the sum decreases in x
			lo = mid
		} else {
			hi = mid
		}
	}
	x := bfQuo(bfAdd(lo, hi), bf(2))
	p := make([]*big.Float, len(phi))
	for i, f := range phi {
		p[i] = bfQuo(pr.phat[i], bfAdd(bf(1), bfMul(x, f)))
	}
	return p
}

// atSigma returns p for t and sigma and the mismatch mean(b) - t sigma
// (nil p where sigma admits no solution).
func (pr refProblem) atSigma(t, sigma *big.Float) ([]*big.Float, *big.Float) {
	phi := make([]*big.Float, len(pr.b))
	for i, b := range pr.b {
		d := bfSub(b, bfMul(t, sigma))
		phi[i] = bfSub(bfSub(b, bfQuo(bfMul(t, sigma), bf(2))), bfQuo(bfMul(t, bfMul(d, d)), bfMul(bf(2), sigma)))
	}
	p := pr.solve(phi)
	if p == nil {
		return nil, nil
	}
	mean := bf(0)
	for i, b := range pr.b {
		mean = bfAdd(mean, bfMul(p[i], b))
	}
	return p, bfSub(mean, bfMul(t, sigma))
}

func (pr refProblem) logLik(p []*big.Float) float64 {
	f := 0.0
	for i := range p {
		c, _ := pr.c[i].Float64()
		v, _ := p[i].Float64()
		f += c * math.Log(v)
	}
	return f
}

// maximize returns the maximizing distribution for t-value t.
func (pr refProblem) maximize(tb testing.TB, t float64) []*big.Float {
	if t == 0 {
		return pr.solve(pr.b) // mean 1/2: phi = b
	}
	if t < 0 { // mirror: the base's view of the same counts
		m := refProblem{}
		for i := len(pr.c) - 1; i >= 0; i-- {
			m.c, m.phat, m.b = append(m.c, pr.c[i]), append(m.phat, pr.phat[i]), append(m.b, new(big.Float).Neg(pr.b[i]))
		}
		p := m.maximize(tb, -t)
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
		return p
	}
	tt := bf(t)
	smax := bfQuo(bf(1), bfMul(bf(2), new(big.Float).SetPrec(refPrec).Sqrt(bfAdd(bf(1), bfMul(tt, tt)))))
	const grid = 64
	var best []*big.Float
	bestF := math.Inf(-1)
	var prevS, prevH *big.Float
	for k := 1; k <= grid; k++ {
		s := bfQuo(bfMul(smax, bf(float64(k))), bf(grid))
		_, h := pr.atSigma(tt, s)
		if h == nil {
			prevS, prevH = nil, nil
			continue
		}
		if prevH == nil && h.Sign() < 0 {
			tb.Fatalf("reference: a root below the first admissible grid point %v; refine the grid", s)
		}
		if prevH != nil && prevH.Sign() > 0 && h.Sign() <= 0 {
			lo, hi := prevS, s
			for range 160 {
				mid := bfQuo(bfAdd(lo, hi), bf(2))
				if _, hm := pr.atSigma(tt, mid); hm.Sign() > 0 {
					lo = mid
				} else {
					hi = mid
				}
			}
			p, _ := pr.atSigma(tt, bfQuo(bfAdd(lo, hi), bf(2)))
			if f := pr.logLik(p); f > bestF {
				best, bestF = p, f
			}
		}
		prevS, prevH = s, h
	}
	if best == nil {
		tb.Fatalf("reference: no root for t = %v", t)
	}
	return best
}

// refLLR is the GLR of t1 against t0 for counts (L, D, W or the five pair
// scores).
func refLLR(tb testing.TB, counts []int, t0, t1 float64) float64 {
	pr := newRefProblem(counts)
	p0, p1 := pr.maximize(tb, t0), pr.maximize(tb, t1)
	llr := 0.0
	for i := range pr.c {
		c, _ := pr.c[i].Float64()
		r, _ := bfQuo(p1[i], p0[i]).Float64()
		llr += c * math.Log(r)
	}
	return llr
}

// refT are the t-values of an SPRT's bounds: per game for trinomial
// counts, per pair (sqrt 2 times) for pentanomial ones; nElo = t * 800/ln 10.
func refT(s SPRT, outcomes int) (t0, t1 float64) {
	k := math.Ln10 / 800
	if outcomes == 5 {
		k *= math.Sqrt2
	}
	return s.Elo0 * k, s.Elo1 * k
}

// degenerateStates are the lopsided counts an SPRT passes through when
// one side wins (nearly) everything, and a few ordinary ones.
var degenerateStates = []struct {
	s      SPRT
	counts []int
}{
	{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 0, 0, 16}},
	{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 0, 0, 5550}},
	{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 0, 0, 1}},
	{SPRT{0, 5, 0.05, 0.05}, []int{16, 0, 0, 0, 0}},
	{SPRT{-1.75, 0.25, 0.05, 0.05}, []int{0, 0, 0, 0, 16}},
	{SPRT{-5, 0, 0.05, 0.05}, []int{0, 0, 0, 0, 300}},
	{SPRT{0, 2, 0.05, 0.05}, []int{0, 0, 0, 1, 3000}},
	{SPRT{0, 5, 0.05, 0.05}, []int{1, 0, 0, 0, 300}},
	{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 40, 0, 0}},
	{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 3, 0, 40}},
	{SPRT{0, 10, 0.05, 0.05}, []int{0, 0, 0, 0, 5}},
	{SPRT{0, 5, 0.05, 0.05}, []int{10, 20, 40, 20, 10}},
	{SPRT{-1.75, 0.25, 0.05, 0.05}, []int{120, 680, 2300, 700, 200}},
	{SPRT{0, 400, 0.05, 0.05}, []int{1, 2, 3, 30, 40}},
	{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 16}},
	{SPRT{0, 5, 0.05, 0.05}, []int{0, 0, 5550}},
	{SPRT{0, 5, 0.05, 0.05}, []int{16, 0, 0}},
	{SPRT{-1.75, 0.25, 0.05, 0.05}, []int{0, 1, 300}},
	{SPRT{0, 5, 0.05, 0.05}, []int{30, 40, 30}},
}

func TestLLRAgainstHighPrecisionReference(t *testing.T) {
	for i, tc := range degenerateStates {
		if testkit.Quick() && i%3 != 0 {
			continue // a third of them, of every kind: the reference is slow
		}
		t.Run(fmt.Sprintf("%v_%g_%g", tc.counts, tc.s.Elo0, tc.s.Elo1), func(t *testing.T) {
			t0, t1 := refT(tc.s, len(tc.counts))
			want := refLLR(t, tc.counts, t0, t1)
			got := llrOf(tc.s, tc.counts)
			if math.Abs(got-want) > 1e-6 {
				t.Errorf("LLR %.12f, reference %.12f: off by %.3g", got, want, got-want)
			}
			t.Logf("LLR %.12f, reference %.12f: off by %.3g", got, want, got-want)
		})
	}
}

// For random states and t-values, mleTValue's answer must be a point of
// the Lagrange conditions it claims: a distribution (sum 1), with t-value
// t, and p_i = phat_i/(1 + x phi_i) with one multiplier x for every i,
// phi computed from p's own mean and deviation. Checked from d alone, with
// no part of the solver.
func TestMLETValueSatisfiesLagrangeConditions(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for k := range 3000 {
		n := 5
		if k%3 == 0 {
			n = 3
		}
		counts := make([]int, n)
		for i := range counts {
			switch rng.IntN(4) {
			case 0: // empty bucket
			case 1:
				counts[i] = rng.IntN(5)
			case 2:
				counts[i] = rng.IntN(300)
			default:
				counts[i] = rng.IntN(100000)
			}
		}
		tv := (rng.Float64() - 0.5) * 0.4
		if k%10 == 0 {
			tv = (rng.Float64() - 0.5) * 4
		}
		c, total := make([]float64, n), 0.0
		for i, x := range counts {
			c[i] = float64(x)
			if x == 0 {
				c[i] = llrRegularization
			}
			total += c[i]
		}
		phat, b := make([]float64, n), make([]float64, n)
		for i := range c {
			phat[i] = c[i] / total
			b[i] = float64(i)/float64(n-1) - 0.5
		}
		d := mleTValue(b, phat, tv)
		p := make([]float64, n)
		sum, mean, m2 := 0.0, 0.0, 0.0
		for i := range p {
			p[i] = phat[i] / d[i]
			sum += p[i]
			mean += p[i] * b[i]
			m2 += p[i] * b[i] * b[i]
		}
		sigma := math.Sqrt(m2 - mean*mean)
		if math.Abs(sum-1) > 1e-12 || math.Abs(mean-tv*sigma) > 1e-12 {
			t.Fatalf("%v t=%v: sum p %v, mean %v, t sigma %v", counts, tv, sum, mean, tv*sigma)
		}
		// x_i = (d_i - 1)/phi_i must be one number (phi_i near 0 say
		// nothing about it).
		var xs []float64
		for i := range p {
			e := (b[i] - mean) / sigma
			phi := b[i] - tv*sigma*(1+e*e)/2
			if math.Abs(phi) > 1e-3 {
				xs = append(xs, (d[i]-1)/phi)
			}
		}
		for _, x := range xs[1:] {
			if math.Abs(x-xs[0]) > 1e-7*math.Max(1, math.Abs(xs[0])) {
				t.Fatalf("%v t=%v: multipliers %v differ", counts, tv, xs)
			}
		}
	}
}
