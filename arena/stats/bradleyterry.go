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

// SD is the standard error of Elo, the sd behind Err95.
func (r Rating) SD() float64 { return r.Err95 / z95 }

// DefaultBTPrior is the prior strength BradleyTerry uses: one virtual draw
// per player against a reference player rated 0.
const DefaultBTPrior = 1.0

// BTOptions tunes BradleyTerryWith. The zero value gives BradleyTerry.
type BTOptions struct {
	// Prior is the number of virtual draws each player gets against a
	// reference player rated 0 (the middle of the field, when it is about
	// as strong above as below). It keeps the ratings of players who won,
	// or lost, every game finite. 0 means DefaultBTPrior; a negative
	// value turns the prior off (plain maximum likelihood), in which case
	// every player must have scored against, and conceded to, the rest
	// (the comparison graph must be strongly connected) or ErrNoMLE is
	// returned.
	Prior float64
	// Anchored shifts all ratings so that player Anchor is rated
	// AnchorElo, and reports errors relative to that player (whose own
	// Err95 is then 0), as Ordo does with an anchor.
	Anchored  bool
	Anchor    int
	AnchorElo float64
}

// ErrNoRatings is wrapped by every error BradleyTerry and BradleyTerryWith
// return, so a caller that can do without ratings (a standings table
// shown without them, with a warning) tests for it with errors.Is.
var ErrNoRatings = errors.New("stats: no ratings")

// The reasons for ErrNoRatings; each wraps it.
var (
	// ErrNoMLE reports that, without a prior, some players' maximum
	// likelihood ratings are infinite: a group of players won (or lost)
	// every game it played against the others, or a player has no games.
	ErrNoMLE = fmt.Errorf("%w: no finite maximum likelihood ratings: the results graph is not strongly connected (a group won or lost all its games, or a player has none); use a prior", ErrNoRatings)
	// ErrBadResults reports input that is not a tournament's results: a
	// player index out of range, a score outside [0, 1], a bad weight.
	ErrBadResults = fmt.Errorf("%w: bad results", ErrNoRatings)
	// ErrNotConverged reports that the fit stopped at btMaxSweeps. The
	// MM iteration converges on every valid input (see fitBT); this is
	// a guard, not an expected outcome.
	ErrNotConverged = fmt.Errorf("%w: the rating fit did not converge", ErrNoRatings)
)

// eloPerNat converts the natural logistic scale to Elo: a rating gap of d
// natural units is an expected score 1/(1+e^-d), which is the Elo formula
// 1/(1+10^(-D/400)) for D = d * 400/ln 10.
const eloPerNat = 400 / math.Ln10

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

const (
	// btTolerance is when the fit stops: every player's expected score
	// (games and virtual games) is within btTolerance of its actual score,
	// per game. That is far below anything a table shows (a rating moves
	// by well under 1e-6 Elo) and far above the rounding of the sums
	// (about 1e-15 per game), so it is always reached: a stopping test
	// that rounding can defeat is what made the earlier Newton fit fail
	// with "did not converge" on valid ledgers.
	btTolerance = 1e-10
	// btMaxSweeps bounds the iteration. Round robins, Swiss and
	// elimination ledgers of up to 40 bots converge in tens of sweeps.
	btMaxSweeps = 100000
)

// BradleyTerry rates the n players of a tournament from all its results at
// once with the Bradley-Terry (logistic Elo) model, as BayesElo and Ordo
// do for engine rating lists: P(i scores against j) = 1/(1+10^((Rj-Ri)/400)).
// A draw counts as half a win and half a loss.
//
// The ratings are a maximum a posteriori estimate, not maximum likelihood:
// they maximize the likelihood of all games times a weak prior,
// DefaultBTPrior virtual draws per player against a reference player rated
// 0 (half a virtual win and half a virtual loss each), which keeps players
// with all wins or all losses finite and pulls every rating slightly
// towards the middle of the field. They are reported relative to their
// mean (which is then 0). Err95 comes from the observed information (the
// negative Hessian of the log posterior) of each rating minus the mean.
// Errors wrap ErrNoRatings. See BradleyTerryWith for options.
func BradleyTerry(n int, results []PairResult) ([]Rating, error) {
	return BradleyTerryWith(n, results, BTOptions{})
}

