package replays

import "github.com/arena-dev/arena/engine"

// A Step is one point of a re-simulated replay, as Walk hands it out.
type Step struct {
	// Event is the index in Replay.Events of the event just applied, -1
	// for the starting position.
	Event int
	// Action is the move's parsed action when Events[Event] is a move,
	// else nil.
	Action engine.Action
	// State is the game after the event. It is the simulation's own
	// state and changes after the callback returns: read it (View,
	// RenderText) there, do not keep it.
	State engine.State
	// Forfeited says, per seat, whether the seat has forfeited so far.
	// Like State it is only valid during the callback.
	Forfeited []bool
}

// Walk re-simulates r the way Verify does and calls fn with the starting
// position (Step.Event -1) and then after every event, in file order.
// It stops at the first move the engine rejects, with an error naming the
// line and ply as Verify's do, or at the first error fn returns (returned
// as is). Walk does not check the result line: Verify does.
func Walk(r *Replay, fn func(Step) error) error {
	s, err := newSim(r)
	if err != nil {
		return err
	}
	if err := fn(Step{Event: -1, State: s.state, Forfeited: s.forfeited}); err != nil {
		return err
	}
	for i := range r.Events {
		a, err := s.step(i)
		if err != nil {
			return err
		}
		if err := fn(Step{Event: i, Action: a, State: s.state, Forfeited: s.forfeited}); err != nil {
			return err
		}
	}
	return nil
}
