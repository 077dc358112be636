package stats

import (
	"errors"
	"fmt"
	"math"
)

// PairResult is the outcome of games between two players of a tournament,
// as input to BradleyTerry.
type PairResult struct {
	// A and B index the players, 0 <= A, B < n, A != B.
	A, B int
	// ScoreA is A's score per game: 1 a win, 0.5 a draw, 0 a loss (any
	// value in [0, 1] is accepted, e.g. the mean score of a match).
	ScoreA float64
	// Weight is how many games the result stands for; 0 counts as one
	// game, so a list of single games needs no weights.
	Weight float64
}

// Rating is one player's Bradley-Terry rating on the Elo scale, as a
// standings table shows it: Elo +/- Err95.
type Rating struct {
	// Elo is the rating: the mean of all players is 0 unless anchored.
	Elo float64
	// Err95 is the half width of the 95% interval (1.96 standard errors)
	// of Elo, relative to the players' mean, or to the anchor when anchored.
	Err95 float64
}

// DefaultBTPrior is the prior strength BradleyTerry uses: one virtual draw
// per player against the average player.
const DefaultBTPrior = 1.0

// BTOptions tunes BradleyTerryWith. The zero value gives BradleyTerry.
type BTOptions struct {
	// Prior is the number of virtual draws each player gets against the
	// average player (rating 0 in the mean-0 frame). It keeps the ratings
	// of players who won, or lost, every game finite. 0 means
	// DefaultBTPrior; a negative value turns the prior off (plain maximum
	// likelihood), in which case every player must have scored against,
	// and conceded to, the rest (the comparison graph must be strongly
	// connected) or ErrNoMLE is returned.
	Prior float64
	// Anchored shifts all ratings so that player Anchor is rated
	// AnchorElo, and reports errors relative to that player (whose own
	// Err95 is then 0), as Ordo does with an anchor.
	Anchored  bool
	Anchor    int
	AnchorElo float64
}

// ErrNoMLE reports that, without a prior, some players' maximum likelihood
// ratings are infinite: a group of players won (or lost) every game it
// played against the others, or a player has no games.
var ErrNoMLE = errors.New("stats: no finite maximum likelihood ratings: the results graph is not strongly connected (a group won or lost all its games, or a player has none); use a prior")

// eloPerNat converts the natural logistic scale to Elo: a rating gap of d
// natural units is an expected score 1/(1+e^-d), which is the Elo formula
// 1/(1+10^(-D/400)) for D = d * 400/ln 10.
const eloPerNat = 400 / math.Ln10

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// BradleyTerry rates the n players of a tournament from all its results at
// once with the Bradley-Terry (logistic Elo) model, as BayesElo and Ordo
// do for engine rating lists: P(i scores against j) = 1/(1+10^((Rj-Ri)/400)).
// A draw counts as half a win and half a loss. The ratings maximize the
// likelihood of all games times a weak prior (DefaultBTPrior virtual draws
// per player against the average player, which keeps players with all wins
// or all losses finite), under the constraint that they average 0. Err95
// comes from the observed information (the negative Hessian of the log
// posterior) restricted to that constraint. See BradleyTerryWith for
// options.
func BradleyTerry(n int, results []PairResult) ([]Rating, error) {
	return BradleyTerryWith(n, results, BTOptions{})
}

