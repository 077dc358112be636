// Package uno is Uno (official Mattel rules by default) and its Russian
// clone Bounce (Банс) for the arena: one engine registered under two names,
// "uno" and "bounce", which differ only in the default of the rules
// preset. See docs/games/uno.md.
package uno

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/arena-dev/arena/engine"
)

// Game is a registered Uno rule set: "uno" (rules=official by default) or
// "bounce" (rules=bounce by default).
// Game values are comparable (the options live in package tables).
type Game struct {
	name     string
	summary  string
	maxSeats int
}

// The two registered games. Their sources give Uno 2 to 10 players and
// Bounce 2 to 8 ("for a company of 2 to 8"); the Bounce rules on 9 or 10
// seats are uno with rules=bounce.
var (
	Uno    = Game{name: "uno", maxSeats: 10, summary: "Uno (official Mattel rules): 108 cards, 2-10 seats, hands to 500 points; house rules as options"}
	Bounce = Game{name: "bounce", maxSeats: 8, summary: "Bounce (Банс), the Russian Uno clone: number-only start card, forced play, the \"Bounce!\" call, a single hand, 2-8 seats"}
)

var gameOptions = map[string][]engine.OptionSpec{
	"uno":    optionSpecs("official"),
	"bounce": optionSpecs("bounce"),
}

func (g Game) opts() []engine.OptionSpec { return gameOptions[g.name] }

func init() {
	engine.Register(Uno)
	engine.Register(Bounce)
}

// presets are what each value of the rules option sets.
var presets = map[string]map[string]string{
	"official": {
		"start_card": "official", "voluntary_draw": "true", "draw_until_playable": "false",
		"wd4_mode": "challenge", "uno_call": "autocatch", "call": "uno",
		"scoring": "winner_collects", "target": "500",
	},
	"bounce": {
		"start_card": "number_only", "voluntary_draw": "false", "draw_until_playable": "false",
		"wd4_mode": "enforce", "uno_call": "catch_window", "call": "bounce",
		"scoring": "winner_collects", "target": "0",
	},
}

