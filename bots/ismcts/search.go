// Package ismcts is information-set Monte Carlo tree search (single
// observer ISMCTS, Cowling, Powley and Whitehouse 2012) for the card
// games with hidden hands, Uno/Bounce and Boon, and the arena bot that
// plays it.
//
// The searching seat cannot see the other hands, so it cannot search the
// game tree itself. Each iteration it deals the unseen cards at random,
// consistently with everything it has seen (a determinization, Game: a
// state sampled by the engine's observer of the seat's views,
// engine.Sampler),
// and walks one tree whose nodes are the sequences of actions from its
// decision: a node stands for every state that the actions could lead to
// in any deal, which is the seat's information set when it is its own
// move. Only the children legal in this deal are candidates (UCB with
// availability counts: a child's exploration term counts the iterations
// in which it could have been chosen), one new child is added, the game
// is played out to the end of the hand with a cheap policy, and the
// result is credited along the path, each node to the seat that chose
// it. The search's move is the root child visited most: the aggregate
// over all the deals sampled. The Bot plays it only if it beats its
// Fallback's move (greedy's) by Config.Confidence standard errors of
// their mean rewards (Result.Beats), else the Fallback's.
package ismcts

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// State is one determinization being played forward by the search. A
// is the game's action type (a comparable value).
type State[A comparable] interface {
	// ToMove is the seat deciding now.
	ToMove() int
	// Legal appends the legal actions to dst.
	Legal(dst []A) []A
	// Apply plays a legal action.
	Apply(a A)
	// Done reports the end of the search's horizon: the hand, round or
	// game is over.
	Done() bool
	// Rewards writes every seat's result in [0, 1] into dst (len seats):
	// at Done the real result, else (a playout cut short) an estimate.
	Rewards(dst []float64)
	// Rollout picks the playout's action among legal.
	Rollout(legal []A, rng *rand.Rand) A
}

// Autopilot is implemented by a State some of whose decisions the
// search leaves to the playout policy when they come below the root (a
// Boon picker's burial after the take, four decisions of a dozen actions
// each: searched, their random first tries would make taking look worse
// than it is). The seat's own decision at the root is always searched.
type Autopilot interface {
	Autopilot() bool
}

// Game deals the determinizations of the searching seat's information
// set.
type Game[A comparable] interface {
	// Seats is the number of seats.
	Seats() int
	// Determinize returns a state consistent with what the seat has seen,
	// the unseen cards dealt with rng; nil if it cannot (the search then
	// gives up on the iteration).
	Determinize(rng *rand.Rand) State[A]
}

// Limits bound one search.
type Limits struct {
	// Iterations is the most iterations (0: no limit but the deadline;
	// with neither, 1000).
	Iterations int
	// Deadline, if not zero, stops the search once passed (checked every
	// few iterations).
	Deadline time.Time
	// Exploration is UCB's constant c (0: 0.7).
	Exploration float64
	// MaxPlayout caps the plies of a playout (0: 400); a playout cut
	// short is scored by State.Rewards' estimate.
	MaxPlayout int
}

// Result is what a search found.
type Result struct {
	// Best is the index into the root's actions of the move to play.
	Best int
	// Visits per root action, and the sum of the searching seat's
	// rewards over them and of their squares.
	Visits          []int
	Reward, Reward2 []float64
	// Iterations run and Nodes (states applied: tree and playout plies).
	Iterations, Nodes int
}

type node[A comparable] struct {
	action   A
	seat     int // the seat that chose action
	children []*node[A]
	visits   float64
	avail    float64
	reward   float64
	reward2  float64 // sum of squared rewards (the root's children)
}

