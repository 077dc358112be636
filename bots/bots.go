// Package bots holds the bundled bots. Each is an sdk.Bot, run by
// `arena bot NAME` from the arena binary itself (so a match needs nothing
// installed) and also built as a standalone program under bots/cmd/.
package bots

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// A strategy picks an index into legal from what the bot may see.
type strategy func(view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error)

type entry struct {
	summary string
	// byGame maps a game to its strategy; "" is the fallback for all games.
	byGame map[string]strategy
	// build, if set, makes the bot instead, from its options: a bot that
	// keeps state across the turns of a game (a search bot), or takes a
	// strength. A bot without build takes no options.
	build func(Options) (sdk.Bot, error)
}

// Options set a bundled bot's strength, for the bots that take them
// (Takes). The zero value is the bot's default.
type Options struct {
	// Level names a strength: weak, medium or strong ("": the bot's
	// default).
	Level string
	// Iterations is a fixed search budget per move (0: the level's).
	// Alone it replaces the level's time budget: the bot then plays the
	// same moves every time given the same seed.
	Iterations int
	// TimeFraction is the part of the move clock the search may use (0:
	// the level's), less the bot's safety margin.
	TimeFraction float64
}

func (o Options) isZero() bool { return o == Options{} }

var registry = map[string]entry{
	"random": {
		summary: "a uniformly random legal action, seeded from hello (every game)",
		byGame:  map[string]strategy{"": randomChoice},
	},
	"greedy": {
		summary: "banqi: takes the most valuable piece it safely can, avoids hanging pieces, else flips; boon: picks on strong hands, buries points, wins tricks cheaply, ducks in Least mode; uno/bounce: sheds high cards, keeps wilds, names its longest colour, challenges likely bluffs",
		byGame:  map[string]strategy{"": randomChoice, "banqi": GreedyBanqi, "boon": GreedyBoon, "uno": GreedyUno, "bounce": GreedyUno},
	},
	"ismcts": {
		summary: "uno/bounce, boon: information-set Monte Carlo tree search (levels weak, medium, strong = " + ismctsLevels() + "); other games: greedy",
		build:   newISMCTS,
	},
}

// Names lists the bundled bots.
func Names() []string {
	var out []string
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Summary describes a bundled bot.
func Summary(name string) string { return registry[name].summary }

// ErrUnknown is the error of a name that is not a bundled bot's. The
// error that wraps it names the bundled bots.
var ErrUnknown = errors.New("unknown bot")

// Check returns nil if name is a bundled bot, else an error wrapping
// ErrUnknown that lists the bundled bots: a command running a misspelt
// bundled bot is refused before a game starts, rather than forfeiting
// every game.
func Check(name string) error {
	if _, ok := registry[name]; !ok {
		return fmt.Errorf("%w %q (bundled bots: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	return nil
}

// New returns the bundled bot called name, at its default options.
func New(name string) (sdk.Bot, error) { return NewWith(name, Options{}) }

// Takes reports whether the bundled bot called name takes Options.
func Takes(name string) bool { return registry[name].build != nil }

// NewWith returns the bundled bot called name with options o; a bot that
// takes no options refuses any but the zero value.
func NewWith(name string, o Options) (sdk.Bot, error) {
	if err := Check(name); err != nil {
		return nil, err
	}
	e := registry[name]
	if e.build != nil {
		return e.build(o)
	}
	if !o.isZero() {
		return nil, fmt.Errorf("bundled bot %s takes no options (--level, --iterations, --time-fraction)", name)
	}
	return &player{entry: e}, nil
}

// player adapts a strategy to sdk.Bot, reseeding its RNG on every hello so a
// bot's choices depend only on the game's seed and what it is shown.
type player struct {
	entry
	rng    *rand.Rand
	choose strategy
}

func (p *player) Start(h *protocol.Hello) error {
	p.rng = rand.New(rand.NewPCG(h.Seed, uint64(h.Seat)))
	p.choose = p.byGame[h.Game]
	if p.choose == nil {
		p.choose = p.byGame[""]
	}
	return nil
}

func (p *player) Act(t *protocol.Turn) (int, error) {
	if len(t.Legal) == 0 {
		return 0, fmt.Errorf("turn %d has no legal actions", t.ID)
	}
	if p.choose == nil { // a turn before any hello: be lenient
		p.Start(&protocol.Hello{})
	}
	return p.choose(t.View, t.Legal, p.rng)
}

func (p *player) End(*protocol.End) {}

func randomChoice(_ json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error) {
	return rng.IntN(len(legal)), nil
}

// decodeTurn decodes what a strategy receives into a game's own types: the
// view into V and every legal action with parse. Errors name the game and
// the part that would not decode.
func decodeTurn[V, A any](game string, view json.RawMessage, legal []json.RawMessage, parse func(json.RawMessage) (A, error)) (*V, []A, error) {
	if len(legal) == 0 {
		return nil, nil, fmt.Errorf("greedy %s: no legal actions", game)
	}
	v := new(V)
	if err := json.Unmarshal(view, v); err != nil {
		return nil, nil, fmt.Errorf("greedy %s: view: %w", game, err)
	}
	acts := make([]A, len(legal))
	for i, raw := range legal {
		a, err := parse(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("greedy %s: legal[%d]: %w", game, i, err)
		}
		acts[i] = a
	}
	return v, acts, nil
}

// bestIndex is the index in 0..n-1 with the highest score, ties (within
// 1e-9) broken uniformly at random: each tied index replaces the choice
// with probability 1/(ties so far), so rng is drawn once per tie.
func bestIndex(n int, score func(i int) float64, rng *rand.Rand) int {
	best, bestScore, ties := -1, 0.0, 0
	for i := range n {
		sc := score(i)
		switch {
		case best < 0 || sc > bestScore+1e-9:
			best, bestScore, ties = i, sc, 1
		case sc > bestScore-1e-9:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}

// ParseArgs reads the options given after a bundled bot's name, as in
// `arena bot ismcts --level medium`: --level NAME, --iterations N and
// --time-fraction F (each also as --flag=value), only for a bot that
// takes options. It checks them as NewWith would, so a command line that
// would exit at once is refused before a game starts.
func ParseArgs(name string, args []string) (Options, error) {
	var o Options
	if err := Check(name); err != nil {
		return o, err
	}
	if len(args) > 0 && !Takes(name) {
		return o, fmt.Errorf("bundled bot %s takes no options: %q", name, strings.Join(args, " "))
	}
	for i := 0; i < len(args); i++ {
		flag, val, ok := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") {
			return o, fmt.Errorf("%q is not an option (--level, --iterations, --time-fraction)", args[i])
		}
		if !ok {
			if i+1 >= len(args) {
				return o, fmt.Errorf("%s needs a value", args[i])
			}
			i++
			val = args[i]
		}
		var err error
		switch flag {
		case "level":
			o.Level = val
		case "iterations":
			_, err = fmt.Sscanf(val, "%d", &o.Iterations)
		case "time-fraction":
			_, err = fmt.Sscanf(val, "%g", &o.TimeFraction)
		default:
			return o, fmt.Errorf("unknown option --%s for bundled bot %s (--level, --iterations, --time-fraction)", flag, name)
		}
		if err != nil {
			return o, fmt.Errorf("--%s %q: %v", flag, val, err)
		}
	}
	if _, err := NewWith(name, o); err != nil {
		return o, err
	}
	return o, nil
}
