package stats

import "math"

// LOS is the likelihood of superiority of the side that scored r: the
// probability that it is the stronger side, Phi((mu - 1/2)/SE) with mu the
// mean score, SE its standard error from the variance of the game scores
// (wins, draws and losses: trinomial) and Phi the standard normal
// distribution function, as fastchess computes it. This is the one LOS
// convention of the arena: EstimatePenta uses the same formula with the
// variance of pair scores, so unpaired and paired runs, arena match and a
// tournament's pairs all report the same quantity. (cutechess's
// Phi((W-L)/sqrt(W+L)) counts decisive games only; it is the same to first
// order but larger in magnitude: (W-L)/sqrt(W+L - (W-L)^2/n) is this one's
// z.)
//
// Where the formula divides by zero, every game scored the same: LOS is 1
// if that is a win, 0 a loss, and 1/2 for draws only (no evidence either
// way; fastchess's 0/0 gives NaN, which JSON cannot carry). No games: 1/2.
func LOS(r WDL) float64 {
	r = WDL{max(r.W, 0), max(r.D, 0), max(r.L, 0)}
	n := float64(r.Games())
	if n == 0 {
		return 0.5
	}
	mu, variance := meanVar(triScores, []float64{float64(r.L) / n, float64(r.D) / n, float64(r.W) / n})
	return normalLOS(mu, variance/n)
}

// normalLOS is the probability that a normal mean with estimate mu and
// variance v is above 1/2, with LOS's conventions for v = 0.
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
