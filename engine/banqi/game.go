// Package banqi is Banqi (Chinese dark chess, 暗棋) for the arena, with the
// Taiwanese/ICGA rules by default. See docs/games/banqi.md.
package banqi

import (
	"encoding/json"
	"fmt"

	"github.com/arena-dev/arena/engine"
)

// Game is the registered Banqi rule set.
type Game struct{}

func init() { engine.Register(Game{}) }

// Options are the rule options of Banqi.
var Options = []engine.OptionSpec{
	{Name: "ranks", Default: "taiwan", Choices: []string{"taiwan", "hk"}, Kind: "enum",
		Doc: "capture hierarchy: taiwan = K>G>M>R>N>C>P (King, Guard, Minister, Rook, Knight, Cannon, Pawn) with a jumping Cannon; hk = K>R>N>C>G>M>P, the Cannon captures adjacently; the King never takes a Pawn, a Pawn takes the King"},
	{Name: "no_progress_plies", Default: "180", Kind: "int", Min: 1, Max: 100000,
		Doc: "draw after this many consecutive moves with no flip and no capture"},
	{Name: "repetition", Default: "draw3", Choices: []string{"draw3", "chase_loss"}, Kind: "enum",
		Doc: "third occurrence of a position: draw3 = draw; chase_loss = the side whose every move in the cycle attacked the same enemy piece loses (draw if both or neither)"},
	{Name: "chain_capture", Default: "false", Kind: "bool",
		Doc: "after a capture the same piece may keep capturing: the seat acts again, choosing a further capture by that piece or {\"type\":\"stop\"}"},
	{Name: "capture_facedown", Default: "false", Kind: "bool",
		Doc: "a piece may attack a face-down piece (same geometry as a capture): it is revealed and taken only if it is an enemy the attacker may capture; otherwise the turn ends"},
	{Name: "max_plies", Default: "2000", Kind: "int", Min: 1, Max: 1000000,
		Doc: "safety limit: the game is adjudicated a draw after this many actions"},
}

// Info describes Banqi.
func (Game) Info() engine.Info {
	return engine.Info{
		Name:     "banqi",
		Summary:  "Banqi (Chinese dark chess): 4x8 board, 32 face-down pieces, flip, move or capture; Taiwanese ranks",
		MinSeats: 2,
		MaxSeats: 2,
		Options:  Options,
	}
}

// Rules are the resolved options in engine form.
type Rules struct {
	Ranks           Ranks
	NoProgressPlies int
	ChaseLoss       bool
	ChainCapture    bool
	CaptureFacedown bool
	MaxPlies        int
}

// DefaultRules are the rules with every option at its default.
func DefaultRules() Rules {
	r, _ := RulesFromOptions(nil)
	return r
}

// RulesFromOptions resolves options (missing ones take their defaults).
func RulesFromOptions(opts engine.Options) (Rules, error) {
	o, err := engine.Resolve("banqi", Options, opts)
	if err != nil {
		return Rules{}, err
	}
	r := Rules{
		NoProgressPlies: o.Int("no_progress_plies"),
		ChaseLoss:       o["repetition"] == "chase_loss",
		ChainCapture:    o.Bool("chain_capture"),
		CaptureFacedown: o.Bool("capture_facedown"),
		MaxPlies:        o.Int("max_plies"),
	}
	if o["ranks"] == "hk" {
		r.Ranks = HK
	}
	return r, nil
}

// New starts a game: 2 seats, every piece face down, seat 0 to flip.
func (Game) New(seats int, seed uint64, opts engine.Options) (engine.State, error) {
	if seats != 2 {
		return nil, fmt.Errorf("game banqi needs 2 seats, got %d", seats)
	}
	r, err := RulesFromOptions(opts)
	if err != nil {
		return nil, err
	}
	return NewState(seed, r), nil
}

// ParseAction decodes an action JSON object.
func (Game) ParseAction(raw json.RawMessage) (engine.Action, error) {
	a, err := ParseAction(raw)
	if err != nil {
		return nil, err
	}
	return a, nil
}
