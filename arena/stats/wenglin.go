package stats

import "math"

// Skill is a Weng-Lin (OpenSkill) rating: a Gaussian belief about a
// player's skill with mean Mu and standard deviation Sigma.
type Skill struct{ Mu, Sigma float64 }

// DefaultSkill is a new player's skill, OpenSkill's default: Mu 25, Sigma
// 25/3.
func DefaultSkill() Skill { return Skill{Mu: 25, Sigma: 25.0 / 3} }

// Ordinal is the conservative skill estimate Mu - 3 Sigma that OpenSkill
// sorts leaderboards by (a new player's is 0).
func (s Skill) Ordinal() float64 { return s.Mu - 3*s.Sigma }

// Params are the Weng-Lin model parameters.
type Params struct {
	// Beta is the standard deviation of a player's performance in one game
	// around their skill.
	Beta float64
	// Kappa is the floor on the factor that shrinks a variance in one
	// update, which keeps Sigma positive.
	Kappa float64
	// Tau is added in quadrature to every Sigma before each update, so
	// that ratings can follow skill that changes over time. 0 suits bots
	// whose strength is fixed.
	Tau float64
	// LimitSigma keeps an update from raising a Sigma (which Tau can do),
	// as OpenSkill's limit_sigma option.
	LimitSigma bool
}

// DefaultParams are Beta 25/6 and Kappa 0.0001, OpenSkill's defaults, and
// Tau 0. (openskill.py's PlackettLuce model class defaults Tau to 25/300;
// its older rate() function, whose test vectors our tests use, applies
// none. Set Tau for that behaviour.)
func DefaultParams() Params { return Params{Beta: 25.0 / 6, Kappa: 0.0001} }

// PlackettLuce updates the skills of the players of one game from its
// outcome, with the Plackett-Luce update of Weng and Lin (2011, Algorithm
// 4) as openskill.py's PlackettLuce model computes it, each player being
// a team of one. ranks[i] is player i's place: lower is better and equal
// ranks are ties (handled as openskill does); nil ranks mean the players
// are listed in finishing order. It returns the new skills in the order
// of players and leaves players unchanged. Fewer than two players are
// returned unchanged. It panics if ranks is not nil and its length differs
// from that of players.
func PlackettLuce(players []Skill, ranks []int, p Params) []Skill {
	if ranks != nil && len(ranks) != len(players) {
		panic("stats: PlackettLuce: len(ranks) != len(players)")
	}
	teams := make([][]Skill, len(players))
	for i, s := range players {
		teams[i] = []Skill{s}
	}
	out := make([]Skill, len(players))
	for i, team := range plackettLuceTeams(teams, ranks, p) {
		out[i] = team[0]
	}
	return out
}

// plackettLuceTeams is the team form of the update: a team's skill is the
// sum of its players' (means and variances add), and each player's share
// of the team's update is in proportion to their variance.
func plackettLuceTeams(teams [][]Skill, ranks []int, p Params) [][]Skill {
	k := len(teams)
	out := make([][]Skill, k)
	for i, team := range teams {
		out[i] = append([]Skill(nil), team...)
	}
	if k < 2 {
		return out
	}
	rank := func(i int) int {
		if ranks == nil {
			return i
		}
		return ranks[i]
	}

	// Dynamics: widen every sigma by tau first.
	for _, team := range out {
		for j := range team {
			team[j].Sigma = math.Sqrt(team[j].Sigma*team[j].Sigma + p.Tau*p.Tau)
		}
	}
	mu, s2 := make([]float64, k), make([]float64, k)
	c2 := 0.0
	for i, team := range out {
		for _, s := range team {
			mu[i] += s.Mu
			s2[i] += s.Sigma * s.Sigma
		}
		c2 += s2[i] + p.Beta*p.Beta
	}
	c := math.Sqrt(c2)

	// sumQ[q] is the sum of exp(mu_s/c) over the teams s placed no better
	// than q, kept as its logarithm (log-sum-exp) so that large rating
	// gaps neither overflow nor underflow; a[q] counts the teams tied
	// with q.
	x := make([]float64, k)
	for i := range k {
		x[i] = mu[i] / c
	}
	logSumQ, a := make([]float64, k), make([]float64, k)
	for q := range k {
		m := math.Inf(-1)
		for s := range k {
			if rank(s) >= rank(q) {
				m = math.Max(m, x[s])
			}
		}
		sum := 0.0
		for s := range k {
			if rank(s) >= rank(q) {
				sum += math.Exp(x[s] - m)
			}
			if rank(s) == rank(q) {
				a[q]++
			}
		}
		logSumQ[q] = m + math.Log(sum)
	}

	for i := range k {
		omega, delta := 0.0, 0.0
		for q := range k {
			if rank(q) > rank(i) {
				continue
			}
			t := math.Exp(x[i] - logSumQ[q])
			delta += t * (1 - t) / a[q]
			if q == i {
				omega += (1 - t) / a[q]
			} else {
				omega -= t / a[q]
			}
		}
		omega *= s2[i] / c
		delta *= s2[i] / c2
		gamma := math.Sqrt(s2[i]) / c
		delta *= gamma
		for j := range out[i] {
			pl := &out[i][j]
			share := pl.Sigma * pl.Sigma / s2[i]
			pl.Mu += share * omega
			pl.Sigma *= math.Sqrt(math.Max(1-share*delta, p.Kappa))
			if p.LimitSigma {
				pl.Sigma = math.Min(pl.Sigma, teams[i][j].Sigma)
			}
		}
	}
	return out
}
