// Package boon is Boon (Благо), the Sheepshead-derived trick-taking game
// with a 32-card deck, a sight-unseen pick of the Boon, a lone picker
// against a team, Least mode when everyone passes, and a game of several
// rounds decided by victory cards. See docs/games/boon.md.
package boon

import (
	"encoding/json"
	"fmt"

	"github.com/arena-dev/arena/engine"
)

// Game is the registered Boon rule set.
type Game struct{}

func init() { engine.Register(Game{}) }

// Seat limits.
const (
	MinSeats = 3
	MaxSeats = 5
)

// DefaultRounds is the default safety cap on deals per game.
const DefaultRounds = 200

// Options are the rule options of Boon. Defaults follow the rules
// reference, section 2.
var Options = []engine.OptionSpec{
	{Name: "must_trump", Default: "false", Kind: "bool",
		Doc: "a player who cannot follow the led suit must play a Gold (trump) if holding one"},
	{Name: "no_pick", Default: "least", Choices: []string{"least", "redeal"}, Kind: "enum",
		Doc: "when every seat passes the Boon: least = Least mode (fewest points among trick takers wins); redeal = the next dealer deals again (each redeal counts as a round)"},
	{Name: "least_tie", Default: "void", Choices: []string{"void", "split", "random"}, Kind: "enum",
		Doc: "tie for fewest points in Least mode: void = no victory cards move; split = each other seat pays 1 and the cards go round-robin to the tied winners, the remainder staying with the payers; random = one tied winner drawn from the game's RNG takes all"},
	{Name: "short_pay", Default: "cap", Choices: []string{"cap", "negative"}, Kind: "enum",
		Doc: "a payer without enough victory cards: cap = hands over what it has, one at a time round-robin clockwise among its payees; negative = victory cards are a score that may go below zero"},
	{Name: "final_tie", Default: "shared", Choices: []string{"shared", "play_on"}, Kind: "enum",
		Doc: "tie for most victory cards when the game ends: shared = joint first; play_on = play further rounds until one leader remains"},
	{Name: "tiers", Default: "boon", Choices: []string{"boon", "sheepshead"}, Kind: "enum",
		Doc: "payout bands by picker points: boon = 0-29 pays 2, 30-60 pays 1, 61-90 gets 1, 91-120 gets 2 (per defender); sheepshead = 0-30 / 31-60 / 61-90 / 91-120 plus 3 when one side took no trick"},
	{Name: "rounds", Default: fmt.Sprint(DefaultRounds), Kind: "int", Min: 1, Max: 100000,
		Doc: "safety cap on deals (redeals included): when reached the game ends and is ranked by victory cards"},
}

// Info describes Boon.
func (Game) Info() engine.Info {
	return engine.Info{
		Name:     "boon",
		Summary:  "Boon: Sheepshead-style trick taking, 3-5 seats; take the Boon unseen and play alone, or everyone plays Least; victory cards decide",
		MinSeats: MinSeats,
		MaxSeats: MaxSeats,
		Options:  Options,
	}
}

// NoPick is what happens when every seat passes.
type NoPick uint8

// NoPick values.
const (
	NoPickLeast NoPick = iota
	NoPickRedeal
)

// LeastTie settles a tie for the win in Least mode.
type LeastTie uint8

// LeastTie values.
const (
	LeastTieVoid LeastTie = iota
	LeastTieSplit
	LeastTieRandom
)

// Tiers is the payout table.
type Tiers uint8

// Tiers values.
const (
	TiersBoon Tiers = iota
	TiersSheepshead
)

// Rules are the resolved options in engine form.
type Rules struct {
	MustTrump   bool
	NoPick      NoPick
	LeastTie    LeastTie
	NegativeVC  bool // short_pay=negative
	FinalPlayOn bool // final_tie=play_on
	Tiers       Tiers
	Rounds      int
}

// DefaultRules are the rules with every option at its default.
func DefaultRules() Rules {
	r, _ := RulesFromOptions(nil)
	return r
}

// RulesFromOptions resolves options (missing ones take their defaults).
func RulesFromOptions(opts engine.Options) (Rules, error) {
	o, err := engine.Resolve("boon", Options, opts)
	if err != nil {
		return Rules{}, err
	}
	r := Rules{
		MustTrump:   o.Bool("must_trump"),
		NegativeVC:  o["short_pay"] == "negative",
		FinalPlayOn: o["final_tie"] == "play_on",
		Rounds:      o.Int("rounds"),
	}
	if o["no_pick"] == "redeal" {
		r.NoPick = NoPickRedeal
	}
	switch o["least_tie"] {
	case "split":
		r.LeastTie = LeastTieSplit
	case "random":
		r.LeastTie = LeastTieRandom
	}
	if o["tiers"] == "sheepshead" {
		r.Tiers = TiersSheepshead
	}
	return r, nil
}

// Options gives the rules back as resolved engine options.
func (r Rules) Options() engine.Options {
	o := engine.Options{
		"must_trump": fmt.Sprint(r.MustTrump),
		"no_pick":    [...]string{"least", "redeal"}[r.NoPick],
		"least_tie":  [...]string{"void", "split", "random"}[r.LeastTie],
		"short_pay":  map[bool]string{false: "cap", true: "negative"}[r.NegativeVC],
		"final_tie":  map[bool]string{false: "shared", true: "play_on"}[r.FinalPlayOn],
		"tiers":      [...]string{"boon", "sheepshead"}[r.Tiers],
		"rounds":     fmt.Sprint(r.Rounds),
	}
	return o
}

// New starts a game: a random first dealer from the seed, the first round
// dealt, the seat left of the dealer to take or pass.
func (Game) New(seats int, seed uint64, opts engine.Options) (engine.State, error) {
	if seats < MinSeats || seats > MaxSeats {
		return nil, fmt.Errorf("game boon takes %d-%d seats, got %d", MinSeats, MaxSeats, seats)
	}
	r, err := RulesFromOptions(opts)
	if err != nil {
		return nil, err
	}
	return NewState(seats, seed, r), nil
}

// ParseAction decodes an action JSON object.
func (Game) ParseAction(raw json.RawMessage) (engine.Action, error) {
	a, err := ParseAction(raw)
	if err != nil {
		return nil, err
	}
	return a, nil
}