// BradleyTerryWith is BradleyTerry with options: the strength of the prior
// (or none) and an anchor player. Errors wrap ErrNoRatings, and one of
// ErrNoMLE, ErrBadResults or ErrNotConverged.
func BradleyTerryWith(n int, results []PairResult, opt BTOptions) ([]Rating, error) {
	fit, err := BradleyTerryFit(n, results, opt)
	if err != nil {
		return nil, err
	}
	return fit.Ratings, nil
}

// BTFit is a Bradley-Terry fit: the ratings, and the covariance of their
// estimates, which a comparison of two ratings needs (their errors are
// correlated: each is relative to the others).
type BTFit struct {
	Ratings []Rating
	cov     [][]float64 // of theta, the natural scale
}

// DiffSD is the standard deviation, in Elo, of Ratings[i].Elo -
// Ratings[j].Elo: sqrt(C_ii + C_jj - 2 C_ij) of the fit's covariance C.
// It is not the two Err95s combined as if independent: relative to their
// mean, two ratings' errors are negatively correlated (with two players,
// each error is half the difference's), which those would understate.
func (f *BTFit) DiffSD(i, j int) float64 {
	v := f.cov[i][i] + f.cov[j][j] - 2*f.cov[i][j]
	return math.Sqrt(math.Max(v, 0)) * eloPerNat
}

// BradleyTerryFit is BradleyTerryWith with the covariance of the fit
// kept, for comparisons of two ratings (BTFit.DiffSD).
func BradleyTerryFit(n int, results []PairResult, opt BTOptions) (*BTFit, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: BradleyTerry needs at least one player, got %d", ErrBadResults, n)
	}
	if opt.Anchored && (opt.Anchor < 0 || opt.Anchor >= n) {
		return nil, fmt.Errorf("%w: anchor %d out of range [0, %d)", ErrBadResults, opt.Anchor, n)
	}
	prior := opt.Prior
	if prior == 0 {
		prior = DefaultBTPrior
	}
	if prior < 0 || math.IsNaN(prior) {
		prior = 0
	}
	if math.IsInf(prior, 0) {
		return nil, fmt.Errorf("%w: prior %v is not finite", ErrBadResults, opt.Prior)
	}

	// games[i][j] is the number of games between i and j, score[i][j] i's
	// total score in them.
	games, score := square(n), square(n)
	for k, r := range results {
		if r.A < 0 || r.A >= n || r.B < 0 || r.B >= n || r.A == r.B {
			return nil, fmt.Errorf("%w: result %d: players %d and %d are not two of the %d players", ErrBadResults, k, r.A, r.B, n)
		}
		if !(r.ScoreA >= 0 && r.ScoreA <= 1) {
			return nil, fmt.Errorf("%w: result %d: score %v outside [0, 1]", ErrBadResults, k, r.ScoreA)
		}
		w := r.Weight
		if w == 0 {
			w = 1
		}
		if !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("%w: result %d: weight %v is not a positive finite number", ErrBadResults, k, r.Weight)
		}
		games[r.A][r.B] += w
		games[r.B][r.A] += w
		score[r.A][r.B] += w * r.ScoreA
		score[r.B][r.A] += w * (1 - r.ScoreA)
	}
	if prior == 0 && !stronglyConnected(score) {
		return nil, ErrNoMLE
	}
	m := &btModel{n: n, games: games, prior: prior, wins: make([]float64, n), total: make([]float64, n)}
	for i := range n {
		for j := range n {
			m.wins[i] += score[i][j]
			m.total[i] += games[i][j]
		}
		m.wins[i] += prior / 2
		m.total[i] += prior
	}
	theta, err := m.fit(true)
	if err != nil {
		return nil, err
	}
	cov, ok := m.covariance(theta)
	if !ok {
		return nil, fmt.Errorf("%w: the information matrix is singular", ErrNotConverged)
	}

	out := make([]Rating, n)
	mean := 0.0
	for _, t := range theta {
		mean += t / float64(n)
	}
	shift := -mean * eloPerNat
	if opt.Anchored {
		shift = opt.AnchorElo - theta[opt.Anchor]*eloPerNat
	}
	// Var(theta_i - mean) = C_ii - 2 rowmean_i + mean of C; without a
	// prior C's rows already sum to 0.
	rowMean := make([]float64, n)
	allMean := 0.0
	for i := range n {
		for j := range n {
			rowMean[i] += cov[i][j] / float64(n)
		}
		allMean += rowMean[i] / float64(n)
	}
	for i := range n {
		v := cov[i][i] - 2*rowMean[i] + allMean
		if opt.Anchored {
			k := opt.Anchor
			v = cov[i][i] + cov[k][k] - 2*cov[i][k]
		}
		out[i] = Rating{
			Elo:   theta[i]*eloPerNat + shift,
			Err95: z95 * math.Sqrt(math.Max(v, 0)) * eloPerNat,
		}
	}
	return &BTFit{Ratings: out, cov: cov}, nil
}