// Search runs ISMCTS from the searching seat's decision, whose legal
// actions are root (the same in every determinization: they depend only
// on what the seat sees), and returns the best of them.
func Search[A comparable](g Game[A], root []A, lim Limits, rng *rand.Rand) Result {
	res := Result{Visits: make([]int, len(root)), Reward: make([]float64, len(root)), Reward2: make([]float64, len(root))}
	if len(root) <= 1 {
		return res
	}
	iters := lim.Iterations
	if iters <= 0 && lim.Deadline.IsZero() {
		iters = 1000
	}
	c := lim.Exploration
	if c <= 0 {
		c = 0.7
	}
	maxPlayout := lim.MaxPlayout
	if maxPlayout <= 0 {
		maxPlayout = 400
	}
	top := &node[A]{}
	rewards := make([]float64, g.Seats())
	var legal []A
	var path []*node[A]
	inRoot := func(a A) bool {
		for _, r := range root {
			if r == a {
				return true
			}
		}
		return false
	}
	for it := 0; iters <= 0 || it < iters; it++ {
		if !lim.Deadline.IsZero() && it&7 == 0 && it > 0 && time.Now().After(lim.Deadline) {
			break
		}
		s := g.Determinize(rng)
		if s == nil {
			continue
		}
		res.Iterations++
		n := top
		path = append(path[:0], n)
		depth := 0
		// Selection and expansion.
		for !s.Done() {
			legal = s.Legal(legal[:0])
			if n == top {
				// The root's actions are the seat's own: keep to them
				// (they are the same in every deal).
				k := 0
				for _, a := range legal {
					if inRoot(a) {
						legal[k] = a
						k++
					}
				}
				legal = legal[:k]
			}
			if len(legal) == 0 {
				break
			}
			if n != top {
				if ap, ok := s.(Autopilot); ok && ap.Autopilot() {
					s.Apply(s.Rollout(legal, rng))
					depth++
					continue
				}
			}
			p := s.ToMove()
			// Untried actions in this deal, and availability of the tried.
			var untried []A
			var best *node[A]
			bestScore := math.Inf(-1)
			for _, a := range legal {
				ch := n.child(a, p)
				if ch == nil {
					untried = append(untried, a)
					continue
				}
				ch.avail++
			}
			if len(untried) > 0 {
				a := untried[rng.IntN(len(untried))]
				ch := &node[A]{action: a, seat: p, avail: 1}
				n.children = append(n.children, ch)
				s.Apply(a)
				depth++
				path = append(path, ch)
				break
			}
			for _, ch := range n.children {
				if ch.seat != p || !slices.Contains(legal, ch.action) {
					continue
				}
				sc := ch.reward/ch.visits + c*math.Sqrt(math.Log(ch.avail)/ch.visits)
				if sc > bestScore {
					best, bestScore = ch, sc
				}
			}
			s.Apply(best.action)
			depth++
			n = best
			path = append(path, n)
		}
		// Playout.
		for k := 0; k < maxPlayout && !s.Done(); k++ {
			legal = s.Legal(legal[:0])
			if len(legal) == 0 {
				break
			}
			s.Apply(s.Rollout(legal, rng))
			depth++
		}
		res.Nodes += depth
		s.Rewards(rewards)
		for _, x := range path[1:] {
			x.visits++
			x.reward += rewards[x.seat]
		}
		if len(path) > 1 {
			path[1].reward2 += rewards[path[1].seat] * rewards[path[1].seat]
		}
		top.visits++
	}
	best, bestVisits, bestReward := 0, -1.0, 0.0
	for i, a := range root {
		for _, ch := range top.children {
			if ch.action == a {
				res.Visits[i] += int(ch.visits)
				res.Reward[i] += ch.reward
				res.Reward2[i] += ch.reward2
				// Most visits; ties to the higher total reward.
				if ch.visits > bestVisits || ch.visits == bestVisits && ch.reward > bestReward {
					best, bestVisits, bestReward = i, ch.visits, ch.reward
				}
			}
		}
	}
	res.Best = best
	return res
}

// Beats reports whether root action i's mean reward beats action d's by
// more than z standard errors of the difference of the two means. Each
// action's variance counts one more reward of variance 1/4 (a fair
// coin's), so that a few equal rewards do not pass for certainty, and an
// action never tried knows nothing.
func (r Result) Beats(i, d int, z float64) bool {
	ni, nd := float64(r.Visits[i]), float64(r.Visits[d])
	if ni == 0 || nd == 0 {
		return false
	}
	mi, md := r.Reward[i]/ni, r.Reward[d]/nd
	se2 := func(n, m, sq float64) float64 { return (max(sq-n*m*m, 0) + 0.25) / (n + 1) / n }
	return mi-md > z*math.Sqrt(se2(ni, mi, r.Reward2[i])+se2(nd, md, r.Reward2[d]))
}

func (n *node[A]) child(a A, seat int) *node[A] {
	for _, ch := range n.children {
		if ch.action == a && ch.seat == seat {
			return ch
		}
	}
	return nil
}

// Paired is the paired comparison of root actions (Compare): for each
// candidate, the mean of its reward less the base action's over the
// same deals, and the standard error of that mean.
type Paired struct {
	Mean, SE float64
	N        int
}

// Compare plays each of the root actions cands and base from the same n
// determinizations, one playout each with the same random numbers
// (common random numbers: the same deal, the same draw pile and the same
// reshuffles, so that the noise the actions share cancels in their
// difference), and returns for each candidate its paired difference to
// base, for the seat deciding at the root. It stops at lim.Deadline too.
func Compare[A comparable](g Game[A], root []A, cands []int, base int, n int, lim Limits, rng *rand.Rand) []Paired {
	maxPlayout := lim.MaxPlayout
	if maxPlayout <= 0 {
		maxPlayout = 400
	}
	out := make([]Paired, len(cands))
	sum, sum2 := make([]float64, len(cands)), make([]float64, len(cands))
	rewards := make([]float64, g.Seats())
	var legal []A
	pcg := rand.NewPCG(0, 0)
	r := rand.New(pcg) // a Rand holds nothing but its source: reseeded, it repeats the stream
	play := func(a A, s1, s2 uint64) (float64, bool) {
		pcg.Seed(s1, s2)
		s := g.Determinize(r)
		if s == nil {
			return 0, false
		}
		me := s.ToMove()
		s.Apply(a)
		for k := 0; k < maxPlayout && !s.Done(); k++ {
			legal = s.Legal(legal[:0])
			if len(legal) == 0 {
				break
			}
			s.Apply(s.Rollout(legal, r))
		}
		s.Rewards(rewards)
		return rewards[me], true
	}
	for k := 0; k < n; k++ {
		if !lim.Deadline.IsZero() && k&3 == 0 && k > 0 && time.Now().After(lim.Deadline) {
			break
		}
		s1, s2 := rng.Uint64(), rng.Uint64()
		b, ok := play(root[base], s1, s2)
		if !ok {
			continue
		}
		for j, c := range cands {
			x, ok := play(root[c], s1, s2)
			if !ok {
				continue
			}
			sum[j] += x - b
			sum2[j] += (x - b) * (x - b)
			out[j].N++
		}
	}
	for j := range out {
		if m := float64(out[j].N); m > 1 {
			out[j].Mean = sum[j] / m
			out[j].SE = math.Sqrt(max(sum2[j]/m-out[j].Mean*out[j].Mean, 0) / (m - 1))
		}
	}
	return out
}
