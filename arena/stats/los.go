package stats

import "math"

// LOS is the likelihood of superiority of the side that scored r: the
// probability that it is the stronger side, Phi((W-L)/sqrt(W+L)) with Phi
// the standard normal distribution function. Draws carry no information
// about which side is stronger and are ignored, as in cutechess and
// fastchess. With no decisive game LOS is 0.5.
func LOS(r WDL) float64 {
	decisive := float64(r.W + r.L)
	if decisive <= 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(r.W-r.L)/math.Sqrt(2*decisive)))
}