// optionSpecs are the options of the engine, with the rules preset
// defaulting to preset and the other options to what it sets.
func optionSpecs(preset string) []engine.OptionSpec {
	sets := map[string]map[string]string{}
	for k, v := range presets {
		sets[k] = maps.Clone(v)
	}
	specs := []engine.OptionSpec{
		{Name: "rules", Default: preset, Choices: []string{"official", "bounce"}, Kind: "enum", Sets: sets,
			Doc: "preset: official = Mattel rules; bounce = Bounce (Банс): start_card=number_only, voluntary_draw=false, wd4_mode=enforce, uno_call=catch_window, call=bounce, target=0 (one hand); options given explicitly override the preset"},
		{Name: "start_card", Default: "official", Choices: []string{"official", "number_only"}, Kind: "enum",
			Doc: "starting card: official = a WD4 is reshuffled back, a Wild lets the first player name the colour, Draw Two/Skip/Reverse take effect; number_only = redraw (reshuffling) until a number card"},
		{Name: "voluntary_draw", Default: "true", Kind: "bool",
			Doc: "a player may draw instead of playing even while holding a playable card; false = draw only when no card can be played"},
		{Name: "draw_until_playable", Default: "false", Kind: "bool",
			Doc: "a draw takes cards until a playable one comes (or both piles are empty) instead of one card"},
		{Name: "wd4_mode", Default: "challenge", Choices: []string{"challenge", "enforce"}, Kind: "enum",
			Doc: "Wild Draw Four while holding a card of the active colour: challenge = allowed as a bluff, the victim may challenge (guilty: the bluffer draws 4; innocent: the challenger draws 6 and loses the turn); enforce = not legal"},
		{Name: "uno_call", Default: "autocatch", Choices: []string{"autocatch", "off", "catch_window"}, Kind: "enum",
			Doc: "the call when a play leaves one card (the play's \"uno\" flag): autocatch = forgetting costs 2 cards at once; off = no call; catch_window = the next seat asked to decide may \"catch\" the offender (+2 cards)"},
		{Name: "call", Default: "uno", Choices: []string{"uno", "bounce"}, Kind: "enum",
			Doc: "name of the one-card call in texts (\"Uno!\" or \"Bounce!\"); the action flag is \"uno\" either way"},
		{Name: "scoring", Default: "winner_collects", Choices: []string{"winner_collects", "penalty_low_wins", "single_hand"}, Kind: "enum",
			Doc: "winner_collects = the hand's winner scores the cards left in the other hands, first to target wins; penalty_low_wins = every other seat scores its own cards, the game ends when a seat reaches target, lowest total wins; single_hand = one hand, winner 1 point, others 0 (target ignored)"},
		{Name: "target", Default: "500", Kind: "int", Min: 0, Max: 100000,
			Doc: "score that ends the game; 0 = a single hand"},
		{Name: "stack_draws", Default: "false", Kind: "bool",
			Doc: "a player hit by a Draw Two or Wild Draw Four may pass it on, adding to it: D2 on D2, WD4 on WD4, WD4 on D2 and D2 (of the named colour) on WD4; the first player who does not stack draws the total"},
		{Name: "seven_zero", Default: "false", Kind: "bool",
			Doc: "a 7 swaps hands with a seat chosen in the play (\"target\"); a 0 passes every hand to the next seat in the direction of play"},
		{Name: "reverse_deflects_draw", Default: "false", Kind: "bool",
			Doc: "a player hit by a Draw Two or Wild Draw Four may play a Reverse of the active colour: the direction changes and the pending draw goes back to the sender"},
		{Name: "play_to_last", Default: "false", Kind: "bool",
			Doc: "a hand goes on after the first player goes out until one seat holds cards, ranking every seat; the hand is scored when the first player goes out; a single-hand game is ranked by this finishing order"},
		{Name: "jump_in", Default: "false", Kind: "bool",
			Doc: "after each play of a coloured card, the seats holding an identical card are asked in turn, clockwise from the player, to jump in with it or pass; play continues from the jumper"},
		{Name: "max_actions", Default: "100000", Kind: "int", Min: 1, Max: 10000000,
			Doc: "safety limit: after this many actions the game ends, ranked by the scores so far"},
	}
	// An option's Default is what this game plays when the option is not
	// given: the preset's value where the preset sets one, so that
	// `arena games` shows bounce's defaults, not uno's.
	for i := range specs {
		if v, ok := presets[preset][specs[i].Name]; ok {
			specs[i].Default = v
		}
	}
	return specs
}

// Info describes the game.
func (g Game) Info() engine.Info {
	// Rules 1: decisions and counts that do not depend on other seats'
	// hidden cards (docs/games/uno.md, "Hidden information and decisions").
	// Rules 2: with seven_zero a missed call's penalty is drawn after the
	// 7 swap or 0 rotation; with both piles empty a seat that can play
	// must (pass only with nothing to play), so no hand ends blocked;
	// bounce takes 2-8 seats. Games recorded under 1 play differently.
	return engine.Info{Name: g.name, Summary: g.summary, MinSeats: 2, MaxSeats: g.maxSeats, Options: g.opts(), Rules: 2}
}

// UnoCall is how the one-card call works.
type UnoCall uint8

// The uno_call modes.
const (
	CallAutocatch UnoCall = iota
	CallOff
	CallCatchWindow
)

// Scoring is how hands are scored.
type Scoring uint8

// The scoring modes.
const (
	WinnerCollects Scoring = iota
	PenaltyLowWins
	SingleHand
)

// Rules are resolved options in engine form.
type Rules struct {
	StartNumberOnly   bool
	VoluntaryDraw     bool
	DrawUntilPlayable bool
	Enforce           bool // wd4_mode=enforce
	UnoCall           UnoCall
	CallName          string // "uno" or "bounce"
	Scoring           Scoring
	Target            int
	StackDraws        bool
	SevenZero         bool
	ReverseDeflects   bool
	PlayToLast        bool
	JumpIn            bool
	MaxActions        int
	Preset            string
}

