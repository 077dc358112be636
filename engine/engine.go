// Package engine is the contract between the arena and a game implementation.
//
// A Game is a registered rule set (Banqi, Uno, Boon, ...). Game.New deals a
// State from a seed and resolved options. A State answers who acts now, which
// actions that seat may take, applies one, renders what one seat may observe,
// and reports the outcome once the game is over. Engines are pure: no I/O, no
// wall clock, no global RNG; everything random comes from the seed, so a
// replay (seed + actions) re-simulates the game exactly.
//
// Hidden information stays inside the State: the referee only ever hands a
// bot View(seat) and Legal(), both plain JSON-marshallable values, never the
// State itself.
//
// A game with hidden information may also be a Sampler: from the views
// one seat has received this game, it deals a full State consistent with
// them (the cards that seat cannot see drawn uniformly over those that
// fit), the determinization a search bot looks ahead in. Its input is the
// view JSON exactly as the referee sends it, so that a bot in any
// language can have its history replayed through the engine, and so that
// the sampler knows nothing a bot does not.
//
// A game may also be an Encoder, for learning agents: a fixed-size
// numeric observation computed from a seat's view alone, and a fixed
// numbering of every action it can offer (an ActionSpace), so that a
// network has one input length and one output per action.
package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
)

// Spectator is the seat number for a public view: what every seat may know.
const Spectator = -1

// Action is one decision in a game's own type. It must marshal to the JSON
// object documented for its game, and Game.ParseAction must turn that JSON
// back into an equal Action. String gives the game's usual notation
// ("b3-b4", "b3(K)") for text output.
type Action interface {
	fmt.Stringer
}

// State is one game in progress.
type State interface {
	// ToMove is the seat that must act now; meaningless once Over.
	ToMove() int
	// Legal lists the actions ToMove may take, in a deterministic order.
	// It is never empty while the game is not over.
	Legal() []Action
	// Apply performs one action for ToMove. An action that is not legal
	// returns an error and leaves the state unchanged.
	Apply(a Action) error
	// View is what seat may observe now (Spectator: the public part). It
	// must be JSON-marshallable and must not reveal anything the seat may
	// not know.
	View(seat int) any
	// Over reports whether the game has ended.
	Over() bool
	// Outcome is the result; only valid once Over.
	Outcome() Outcome
}

// ViewAppender is implemented by states that append a seat's view as
// JSON straight to a buffer: the bytes of AppendJSON(dst, View(seat)),
// without building a view to be kept first. The referee writes every
// turn's view this way when it can (an allocation-free view is a fair
// part of a move's cost).
type ViewAppender interface {
	AppendView(dst []byte, seat int) []byte
}

// Cloner is implemented by states that copy themselves: an independent
// state that plays on exactly as the original would (its randomness to
// come included). The referee never copies a state; a search or the
// engine server (clone, playouts) does, and needs it for every game
// through one interface, since each game's own Clone returns its
// concrete type.
type Cloner interface {
	CloneState() State
}

// Sampler is implemented by games with hidden information that can deal
// what a seat cannot see. It is optional: a game of perfect information
// has nothing to sample, and a bot there clones the state it is given.
//
// The seam is two small steps, not one function of a whole history,
// because a bot receives its views one turn at a time: an Observer
// remembers across them what the latest view no longer shows (a card a
// challenge revealed, the colours a seat was shown to lack when it drew),
// and each Observe costs only that view's events.
type Sampler interface {
	// Observer starts following seat's views of a game of seats seats
	// under opts (resolved or not: missing options take their defaults).
	Observer(seat, seats int, opts Options) (Observer, error)
}

// Observer is one seat's memory of a game, fed its views in order.
type Observer interface {
	// Observe reads the next view the seat received (its JSON, as the
	// referee sent it). Every view must be given, in order: a view
	// skipped loses what its events told.
	Observe(view []byte) error
	// Sample deals a full state consistent with every view observed:
	// its View(seat) is the last view observed, byte for byte, and it
	// plays on from there. Hidden cards are dealt from rng (and so is
	// the state's own randomness to come). It returns ErrNoDecision
	// when the last view is not the seat's decision, and an error
	// wrapping ErrInconsistent when nothing fits the views.
	Sample(rng *rand.Rand) (State, error)
}

// ErrNoDecision is Sample's error when the seat is not asked to act in
// its last view observed (none yet, or the game is over): a
// determinization is for choosing an action.
var ErrNoDecision = errors.New("engine: the last view observed is not the seat's decision")

// ErrInconsistent is Sample's error when no state fits the views
// observed: they were not one seat's views of one game, in order.
var ErrInconsistent = errors.New("engine: no state fits the views observed")

