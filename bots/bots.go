// Package bots holds the bundled bots. Each is an sdk.Bot, run by
// `arena bot NAME` from the arena binary itself (so a match needs nothing
// installed) and also built as a standalone program under bots/cmd/.
package bots

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/arena-dev/arena/bots/expectimax"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// A strategy picks an index into legal from what the bot may see.
type strategy func(view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error)

type entry struct {
	summary string
	// byGame maps a game to its strategy; "" is the fallback for all games.
	byGame map[string]strategy
	// build, if set, makes the bot from its Options (a bot with a
	// strength); byGame is then unused.
	build func(Options) (sdk.Bot, error)
}

// Options set the strength of a bundled bot that has one (Tunable). A
// zero field is unset. Level picks one of the bot's levels; a budget
// (Iterations for ismcts; Depth or Nodes for expectimax; TimeFraction for
// both) replaces the level's, so that a fixed budget alone makes the bot
// deterministic. A bot refuses the budget of another kind of search.
type Options struct {
	// Level is weak, medium or strong ("" is the bot's default).
	Level string
	// Iterations is a fixed number of search iterations per move (ismcts).
	Iterations int
	// Depth is a fixed search depth per move, in plies (expectimax).
	Depth int
	// Nodes is a fixed number of search nodes per move (expectimax).
	Nodes int64
	// TimeFraction is the share of each move's clock to think for.
	TimeFraction float64
}

func (o Options) budgetSet() bool { return o.Depth != 0 || o.Nodes != 0 || o.TimeFraction != 0 }

// ErrNoOptions is the error of Options given to a bundled bot that has
// no strength to set.
var ErrNoOptions = errors.New("takes no strength options")

// ErrBadOptions is the error of strength flags ParseOptions cannot read.
var ErrBadOptions = errors.New("bad bot options")

// Strength flags, as `arena bot NAME` and the standalone programs take
// them (--level weak, --depth=3, ...).
const (
	FlagLevel        = "level"
	FlagIterations   = "iterations"
	FlagDepth        = "depth"
	FlagNodes        = "nodes"
	FlagTimeFraction = "time-fraction"
)

// Usage of each strength flag.
var FlagUsage = map[string]string{
	FlagLevel:        "strength of a bot that has levels: weak, medium or strong (default: the bot's default)",
	FlagIterations:   "fixed search iterations per move, ismcts (replaces the level's budget)",
	FlagDepth:        "fixed search depth per move, in plies, expectimax (replaces the level's budget)",
	FlagNodes:        "fixed search nodes per move, expectimax (replaces the level's budget)",
	FlagTimeFraction: "share of each move's clock to think for (replaces the level's budget)",
}

// ParseOptions reads strength flags (FlagLevel, ...) from args, all of
// which must be flags; an error wraps ErrBadOptions and names the flag.
func ParseOptions(args []string) (Options, error) {
	var o Options
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.Level, FlagLevel, "", FlagUsage[FlagLevel])
	fs.IntVar(&o.Iterations, FlagIterations, 0, FlagUsage[FlagIterations])
	fs.IntVar(&o.Depth, FlagDepth, 0, FlagUsage[FlagDepth])
	fs.Int64Var(&o.Nodes, FlagNodes, 0, FlagUsage[FlagNodes])
	fs.Float64Var(&o.TimeFraction, FlagTimeFraction, 0, FlagUsage[FlagTimeFraction])
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("%w: %v", ErrBadOptions, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("%w: %q is not a flag", ErrBadOptions, fs.Arg(0))
	}
	return o, nil
}

// greedyByGame is greedy's strategy for each game ("" for the rest), which
// the search bots also fall back on.
var greedyByGame = map[string]strategy{"": randomChoice, "banqi": GreedyBanqi, "boon": GreedyBoon, "uno": GreedyUno, "bounce": GreedyUno}

