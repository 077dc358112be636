package engineserver

import (
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"

	"github.com/arena-dev/arena/engine/jsonw"
)

func init() {
	register("outcome", opOutcome)
	register("playout", opPlayout)
}

// Returns is each seat's return from a finished game's ranks: the seats
// ranked strictly below it less those ranked strictly above it, over
// seats-1; in [-1, 1], 0 between tied seats. The one definition of a
// return on the engine wire (outcome, playout).
func Returns(ranks []int) []float64 {
	r := make([]float64, len(ranks))
	if len(ranks) < 2 {
		return r
	}
	for i, ri := range ranks {
		for _, rj := range ranks {
			switch {
			case rj > ri:
				r[i]++
			case rj < ri:
				r[i]--
			}
		}
		r[i] /= float64(len(ranks) - 1)
	}
	return r
}

func opOutcome(s *Server, args []byte, out []byte) ([]byte, error) {
	st, err := s.stateOf(args, &stateArgs{}, false)
	if err != nil {
		return nil, err
	}
	if !st.st.Over() {
		return appendBool(out, "over", false), nil
	}
	o := st.st.Outcome()
	out = appendBool(out, "over", true)
	out = appendKey(out, "ranks")
	out = jsonw.Ints(out, o.Ranks)
	out = appendKey(out, "scores")
	out = jsonw.Floats(out, o.Scores)
	out = appendKey(out, "returns")
	return jsonw.Floats(out, Returns(o.Ranks)), nil
}

// Playout plays st (which it changes) to its end, or for maxPlies
// actions when maxPlies > 0, each action drawn uniformly from the legal
// ones with rng: the random playout of the playout op and of the Go
// baseline it is measured against. It returns the plies played and
// whether the game ended.
func Playout(st engine.State, rng *rand.Rand, maxPlies int) (plies int, over bool, err error) {
	return playout(st, playRandom, rng, maxPlies)
}

// playout is Playout with every seat played by p.
func playout(st engine.State, p policy, rng *rand.Rand, maxPlies int) (plies int, over bool, err error) {
	for !st.Over() {
		if maxPlies > 0 && plies >= maxPlies {
			return plies, false, nil
		}
		a, err := p(st, rng)
		if err != nil {
			return plies, false, err
		}
		if err := st.Apply(a); err != nil {
			return plies, false, err
		}
		plies++
	}
	return plies, true, nil
}

// playoutStats sum the playouts of one request.
type playoutStats struct {
	returns []float64
	wins    []int
	plies   int
}

func opPlayout(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		stateArgs
		N        *int   `json:"n"`
		Seed     uint64 `json:"seed"`
		MaxPlies int    `json:"max_plies"`
		Policy   string `json:"policy"`
	}
	st, err := s.stateOf(args, &a, true)
	if err != nil {
		return nil, err
	}
	if a.N == nil || *a.N < 1 || *a.N > MaxPlayouts {
		return nil, fail(BadRequest, `playout needs "n", 1..%d playouts`, MaxPlayouts)
	}
	if a.Policy == "" {
		a.Policy = policyNames[0]
	}
	p, err := policyNamed(a.Policy, st.game.Info().Name)
	if err != nil {
		return nil, fail(BadRequest, "playout: %v", err)
	}
	sum, err := playouts(st, p, *a.N, a.Seed, a.MaxPlies)
	if err != nil {
		return nil, err
	}
	n := float64(*a.N)
	for i := range sum.returns {
		sum.returns[i] /= n
	}
	out = appendInt(out, "n", *a.N)
	out = appendKey(out, "returns")
	out = jsonw.Floats(out, sum.returns)
	out = appendKey(out, "wins")
	out = jsonw.Ints(out, sum.wins)
	out = appendKey(out, "plies")
	return jsonw.Float(out, float64(sum.plies)/n), nil
}

// MaxPlayouts bounds one playout request's n, so that one line cannot
// hold the server for hours.
const MaxPlayouts = 1 << 20

// playouts runs n playouts from copies of st, every seat played by p. A playout cut by maxPlies
// counts as a draw: returns 0, no win.
func playouts(st *state, p policy, n int, seed uint64, maxPlies int) (playoutStats, error) {
	sum := playoutStats{returns: make([]float64, st.seats), wins: make([]int, st.seats)}
	rng := rand.New(rand.NewPCG(seed, 0))
	for range n {
		c, err := clone(st.st)
		if err != nil {
			return sum, err
		}
		plies, over, err := playout(c, p, rng, maxPlies)
		if err != nil {
			return sum, fail(Internal, "playout: %v", err)
		}
		sum.plies += plies
		if !over {
			continue
		}
		ranks := c.Outcome().Ranks
		for i, r := range Returns(ranks) {
			sum.returns[i] += r
		}
		for i, r := range ranks {
			if r == 1 {
				sum.wins[i]++
			}
		}
	}
	return sum, nil
}