// SingleHandGame reports whether the game is one hand.
func (r Rules) SingleHandGame() bool { return r.Target == 0 || r.Scoring == SingleHand }

// DefaultRules are the official rules with every option at its default.
func DefaultRules() Rules {
	r, err := RulesFromOptions(nil)
	if err != nil {
		panic(err)
	}
	return r
}

// RulesFromOptions resolves options for the "uno" game (missing ones take
// their defaults; "rules" applies its preset first).
func RulesFromOptions(given map[string]string) (Rules, error) {
	o, err := engine.Resolve("uno", Uno.opts(), given)
	if err != nil {
		return Rules{}, err
	}
	return rulesOf(o), nil
}

func rulesOf(o engine.Options) Rules {
	r := Rules{
		StartNumberOnly:   o["start_card"] == "number_only",
		VoluntaryDraw:     o.Bool("voluntary_draw"),
		DrawUntilPlayable: o.Bool("draw_until_playable"),
		Enforce:           o["wd4_mode"] == "enforce",
		CallName:          o["call"],
		Target:            o.Int("target"),
		StackDraws:        o.Bool("stack_draws"),
		SevenZero:         o.Bool("seven_zero"),
		ReverseDeflects:   o.Bool("reverse_deflects_draw"),
		PlayToLast:        o.Bool("play_to_last"),
		JumpIn:            o.Bool("jump_in"),
		MaxActions:        o.Int("max_actions"),
		Preset:            o["rules"],
	}
	switch o["uno_call"] {
	case "off":
		r.UnoCall = CallOff
	case "catch_window":
		r.UnoCall = CallCatchWindow
	}
	switch o["scoring"] {
	case "penalty_low_wins":
		r.Scoring = PenaltyLowWins
	case "single_hand":
		r.Scoring = SingleHand
	}
	if r.CallName == "" {
		r.CallName = "uno"
	}
	if r.MaxActions <= 0 {
		r.MaxActions = 100000
	}
	return r
}

// Options gives the rules back as resolved option strings.
func (r Rules) Options() engine.Options {
	b := func(v bool) string {
		if v {
			return "true"
		}
		return "false"
	}
	o := engine.Options{
		"rules": r.Preset, "start_card": "official", "voluntary_draw": b(r.VoluntaryDraw),
		"draw_until_playable": b(r.DrawUntilPlayable), "wd4_mode": "challenge",
		"uno_call": unoCallNames[r.UnoCall], "call": r.CallName, "scoring": scoringNames[r.Scoring],
		"target": fmt.Sprint(r.Target), "stack_draws": b(r.StackDraws), "seven_zero": b(r.SevenZero),
		"reverse_deflects_draw": b(r.ReverseDeflects), "play_to_last": b(r.PlayToLast),
		"jump_in": b(r.JumpIn), "max_actions": fmt.Sprint(r.MaxActions),
	}
	if r.Preset == "" {
		o["rules"] = "official"
	}
	if r.StartNumberOnly {
		o["start_card"] = "number_only"
	}
	if r.Enforce {
		o["wd4_mode"] = "enforce"
	}
	return o
}

var (
	unoCallNames = [...]string{CallAutocatch: "autocatch", CallOff: "off", CallCatchWindow: "catch_window"}
	scoringNames = [...]string{WinnerCollects: "winner_collects", PenaltyLowWins: "penalty_low_wins", SingleHand: "single_hand"}
)

// New deals a game.
func (g Game) New(seats int, seed uint64, opts engine.Options) (engine.State, error) {
	if seats < 2 || seats > g.maxSeats {
		return nil, fmt.Errorf("game %s takes 2-%d seats, got %d", g.name, g.maxSeats, seats)
	}
	o, err := engine.Resolve(g.name, g.opts(), opts)
	if err != nil {
		return nil, err
	}
	return NewState(seats, seed, rulesOf(o)), nil
}

// ParseAction decodes an action JSON object.
func (Game) ParseAction(raw json.RawMessage) (engine.Action, error) {
	a, err := ParseAction(raw)
	if err != nil {
		return nil, err
	}
	return a, nil
}
