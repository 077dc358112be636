package stats

import (
	"fmt"
	"math"
)

// LOS is the likelihood of superiority of the side that scored r: the
// probability that it is the stronger side, given its decisive games.
// With p the chance that a decisive game goes its way, a uniform prior on
// p and the W wins and L losses as binomial draws, p's posterior is
// Beta(W+1, L+1) and LOS = P(p > 1/2) = I_{1/2}(L+1, W+1), the
// regularized incomplete beta function. For whole counts that is the
// binomial tail P(X > L), X ~ Binomial(W+L+1, 1/2), which LOS sums
// exactly (to rounding) for any count (halfBinomialTail). Draws do not
// count: no decisive game at all gives 1/2, as does an even record.
//
// This is the one LOS of the arena: arena match, a tournament's pairs and
// arena sprt (paired or not: from the games of the counted pairs) all
// report it. Normal approximations overstate it where the games are few:
// fastchess's Phi((mu - 1/2)/SE) gives 1.2e-05 for a 1-9 record, where
// the exact value is 12/2^11 = 0.0059, and 1 for 10-0, where it is
// 1 - 2^-11 = 0.9995. Where the games are many they agree with it:
// cutechess's Phi((W-L)/sqrt(W+L)) is its normal approximation.
func LOS(r WDL) float64 {
	w, l := max(r.W, 0), max(r.L, 0)
	if w == l {
		return 0.5 // by symmetry, and so exactly
	}
	return halfBinomialTail(w+l+1, l+1)
}

// exactTrials is the most trials halfBinomialTail sums in integers: the
// binomial coefficients and their sum fit in 64 bits up to 60 (and the
// sum is a float64 exactly up to 53), so the small samples LOS matters
// most for come out exact: 12/2^11 for a 1-9 record, 1 - 2^-11 for 10-0.
const exactTrials = 60

// halfBinomialTail is P(X >= k) for X ~ Binomial(m, 1/2). Up to
// exactTrials it is the integer sum of the coefficients over 2^m.
// Beyond, it sums the smaller tail, whose terms fall away from the mode,
// from its largest term on (its logarithm from math.Lgamma, the rest by
// the ratio of consecutive terms) until they no longer change the sum:
// about 9 sqrt(m) terms at most, so any count is cheap. That is the exact
// sum but for rounding, a relative error of about 1e-15 per trial
// (Lgamma's, on arguments of size m: 1e-12 at 1,000 games), far below the
// 4 digits any output shows, with no cancellation and no overflow at any
// m. The larger tail is 1 minus the smaller.
func halfBinomialTail(m, k int) float64 {
	switch {
	case k <= 0:
		return 1
	case k > m:
		return 0
	case m <= exactTrials:
		var sum, c uint64 = 0, 1 // c is C(m, j)
		for j := 0; j <= m; j++ {
			if j >= k {
				sum += c
			}
			c = c * uint64(m-j) / uint64(j+1) // C(m, j) (m-j) < 2^64 for m <= 60
		}
		return math.Ldexp(float64(sum), -m)
	case 2*k <= m:
		// The lower tail P(X <= k-1) is the smaller one; by symmetry it is
		// P(X >= m-k+1), whose 2(m-k+1) > m takes the branch below.
		return 1 - halfBinomialTail(m, m-k+1)
	}
	lg := func(x int) float64 {
		v, _ := math.Lgamma(float64(x) + 1)
		return v
	}
	first := math.Exp(lg(m) - lg(k) - lg(m-k) - float64(m)*math.Ln2) // C(m, k) / 2^m
	sum, term := 1.0, 1.0                                            // in units of the first term
	for j := k; j < m; j++ {
		term *= float64(m-j) / float64(j+1)
		sum += term
		if term < sum*0x1p-60 {
			break
		}
	}
	return first * sum
}

// losDecimalsMax bounds the decimals FormatLOS shows.
const losDecimalsMax = 4

// FormatLOS writes a LOS as a percentage: with one decimal ("97.8%"), or
// with as many more as it takes to tell it from 0% and 100% ("99.95%" for
// a 10-0 record, "0.0049%"), up to four; beyond those it says so
// (">99.9999%", "<0.0001%"), never "100.0%" for evidence that is not
// certain. NaN (no games counted) is "-".
func FormatLOS(p float64) string {
	if math.IsNaN(p) {
		return "-"
	}
	pct := 100 * p
	for d := 1; d <= losDecimalsMax; d++ {
		s := fmt.Sprintf("%.*f", d, pct)
		if s != fmt.Sprintf("%.*f", d, 100.0) && s != fmt.Sprintf("%.*f", d, 0.0) {
			return s + "%"
		}
	}
	if p > 0.5 {
		return fmt.Sprintf(">%.*f%%", losDecimalsMax, 100-math.Pow(10, -losDecimalsMax))
	}
	return fmt.Sprintf("<%.*f%%", losDecimalsMax, math.Pow(10, -losDecimalsMax))
}
