package engineserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/bots/ismcts"
	"github.com/arena-dev/arena/engine"
)

// A policy picks the action of the seat to move in st: the bundled
// players an environment seats where no agent plays, and the players of
// a playout. "rollout" is the bundled ISMCTS bot's playout policy
// (ismcts.Rollout): greedy's rules read from the state itself, so many
// times cheaper than "greedy", which asks the greedy bot through JSON
// as the referee would; it reads the hidden cards of the seat to move,
// so it is a playout's player, never an environment's opponent. A policy may keep scratch space: one per environment or
// request, never shared between goroutines.
type policy func(st engine.State, rng *rand.Rand) (engine.Action, error)

// policyNames are the policies a request may name, the first the default.
var policyNames = []string{"random", "greedy", "rollout"}

// policyNamed is the named policy for game.
func policyNamed(name, game string) (policy, error) {
	switch name {
	case "random":
		return playRandom, nil
	case "greedy":
		return greedyFor(game), nil
	case "rollout":
		if r := ismcts.Rollout(game); r != nil {
			return func(st engine.State, rng *rand.Rand) (engine.Action, error) { return r(st, rng), nil }, nil
		}
		return greedyFor(game), nil
	}
	return nil, fmt.Errorf("%q is not a bundled policy (%v)", name, policyNames)
}

// playRandom draws uniformly from the legal actions.
func playRandom(st engine.State, rng *rand.Rand) (engine.Action, error) {
	legal := st.Legal()
	return legal[rng.IntN(len(legal))], nil
}

// greedyFor asks the bundled greedy bot (bots.Greedy) as the referee
// would: the seat's view and the legal list as JSON, so that a playout
// or an opponent plays exactly as `arena bot greedy` does.
func greedyFor(game string) policy {
	greedy := bots.Greedy(game)
	var buf []byte
	var ends []int
	var raw []json.RawMessage
	return func(st engine.State, rng *rand.Rand) (engine.Action, error) {
		legal := st.Legal()
		var err error
		if buf, err = AppendView(buf[:0], st, st.ToMove()); err != nil {
			return nil, err
		}
		ends = append(ends[:0], len(buf))
		for _, a := range legal {
			if buf, err = engine.AppendJSON(buf, a); err != nil {
				return nil, err
			}
			ends = append(ends, len(buf))
		}
		raw = slices.Grow(raw[:0], len(legal))
		for i := range legal {
			raw = append(raw, buf[ends[i]:ends[i+1]])
		}
		k, err := greedy(buf[:ends[0]], raw, rng)
		if err != nil || k < 0 || k >= len(legal) {
			k = rng.IntN(len(legal)) // as the referee plays a failing bot's turn
		}
		return legal[k], nil
	}
}
