// Package stats turns game results into ratings: Elo differences with
// error bars, the likelihood of superiority, SPRTs on normalized Elo,
// Bradley-Terry ratings of a field and Weng-Lin (Plackett-Luce) skills.
package stats

import (
	"math"
)

// WDL counts one side's wins, draws and losses. The JSON names are
// sprt.json's ("wdl").
type WDL struct {
	W int `json:"wins"`
	D int `json:"draws"`
	L int `json:"losses"`
}

// Games is the number of games counted.
func (r WDL) Games() int { return r.W + r.D + r.L }

// Score is the mean score per game (win 1, draw 1/2, loss 0).
func (r WDL) Score() float64 {
	if r.Games() == 0 {
		return 0
	}
	return (float64(r.W) + 0.5*float64(r.D)) / float64(r.Games())
}

// EloFromScore converts an expected score into an Elo difference,
// 400 log10(p/(1-p)) (+0 at p = 1/2, not -0, so it prints as +0.0). Scores at or beyond 0 and 1 give -Inf and +Inf: no
// finite difference explains them (an interval end past them is open).
func EloFromScore(p float64) float64 {
	switch {
	case p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return math.Inf(1)
	}
	return 400 * math.Log10(p/(1-p))
}

// Elo is an Elo difference with a 95% interval. The interval is asymmetric
// in general (the Elo scale stretches towards scores 0 and 1), and an end
// is infinite when the data do not bound the difference on that side; so
// it is Low..High, never a "+/-".
type Elo struct {
	Diff, Low, High float64
	// Valid is false when the score is 0 or 1: Diff is infinite and the
	// interval is one-sided (Low, or High, is the finite bound).
	Valid bool
}

// EloDiff estimates the Elo difference of the side that scored r, with a
// 95% interval from the trinomial (win/draw/loss) variance of the score,
// as cutechess and fastchess report it: the normal interval of the mean
// score, mu +/- 1.96 SE, with each end converted to Elo. An end beyond
// score 0 or 1 is -Inf or +Inf (open): a 9-1 score over 10 games is
// [+159, +Inf), not the +/-1720 that clamping the end to 1 - 1e-9 gave.
// When one side won every game the normal interval collapses and the
// exact one-sided bound is given instead (see scoreElo).
func EloDiff(r WDL) Elo {
	n := float64(r.Games())
	if n == 0 {
		return Elo{}
	}
	p := r.Score()
	w, d, l := float64(r.W)/n, float64(r.D)/n, float64(r.L)/n
	variance := w*(1-p)*(1-p) + d*(0.5-p)*(0.5-p) + l*(0-p)*(0-p)
	diff, lo, hi := scoreElo(p, math.Sqrt(variance/n), n)
	return Elo{Diff: diff, Low: lo, High: hi, Valid: p > 0 && p < 1}
}

// scoreElo is the Elo estimate and 95% interval of a mean score mu with
// standard error se over games games. The interval is mu +/- z95 se
// converted to Elo end by end (open past 0 or 1). When every game went one
// way (mu 1 or 0) the estimate is infinite and the finite end is the exact
// bound: all n won means p >= 0.025^(1/n) at 95% (Clopper-Pearson,
// two-sided), for example at least +278 for 20 of 20 and only -291 for 2
// of 2 (two games do not show which side is stronger).
func scoreElo(mu, se, games float64) (diff, lo, hi float64) {
	switch {
	case mu >= 1:
		return math.Inf(1), EloFromScore(math.Pow(0.025, 1/games)), math.Inf(1)
	case mu <= 0:
		return math.Inf(-1), math.Inf(-1), -EloFromScore(math.Pow(0.025, 1/games))
	}
	return EloFromScore(mu), EloFromScore(mu - z95*se), EloFromScore(mu + z95*se)
}

// Symmetric reports whether the interval [lo, hi] around v is finite and
// about symmetric (its two sides within 10% of each other, or of 1), so
// that "v +/- (hi-lo)/2" describes it; otherwise an output shows both
// ends.
func Symmetric(v, lo, hi float64) bool {
	for _, f := range []float64{v, lo, hi} {
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return false
		}
	}
	half := (hi - lo) / 2
	return math.Abs((v-lo)-(hi-v)) <= 0.1*math.Max(half, 1)
}