// AsState is a game's (*State, error) as an engine.State: nil, not a
// typed nil pointer, with an error. An Observer's Sample is
// AsState(o.SampleState(rng)) where the game also offers its concrete
// type.
func AsState[S State](s S, err error) (State, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

// TextRenderer is implemented by states that can draw themselves for
// humans (an ASCII board). seat follows the View convention.
type TextRenderer interface {
	RenderText(seat int) string
}

// Game is a registered rule set.
type Game interface {
	Info() Info
	// New starts a game. opts has already been through Resolve, so every
	// option is present and valid.
	New(seats int, seed uint64, opts Options) (State, error)
	// ParseAction decodes an action JSON object. Unknown fields are
	// ignored; a malformed object is an error naming what is wrong.
	ParseAction(raw json.RawMessage) (Action, error)
}

// Schemer is implemented by a game that publishes the JSON Schema (draft
// 2020-12) of its wire JSON, for bot authors and SDKs: one document with
// the definitions options (hello.options, resolved), view (a seat's
// turn.view and end.view), spectator_view (the public view of replays)
// and action (each entry of turn.legal). Every registered game has one
// (engine/all tests it); package engine/schema builds them, and each
// engine's tests validate random games against its document.
type Schemer interface {
	// Schema is the document as JSON.
	Schema() []byte
}

// SchemaOf is g's schema document, nil when g publishes none.
func SchemaOf(g Game) []byte {
	if s, ok := g.(Schemer); ok {
		return s.Schema()
	}
	return nil
}

// Info describes a game for the registry, `arena games` and hello messages.
type Info struct {
	Name     string
	Summary  string
	MinSeats int
	MaxSeats int
	Options  []OptionSpec
	// Rules is the rules revision, raised whenever a change of the rules
	// makes a recorded game play differently: a replay recorded under
	// another revision cannot be re-simulated, and says so.
	Rules int
}

// Outcome is the result of a finished game.
type Outcome struct {
	// Ranks per seat: 1 is best; equal ranks are ties (1,1,3 for a shared win).
	Ranks []int `json:"ranks"`
	// Scores per seat in the game's own units (points, captured pieces...).
	Scores []float64 `json:"scores"`
	// Reason says in words why the game ended ("red has no legal move").
	// Seats are "seat N" (a list: "seats 0, 1 and 3"), which NameSeats
	// names for a reader.
	Reason string `json:"reason"`
	// Formerly are the reasons earlier arenas recorded for this same
	// outcome, worded otherwise ("after 1 hands" before "after 1
	// hand"): replays.Verify accepts them, so that rewording a reason
	// does not fail the replays recorded before. Empty for most
	// outcomes.
	Formerly []string `json:"-"`
}

// RanksFromScores ranks seats by score, higher is better, ties shared
// (standard competition ranking: 1,1,3).
func RanksFromScores(scores []float64) []int {
	ranks := make([]int, len(scores))
	for i, s := range scores {
		r := 1
		for _, t := range scores {
			if t > s {
				r++
			}
		}
		ranks[i] = r
	}
	return ranks
}

// WithForfeits returns the outcome after some seats forfeited: forfeiting
// seats rank below every other seat (tied among themselves), the others
// keep their relative order. Referee and replay verification both use this,
// so a recorded result can be re-derived from the engine's outcome.
func (o Outcome) WithForfeits(forfeited []bool) Outcome {
	n := len(o.Ranks)
	any := false
	for _, f := range forfeited {
		any = any || f
	}
	if !any {
		return o
	}
	key := make([]float64, n)
	for i := range n {
		// Lower rank is better. Forfeiting seats all get one key below every
		// other: their engine ranks mean nothing, the referee played for them.
		key[i] = -float64(o.Ranks[i])
		if i < len(forfeited) && forfeited[i] {
			key[i] = -float64(n + 1)
		}
	}
	out := Outcome{Ranks: RanksFromScores(key), Scores: append([]float64(nil), o.Scores...), Reason: o.Reason, Formerly: o.Formerly}
	return out
}

// ForfeitOutcome is the result when play stopped because fewer than two
// seats were left in the game: every seat still in ranks first, every
// forfeiting seat ranks last (tied); scores are 1 and 0.
func ForfeitOutcome(forfeited []bool, reason string) Outcome {
	n := len(forfeited)
	o := Outcome{Ranks: make([]int, n), Scores: make([]float64, n), Reason: reason}
	in := 0
	for _, f := range forfeited {
		if !f {
			in++
		}
	}
	for i, f := range forfeited {
		if f {
			o.Ranks[i] = in + 1
		} else {
			o.Ranks[i], o.Scores[i] = 1, 1
		}
	}
	return o
}
