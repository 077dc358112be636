package engine

import (
	"errors"
	"fmt"
)

// Encoder is implemented by games that offer a fixed-size numeric
// encoding of what a seat sees, and a fixed numbering of every action,
// for learning agents: a network wants a vector of the same length at
// every turn and one output per action the game can ever offer, not a
// JSON view and a legal list of varying length. It is optional, like
// Sampler.
type Encoder interface {
	// Encoding is the encoding of games of seats seats under opts
	// (resolved or not: missing options take their defaults). Sizes
	// depend on both: a seat count changes how many seats an
	// observation describes, an option which actions exist.
	Encoding(seats int, opts Options) (Encoding, error)
}

// Encoding is one game's encoding at one seat count and rule set.
//
// An observation is computed from a seat's view alone (the value
// State.View(seat) returns), never from the state: two states that give
// a seat the same view give it the same observation, so that an agent
// trained on it learns nothing the referee would not tell a bot.
type Encoding interface {
	// ObsSize is the length of every observation.
	ObsSize() int
	// NumActions is the size of the action space: ids are 0 to
	// NumActions-1.
	NumActions() int
	// ActionName is a name of action id, distinct from every other id's:
	// the game's notation (Action.String) where that tells actions
	// apart.
	ActionName(id int) string
	// Encode writes the observation of view (what View(seat) returned
	// for a seat, not the spectator) to dst, which has ObsSize elements.
	// A view of another game or seat count is ErrNotEncodable.
	Encode(view any, dst []float32) error
	// ActionID is the id of a; false for an action outside the space
	// (never for one that Legal lists in a game of these seats and
	// options).
	ActionID(a Action) (int, bool)
	// Action is the action of id, nil out of range.
	Action(id int) Action
}

// ErrNotEncodable is Encode's error for a view it cannot encode: of
// another game, another seat count, or the spectator's.
var ErrNotEncodable = errors.New("engine: the view does not fit this encoding")

// ActionSpace numbers a game's actions: ids are positions in the list
// of every action the game can offer under one seat count and rule set.
// Encodings embed one, so that every game numbers its actions the same
// way: listed once, looked up by value.
type ActionSpace[A interface {
	comparable
	Action
}] struct {
	actions []A
	names   []string
	ids     map[A]int
}

// NewActionSpace numbers all. A value listed twice is a bug in the
// game's enumeration: it panics.
func NewActionSpace[A interface {
	comparable
	Action
}](all []A) *ActionSpace[A] {
	s := &ActionSpace[A]{actions: all, names: make([]string, len(all)), ids: make(map[A]int, len(all))}
	for i, a := range all {
		if _, dup := s.ids[a]; dup {
			panic(fmt.Sprintf("engine: action %v listed twice in an action space", a))
		}
		s.ids[a] = i
		s.names[i] = a.String()
	}
	return s
}

// NumActions is the number of actions.
func (s *ActionSpace[A]) NumActions() int { return len(s.actions) }

// ActionName is the notation of action id ("" out of range).
func (s *ActionSpace[A]) ActionName(id int) string {
	if id < 0 || id >= len(s.names) {
		return ""
	}
	return s.names[id]
}

// ActionID is the id of a, which may be an A or a *A.
func (s *ActionSpace[A]) ActionID(a Action) (int, bool) {
	switch x := any(a).(type) {
	case A:
		id, ok := s.ids[x]
		return id, ok
	case *A:
		if x != nil {
			id, ok := s.ids[*x]
			return id, ok
		}
	}
	return 0, false
}

// ID is the id of a typed action.
func (s *ActionSpace[A]) ID(a A) (int, bool) {
	id, ok := s.ids[a]
	return id, ok
}

// Action is the action of id, nil out of range.
func (s *ActionSpace[A]) Action(id int) Action {
	if id < 0 || id >= len(s.actions) {
		return nil
	}
	return s.actions[id]
}

// Typed is the action of id in the game's own type; false out of range.
func (s *ActionSpace[A]) Typed(id int) (A, bool) {
	if id < 0 || id >= len(s.actions) {
		var zero A
		return zero, false
	}
	return s.actions[id], true
}

// ErrNotInSpace is the error of a legal action that an encoding has no
// id for: a bug in the game's enumeration of its action space.
var ErrNotInSpace = errors.New("engine: a legal action is not in the encoding's action space")

// StateEncoding is an optional fast path of an Encoding, for training
// environments that encode at every step: the same observation and mask
// as Encode(st.View(seat)) and MaskOf, without the allocations of a view
// and a legal list built to be kept. It must still read nothing but the
// seat's view.
type StateEncoding interface {
	EncodeState(st State, seat int, dst []float32) error
	Mask(st State, mask []byte) error
}

// EncodeState is e's observation of st for seat, through StateEncoding
// when e has it.
func EncodeState(e Encoding, st State, seat int, dst []float32) error {
	if f, ok := e.(StateEncoding); ok {
		return f.EncodeState(st, seat, dst)
	}
	return e.Encode(st.View(seat), dst)
}

// Mask sets mask[id] to 1 for every action st's seat to move may take
// and every other entry to 0 (mask has NumActions entries), through
// StateEncoding when e has it.
func Mask(e Encoding, st State, mask []byte) error {
	if f, ok := e.(StateEncoding); ok {
		return f.Mask(st, mask)
	}
	return MaskOf(e, st, mask)
}

// MaskOf is Mask from st.Legal(): the reference a fast path must equal.
func MaskOf(e Encoding, st State, mask []byte) error {
	clear(mask)
	if st.Over() {
		return nil
	}
	for _, a := range st.Legal() {
		id, ok := e.ActionID(a)
		if !ok {
			return fmt.Errorf("%w: %v", ErrNotInSpace, a)
		}
		mask[id] = 1
	}
	return nil
}

// ViewAs is v as a *V, for an Encoding's Encode: a game's View by value
// (what View(seat) returns) or by pointer; anything else is
// ErrNotEncodable.
func ViewAs[V any](v any) (*V, error) {
	switch x := v.(type) {
	case V:
		return &x, nil
	case *V:
		if x != nil {
			return x, nil
		}
	}
	return nil, fmt.Errorf("%w: want a %T, got %T", ErrNotEncodable, new(V), v)
}