// btModel is the log posterior BradleyTerryWith maximizes, on the natural
// scale (theta = Elo / eloPerNat):
//
//	sum over pairs i<j of s_ij log P(theta_i - theta_j) + s_ji log P(theta_j - theta_i)
//	+ prior/2 * sum_i (log P(theta_i) + log P(-theta_i))
//
// with P the logistic function and s_ij i's score against j.
type btModel struct {
	n     int
	games [][]float64
	prior float64
	// wins[i] is i's score, virtual half wins included; total[i] its
	// games, virtual games included.
	wins, total []float64
}

// expected is player i's expected score (virtual games included): the
// log posterior's gradient in theta_i is wins[i] - expected(i).
func (m *btModel) expected(theta []float64, i int) float64 {
	e := m.prior * sigmoid(theta[i])
	for j, g := range m.games[i] {
		if g > 0 {
			e += g * sigmoid(theta[i]-theta[j])
		}
	}
	return e
}

// residual is the largest gap between a player's score and its expected
// score, per game: 0 exactly at the optimum.
func (m *btModel) residual(theta []float64) float64 {
	r := 0.0
	for i := range m.n {
		if m.total[i] > 0 {
			r = math.Max(r, math.Abs(m.wins[i]-m.expected(theta, i))/m.total[i])
		}
	}
	return r
}

// fit maximizes the log posterior by the MM algorithm of Hunter (2004,
// "MM algorithms for generalized Bradley-Terry models"), one player at a
// time: theta_i += log(wins_i / expected_i). Each such step maximizes a
// function that lies below the log posterior and touches it at the
// current point, so the posterior never decreases, every step is defined
// (wins_i > 0: the prior's half win, or without a prior strong
// connectivity), and the iteration converges to the unique optimum (the
// posterior is strictly concave with a prior; without one it is up to a
// common shift, removed after each sweep). MM is slow only near the end,
// where it converges linearly; there a Newton step is tried and kept only
// if it at least halves the residual, which needs no comparison of
// posterior values (those differ in their last digits near the optimum:
// the step-halving line search the earlier fit used could not tell them
// apart and ran out of iterations). useNewton false is MM alone (tests).
func (m *btModel) fit(useNewton bool) ([]float64, error) {
	theta := make([]float64, m.n)
	r := m.residual(theta)
	wait, waited := 0, 0 // MM sweeps between Newton attempts
	for range btMaxSweeps {
		if r <= btTolerance {
			return theta, nil
		}
		if useNewton && waited >= wait {
			waited = 0
			if next, ok := m.newton(theta); ok {
				if rn := m.residual(next); rn <= r/2 {
					theta, r, wait = next, rn, 0
					continue
				}
			}
			wait = min(2*wait+1, 64) // far from the optimum: MM for a while
		}
		waited++
		for i := range m.n {
			if m.total[i] > 0 {
				theta[i] += math.Log(m.wins[i] / m.expected(theta, i))
			}
		}
		if m.prior == 0 {
			center(theta)
		}
		r = m.residual(theta)
	}
	return nil, ErrNotConverged
}