// Greedy is the greedy bot's choice in game (a random one in a game it has
// no strategy for): an index into legal (the referee's action JSON) from
// the seat's view JSON. A training environment seats it at the seats its
// agents do not play, in process.
func Greedy(game string) func(view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error) {
	if f, ok := greedyByGame[game]; ok {
		return f
	}
	return greedyByGame[""]
}

var registry = map[string]entry{
	"random": {
		summary: "a uniformly random legal action, seeded from hello (every game)",
		byGame:  map[string]strategy{"": randomChoice},
	},
	"expectimax": {
		summary: "banqi: alpha-beta search with flips as chance nodes over the face-down pieces (expectimax), repetition-aware; levels weak, medium, strong (default; half of each move's clock); other games: random",
		build:   newExpectimax,
	},
	"ismcts": {
		summary: "uno/bounce, boon: information-set Monte Carlo tree search (levels weak, medium, strong = " + ismctsLevels() + "); other games: greedy",
		build:   newISMCTS,
	},
	"greedy": {
		summary: "banqi: takes the most valuable piece it safely can, avoids hanging pieces, else flips; boon: picks on strong hands, buries points, wins tricks cheaply, ducks in Least mode; uno/bounce: sheds high cards, keeps wilds, names its longest colour, challenges likely bluffs",
		byGame:  greedyByGame,
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

// New returns the bundled bot called name, at its default strength.
func New(name string) (sdk.Bot, error) { return NewWith(name, Options{}) }

// Tunable reports whether bundled bot name takes Options.
func Tunable(name string) bool { return registry[name].build != nil }

// NewWith returns the bundled bot called name with options o. Options
// for a bot that takes none is an error wrapping ErrNoOptions.
func NewWith(name string, o Options) (sdk.Bot, error) {
	if err := Check(name); err != nil {
		return nil, err
	}
	e := registry[name]
	if e.build != nil {
		return e.build(o)
	}
	if o != (Options{}) {
		return nil, fmt.Errorf("bot %s %w", name, ErrNoOptions)
	}
	return &player{entry: e}, nil
}

// ErrOtherBudget is the error of a budget given to a bot whose search
// counts another (--depth for ismcts, --iterations for expectimax).
var ErrOtherBudget = errors.New("budget of another kind of search")

// newExpectimax is the expectimax bot at o's level, or with o's budget.
func newExpectimax(o Options) (sdk.Bot, error) {
	if o.Iterations != 0 {
		return nil, fmt.Errorf("--%s: %w (expectimax takes --%s or --%s)", FlagIterations, ErrOtherBudget, FlagDepth, FlagNodes)
	}
	cfg, err := expectimax.LevelConfig(o.Level)
	if err != nil {
		return nil, err
	}
	if o.budgetSet() {
		cfg = expectimax.Config{Depth: o.Depth, Nodes: o.Nodes, TimeFraction: o.TimeFraction}
	}
	return expectimax.New(cfg)
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

// Session plays one session of bundled bot name with o over in and out
// (the protocol, sdk.Run), a new bot each call: what serves it over
// stdio (arena bot) or sessions at once (arena bot --nats) calls it.
func Session(name string, o Options, version string) func(in io.Reader, out io.Writer) error {
	return func(in io.Reader, out io.Writer) error {
		b, err := NewWith(name, o)
		if err != nil {
			return err
		}
		return sdk.Run(in, out, b, sdk.Options{Name: name, Version: version})
	}
}

// Main runs bundled bot name as a standalone program (bots/cmd/NAME): its
// strength flags from the command line (ParseOptions), then the protocol
// on stdin and stdout. A bad flag exits 2, naming it.
func Main(name string) {
	o, err := ParseOptions(os.Args[1:])
	if err == nil {
		var bot sdk.Bot
		if bot, err = NewWith(name, o); err == nil {
			runtime.GOMAXPROCS(1) // as `arena bot` runs it (cmd/arena/bot.go says why)
			sdk.Main(bot, sdk.Options{Name: name, Version: "1"})
			return
		}
	}
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(2)
}