// BradleyTerryWith is BradleyTerry with options: the strength of the prior
// (or none) and an anchor player.
//
// The maximization is Newton's method with step halving on the log
// posterior, which is strictly concave on the mean-0 subspace, so it
// converges to the unique optimum.
func BradleyTerryWith(n int, results []PairResult, opt BTOptions) ([]Rating, error) {
	if n < 1 {
		return nil, fmt.Errorf("stats: BradleyTerry needs at least one player, got %d", n)
	}
	if opt.Anchored && (opt.Anchor < 0 || opt.Anchor >= n) {
		return nil, fmt.Errorf("stats: anchor %d out of range [0, %d)", opt.Anchor, n)
	}
	prior := opt.Prior
	if prior == 0 {
		prior = DefaultBTPrior
	}
	if prior < 0 || math.IsNaN(prior) {
		prior = 0
	}

	// games[i][j] is the number of games between i and j, score[i][j] i's
	// total score in them.
	games, score := make([][]float64, n), make([][]float64, n)
	for i := range games {
		games[i], score[i] = make([]float64, n), make([]float64, n)
	}
	for k, r := range results {
		if r.A < 0 || r.A >= n || r.B < 0 || r.B >= n || r.A == r.B {
			return nil, fmt.Errorf("stats: result %d: players %d and %d are not two of the %d players", k, r.A, r.B, n)
		}
		if !(r.ScoreA >= 0 && r.ScoreA <= 1) {
			return nil, fmt.Errorf("stats: result %d: score %v outside [0, 1]", k, r.ScoreA)
		}
		w := r.Weight
		if w == 0 {
			w = 1
		}
		if !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("stats: result %d: weight %v is not a positive finite number", k, r.Weight)
		}
		games[r.A][r.B] += w
		games[r.B][r.A] += w
		score[r.A][r.B] += w * r.ScoreA
		score[r.B][r.A] += w * (1 - r.ScoreA)
	}
	if prior == 0 && !stronglyConnected(score) {
		return nil, ErrNoMLE
	}

	theta := make([]float64, n)
	logPost := func(th []float64) float64 {
		f := 0.0
		for i := range n {
			for j := i + 1; j < n; j++ {
				if games[i][j] > 0 {
					d := th[i] - th[j]
					f += score[i][j]*logSigmoid(d) + score[j][i]*logSigmoid(-d)
				}
			}
			f += prior / 2 * (logSigmoid(th[i]) + logSigmoid(-th[i]))
		}
		return f
	}

	// kkt holds the negative Hessian bordered by the constraint sum = 0.
	kkt := make([][]float64, n+1)
	for i := range kkt {
		kkt[i] = make([]float64, n+1)
	}
	fillKKT := func(th []float64) (grad []float64) {
		grad = make([]float64, n+1)
		for i := range n {
			for j := range n + 1 {
				kkt[i][j] = 0
			}
			kkt[i][n], kkt[n][i] = 1, 1
		}
		kkt[n][n] = 0
		for i := range n {
			for j := i + 1; j < n; j++ {
				if games[i][j] == 0 {
					continue
				}
				p := sigmoid(th[i] - th[j])
				g := score[i][j] - games[i][j]*p
				grad[i] += g
				grad[j] -= g
				h := games[i][j] * p * (1 - p)
				kkt[i][i] += h
				kkt[j][j] += h
				kkt[i][j] -= h
				kkt[j][i] -= h
			}
			p := sigmoid(th[i])
			grad[i] += prior * (0.5 - p)
			kkt[i][i] += prior * p * (1 - p)
		}
		return grad
	}

	converged := false
	f := logPost(theta)
	next := make([]float64, n)
	for iter := 0; iter < 500 && !converged; iter++ {
		grad := fillKKT(theta)
		inv, ok := invert(kkt)
		if !ok {
			return nil, ErrNoMLE
		}
		step := make([]float64, n)
		for i := range n {
			for j := range n + 1 {
				step[i] += inv[i][j] * grad[j]
			}
		}
		maxStep := 0.0
		for _, s := range step {
			maxStep = math.Max(maxStep, math.Abs(s))
		}
		if maxStep < 1e-10 {
			converged = true
			break
		}
		// Halve the step until the posterior does not decrease: Newton
		// steps on a concave function only overshoot far from the optimum.
		for t := 1.0; ; t /= 2 {
			for i := range n {
				next[i] = theta[i] + t*step[i]
			}
			if fn := logPost(next); fn >= f || t < 1e-12 {
				f = fn
				break
			}
		}
		copy(theta, next)
	}
	if !converged {
		return nil, errors.New("stats: BradleyTerry did not converge")
	}

	fillKKT(theta)
	cov, ok := invert(kkt)
	if !ok {
		return nil, ErrNoMLE
	}
	out := make([]Rating, n)
	shift := 0.0
	if opt.Anchored {
		shift = opt.AnchorElo - theta[opt.Anchor]*eloPerNat
	}
	for i := range n {
		v := cov[i][i]
		if opt.Anchored {
			k := opt.Anchor
			v = cov[i][i] + cov[k][k] - 2*cov[i][k]
		}
		out[i] = Rating{
			Elo:   theta[i]*eloPerNat + shift,
			Err95: z95 * math.Sqrt(math.Max(v, 0)) * eloPerNat,
		}
	}
	return out, nil
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logSigmoid is log(1/(1+e^-x)) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// stronglyConnected reports whether every player can be reached from every
// other along "scored against" edges (i -> j when score[i][j] > 0), the
// condition for finite maximum likelihood Bradley-Terry ratings (Zermelo,
// Ford).
func stronglyConnected(score [][]float64) bool {
	n := len(score)
	reach := func(forward bool) bool {
		seen := make([]bool, n)
		seen[0] = true
		stack, count := []int{0}, 1
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := range n {
				s := score[i][j]
				if !forward {
					s = score[j][i]
				}
				if !seen[j] && s > 0 {
					seen[j] = true
					count++
					stack = append(stack, j)
				}
			}
		}
		return count == n
	}
	return reach(true) && reach(false)
}

// invert returns the inverse of the square matrix m by Gauss-Jordan
// elimination with partial pivoting, or false if m is singular.
func invert(m [][]float64) ([][]float64, bool) {
	n := len(m)
	a := make([][]float64, n)
	inv := make([][]float64, n)
	scale := 0.0
	for i := range m {
		a[i] = append([]float64(nil), m[i]...)
		inv[i] = make([]float64, n)
		inv[i][i] = 1
		for _, v := range m[i] {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	for col := range n {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		if math.Abs(a[p][col]) <= 1e-13*scale {
			return nil, false
		}
		a[col], a[p] = a[p], a[col]
		inv[col], inv[p] = inv[p], inv[col]
		d := a[col][col]
		for j := range n {
			a[col][j] /= d
			inv[col][j] /= d
		}
		for r := range n {
			if r == col || a[r][col] == 0 {
				continue
			}
			f := a[r][col]
			for j := range n {
				a[r][j] -= f * a[col][j]
				inv[r][j] -= f * inv[col][j]
			}
		}
	}
	return inv, true
}