func center(x []float64) {
	mean := 0.0
	for _, v := range x {
		mean += v / float64(len(x))
	}
	for i := range x {
		x[i] -= mean
	}
}

// information is the negative Hessian of the log posterior at theta; without
// a prior it is singular along (1, ..., 1) and J/n is added, which makes
// it positive definite when the results graph is connected and leaves
// every step and covariance orthogonal to that direction unchanged.
func (m *btModel) information(theta []float64) [][]float64 {
	h := square(m.n)
	for i := range m.n {
		for j := i + 1; j < m.n; j++ {
			if g := m.games[i][j]; g > 0 {
				p := sigmoid(theta[i] - theta[j])
				v := g * p * (1 - p)
				h[i][i] += v
				h[j][j] += v
				h[i][j] -= v
				h[j][i] -= v
			}
		}
		p := sigmoid(theta[i])
		h[i][i] += m.prior * p * (1 - p)
	}
	if m.prior == 0 {
		for i := range h {
			for j := range h[i] {
				h[i][j] += 1 / float64(m.n)
			}
		}
	}
	return h
}

// newton returns theta plus the Newton step, or false when the
// information matrix is not numerically positive definite.
func (m *btModel) newton(theta []float64) ([]float64, bool) {
	l, ok := cholesky(m.information(theta))
	if !ok {
		return nil, false
	}
	g := make([]float64, m.n)
	for i := range g {
		g[i] = m.wins[i] - m.expected(theta, i)
	}
	step := choleskySolve(l, g)
	next := make([]float64, m.n)
	for i := range next {
		next[i] = theta[i] + step[i]
		if math.IsNaN(next[i]) || math.IsInf(next[i], 0) {
			return nil, false
		}
	}
	return next, true
}

// covariance is the inverse of the information at theta: the posterior
// covariance of theta under the normal approximation (without a prior, of
// theta relative to its mean: the J/n added to the information is taken
// out again).
func (m *btModel) covariance(theta []float64) ([][]float64, bool) {
	l, ok := cholesky(m.information(theta))
	if !ok {
		return nil, false
	}
	c := square(m.n)
	e := make([]float64, m.n)
	for j := range m.n {
		clear(e)
		e[j] = 1
		col := choleskySolve(l, e)
		for i := range m.n {
			c[i][j] = col[i]
			if m.prior == 0 {
				c[i][j] -= 1 / float64(m.n)
			}
		}
	}
	return c, true
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

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

func square(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// cholesky returns the lower triangular L with L L^T = a, or false if a is
// not (numerically) positive definite.
func cholesky(a [][]float64) ([][]float64, bool) {
	n := len(a)
	l := square(n)
	for j := range n {
		d := a[j][j]
		for k := range j {
			d -= l[j][k] * l[j][k]
		}
		if !(d > 0) {
			return nil, false
		}
		l[j][j] = math.Sqrt(d)
		for i := j + 1; i < n; i++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			l[i][j] = s / l[j][j]
		}
	}
	return l, true
}

// choleskySolve solves L L^T x = b.
func choleskySolve(l [][]float64, b []float64) []float64 {
	n := len(l)
	y := make([]float64, n)
	for i := range n {
		s := b[i]
		for k := range i {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x
}
