package engineserver

import "github.com/arena-dev/arena/engine"

// clone is an independent copy of st, for the games whose states copy
// themselves (engine.Cloner: every bundled game's do).
func clone(st engine.State) (engine.State, error) {
	c, ok := st.(engine.Cloner)
	if !ok {
		return nil, fail(Internal, "the %T engine's states cannot be copied (no engine.Cloner): clone and playout need one", st)
	}
	return c.CloneState(), nil
}
