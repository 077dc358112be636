package stats

// Penta counts game pairs by the test side's pair score: index 0..4 = 0,
// 1/4, 1/2, 3/4, 1. A pair is two games of the same deal (opening, seed)
// with the two sides in swapped seats; its score is the mean of the test
// side's two game scores (win 1, draw 1/2, loss 0), so index 0 is LL, 1 is
// LD or DL, 2 is WL, LW or DD, 3 is WD or DW and 4 is WW.
type Penta [5]int

// Pairs is the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Add counts one pair from the test side's two game scores, each 0, 1/2
// or 1 (other values are rounded to the nearest half).
func (p *Penta) Add(s1, s2 float64) {
	i := int(2*(s1+s2) + 0.5)
	p[min(max(i, 0), 4)]++
}

// Games is the number of games counted, two per pair.
func (p Penta) Games() int { return 2 * p.Pairs() }

// Score is the test side's mean score per game (0 with no pairs).
func (p Penta) Score() float64 {
	n := p.Pairs()
	if n == 0 {
		return 0
	}
	sum := 0.0
	for i, c := range p {
		sum += float64(c) * float64(i) / 4
	}
	return sum / float64(n)
}
