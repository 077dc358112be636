// Package stats turns game results into ratings: Elo differences with
// error bars now; SPRT and multiplayer ratings live here too as they come.
package stats

import (
	"math"
)

// WDL counts one side's wins, draws and losses.
type WDL struct{ W, D, L int }

// Games is the number of games counted.
func (r WDL) Games() int { return r.W + r.D + r.L }

// Score is the mean score per game (win 1, draw 1/2, loss 0).
func (r WDL) Score() float64 {
	if r.Games() == 0 {
		return 0
	}
	return (float64(r.W) + 0.5*float64(r.D)) / float64(r.Games())
}

// EloFromScore converts an expected score into an Elo difference.
func EloFromScore(p float64) float64 {
	return -400 * math.Log10(1/p-1)
}

// Elo is an Elo difference with a 95% interval.
type Elo struct {
	Diff, Low, High float64
	// Valid is false when the score is 0 or 1: Diff is infinite and the
	// interval is one-sided (Low, or High, is the finite bound).
	Valid bool
}

// EloDiff estimates the Elo difference of the side that scored r, with a
// 95% interval from the trinomial (win/draw/loss) variance of the score,
// as cutechess and fastchess report it.
func EloDiff(r WDL) Elo {
	n := float64(r.Games())
	if n == 0 {
		return Elo{}
	}
	p := r.Score()
	if p <= 0 || p >= 1 {
		// Every game went one way: the normal interval collapses, but the
		// exact binomial bound still says how far apart the sides are at
		// least: all n won means p >= 0.025^(1/n) at 95% (two-sided).
		bound := EloFromScore(math.Pow(0.025, 1/n))
		if p >= 1 {
			return Elo{Diff: math.Inf(1), Low: bound, High: math.Inf(1)}
		}
		return Elo{Diff: math.Inf(-1), Low: math.Inf(-1), High: -bound}
	}
	w, d, l := float64(r.W)/n, float64(r.D)/n, float64(r.L)/n
	variance := w*(1-p)*(1-p) + d*(0.5-p)*(0.5-p) + l*(0-p)*(0-p)
	se := math.Sqrt(variance / n)
	const z95 = 1.959963984540054
	lo, hi := clampScore(p-z95*se), clampScore(p+z95*se)
	return Elo{Diff: EloFromScore(p), Low: EloFromScore(lo), High: EloFromScore(hi), Valid: true}
}

func clampScore(p float64) float64 {
	const eps = 1e-9
	return math.Min(math.Max(p, eps), 1-eps)
}

// ErrorBar is half the width of the interval, the usual "+/-" figure.
func (e Elo) ErrorBar() float64 { return (e.High - e.Low) / 2 }
