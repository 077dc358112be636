package ismcts

import (
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/uno"
)

// Rollout is the search's playout policy as a player of any state of
// its game, for searches outside this package (the engine server's
// "rollout" playouts, a student's search through the SDKs): in Uno and
// Bounce greedy's rules read from the state (unoState.greedyRollout),
// in Boon the cheap greedy of boonState.Rollout. It reads the state of
// the seat to move, hidden cards included, so it is for determinized
// states, never for a seat's real decision. Nil for a game the search
// has no policy for.
func Rollout(game string) func(engine.State, *rand.Rand) engine.Action {
	switch game {
	case "uno", "bounce":
		var legal []uno.Action
		return func(st engine.State, rng *rand.Rand) engine.Action {
			s := st.(*uno.State)
			legal = s.AppendLegal(legal[:0])
			u := unoState{s: s, greedy: true}
			return u.Rollout(legal, rng)
		}
	case "boon":
		var legal []boon.Action
		return func(st engine.State, rng *rand.Rand) engine.Action {
			s := st.(*boon.State)
			legal = s.AppendLegal(legal[:0])
			b := boonState{s: s}
			return b.Rollout(legal, rng)
		}
	}
	return nil
}
