package matchmaking

import (
	"math"
	"slices"
)

// Spearman is the rank correlation of x and y (of equal lengths): the
// Pearson correlation of their ranks, tied values given their average
// rank. It is the convergence measure of the package doc: x a ladder's
// standings (Ordinal), y the true strengths, whose ties (copies of one
// bot) make any order among them right. NaN when either has a single
// value.
func Spearman(x, y []float64) float64 {
	return pearson(ranks(x), ranks(y))
}

// ranks are the ranks of x from 0, ties averaged.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		for t := i; t < j; t++ {
			r[idx[t]] = float64(i+j-1) / 2
		}
		i = j
	}
	return r
}

func pearson(a, b []float64) float64 {
	n := float64(len(a))
	var ma, mb float64
	for i := range a {
		ma += a[i] / n
		mb += b[i] / n
	}
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}
