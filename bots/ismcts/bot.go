package ismcts

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/protocol"
)

// Config is a bot's strength: a fixed number of iterations per move, or
// a fraction of the move's clock, or both (whichever ends first).
type Config struct {
	// Iterations per move (0: none, if TimeFraction is set).
	Iterations int
	// TimeFraction of the move's time budget (turn.clock.move_ms) to
	// search, less a safety margin; without a clock the search runs
	// Iterations, or NoClockIterations if that is 0.
	TimeFraction float64
	// NoClockIterations is the budget of a time-based bot in a game
	// without a clock (0: 4000).
	NoClockIterations int
	// Exploration is UCB's c (0: 0.7).
	Exploration float64
	// Confidence, if above 0, makes the search's move overrule the
	// Fallback's (greedy's) only when its mean reward beats that move's
	// by this many standard errors of the difference (Result.Beats);
	// else the bot plays the Fallback's move.
	Confidence float64
	// GreedyPlayouts plays Uno's playouts by greedy's rules of thumb
	// (unoState.greedyRollout) instead of the cheaper policy. (Boon's
	// playout policy is greedy-like already.)
	GreedyPlayouts bool
	// Paired, if above 0, replaces the test of Confidence in Uno by a
	// paired comparison (Compare) over this many deals of the search's
	// most visited moves (PairedCands of them) against the Fallback's; a
	// time budget then gives the search a third and the comparison the
	// rest. (In Boon it measured worse than the tree's own test, at 3
	// and 4 seats: docs/bots.md.)
	Paired      int
	PairedCands int
	// Boon holds the choices of the search in Boon alone.
	Boon BoonOptions
}

// DefaultConfidence is the Confidence of the medium and strong levels:
// one standard error (docs/bots.md, "Greedy's move unless the search is
// sure"). Weak has none: playing its own move always keeps it below the
// others at four seats too, where the test makes every level greedy-like.
const DefaultConfidence = 1.0

// Levels are the named strengths, weakest first.
var Levels = []struct {
	Name   string
	Config Config
	Doc    string
}{
	{"weak", Config{Iterations: 50}, "50 iterations a move, its own move always"},
	{"medium", Config{Iterations: 500, Confidence: DefaultConfidence}, "500 iterations a move"},
	{"strong", Config{TimeFraction: 0.5, NoClockIterations: 4000, Confidence: DefaultConfidence, GreedyPlayouts: true, Paired: 300, PairedCands: 3,
		Boon: BoonOptions{Infer: true, InferDeals: 8}},
		"half the move clock, in Uno its 3 best moves tested against greedy's on the same deals, in Boon deals weighed by what the pick suggests (4000 iterations, and 300 deals in Uno, without a clock)"},
}

// Level is the config of a named level.
func Level(name string) (Config, error) {
	for _, l := range Levels {
		if l.Name == name {
			return l.Config, nil
		}
	}
	return Config{}, fmt.Errorf("unknown level %q (weak, medium, strong)", name)
}

// Budget is the time the search may take for a move of moveMs
// milliseconds at this config: the fraction, but never closer to the
// move's limit than a safety margin (a fifth of the move, at least 10
// ms), and 0 without a time budget (iterations only).
func (c Config) Budget(moveMs int64) time.Duration {
	if c.TimeFraction <= 0 || moveMs <= 0 {
		return 0
	}
	move := time.Duration(moveMs) * time.Millisecond
	b := time.Duration(c.TimeFraction * float64(move))
	margin := max(move/5, 10*time.Millisecond)
	b = min(b, move-margin)
	return max(b, time.Millisecond)
}

// A Strategy picks a move when the search cannot (a game it does not
// play, a view it cannot read): the bundled bots pass greedy's.
type Strategy func(game string, view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error)

// Bot is the ISMCTS player, an sdk.Bot: Uno and Bounce (every seat
// count and option), Boon; any other game, or a decision it cannot
// search, goes to Fallback.
type Bot struct {
	Config   Config
	Fallback Strategy
	// Stats, if set, is called after every search.
	Stats func(Result)

	game string
	rng  *rand.Rand
	// obs follows the seat's views of this game (the engine's
	// sampler), nil for a game the bot does not search.
	obs   engine.Observer
	seats int
	err   error // the game cannot be searched: options, or a view unread
}

// New is a bot of config c.
func New(c Config, fallback Strategy) *Bot { return &Bot{Config: c, Fallback: fallback} }

// Start implements sdk.Bot: the RNG is seeded from the hello's seed and
// seat, so a game replays exactly at a fixed iteration budget; the
// engine's observer of the seat's views is started for a game searched.
func (b *Bot) Start(h *protocol.Hello) error {
	b.game, b.obs, b.err = h.Game, nil, nil
	b.rng = rand.New(rand.NewPCG(h.Seed, uint64(h.Seat)))
	if !slices.Contains(searched, h.Game) {
		return nil
	}
	b.seats = max(h.Seats, 2)
	b.obs, b.err = observer(h.Game, h.Seat, b.seats, h.Options)
	return nil
}

// searched are the games the bot searches.
var searched = []string{"uno", "bounce", "boon"}

// horizonOptions are the options that would end a game before the end
// of the hand or round a search looks to: each is lifted to its
// greatest value in the determinizations.
var horizonOptions = map[string]string{"uno": "max_actions", "bounce": "max_actions", "boon": "rounds"}

// observer is the engine's observer of seat's views of game under
// opts, but for the game's horizon option lifted.
func observer(game string, seat, seats int, opts map[string]string) (engine.Observer, error) {
	g, err := engine.Lookup(game)
	if err != nil {
		return nil, err
	}
	sm, ok := g.(engine.Sampler)
	if !ok {
		return nil, fmt.Errorf("ismcts: %s has no sampler", game)
	}
	lifted := maps.Clone(opts)
	if lifted == nil {
		lifted = map[string]string{}
	}
	for _, o := range g.Info().Options {
		if o.Name == horizonOptions[game] {
			lifted[o.Name] = strconv.Itoa(o.Max)
		}
	}
	return sm.Observer(seat, seats, lifted)
}

// End implements sdk.Bot.
func (b *Bot) End(*protocol.End) {}

// Act implements sdk.Bot.
func (b *Bot) Act(t *protocol.Turn) (int, error) {
	start := time.Now()
	if b.rng == nil {
		b.Start(&protocol.Hello{})
	}
	if len(t.Legal) == 0 {
		return 0, fmt.Errorf("turn %d has no legal actions", t.ID)
	}
	lim := Limits{Iterations: b.Config.Iterations, Exploration: b.Config.Exploration}
	if d := b.Config.Budget(t.Clock.MoveMs); d > 0 {
		lim.Deadline = start.Add(d)
	} else if b.Config.Iterations <= 0 {
		lim.Iterations = b.Config.NoClockIterations
		if lim.Iterations <= 0 {
			lim.Iterations = 4000
		}
	}
	searchLim, pairs := lim, b.Config.Paired
	if b.game == "boon" || b.Fallback == nil || b.Config.Confidence <= 0 {
		pairs = 0 // no paired test, so the tree has all the time
	}
	if pairs > 0 && !lim.Deadline.IsZero() {
		// The tree only ranks the candidates: a third of the time; the
		// comparison takes the rest (and no count of deals, without one
		// of iterations either).
		searchLim.Deadline = start.Add(lim.Deadline.Sub(start) / 3)
		if b.Config.Iterations <= 0 {
			pairs = math.MaxInt
		}
	}
	i, r, cmp, err := b.search(t, searchLim)
	if err != nil {
		return b.fallback(t)
	}
	if b.Fallback == nil || b.Config.Confidence <= 0 || len(r.Visits) <= 1 {
		return i, nil
	}
	// The search's move must earn its place against greedy's: with a few
	// thousand deals, the means of the good moves differ by less than
	// their noise (four-seat Uno and Boon), and picking the most visited
	// among them is a coin toss that greedy's rules of thumb beat.
	d, err := b.fallback(t)
	if err != nil || d < 0 || d >= len(r.Visits) {
		return i, nil
	}
	if pairs == 0 {
		if !r.Beats(i, d, b.Config.Confidence) {
			return d, nil
		}
		return i, nil
	}
	cands := topVisited(r, d, max(b.Config.PairedCands, 1))
	if len(cands) == 0 {
		return d, nil
	}
	best, bestMean := d, 0.0
	for j, p := range cmp(cands, d, pairs, lim) {
		if p.N > 1 && p.Mean > b.Config.Confidence*p.SE && p.Mean > bestMean {
			best, bestMean = cands[j], p.Mean
		}
	}
	return best, nil
}

func (b *Bot) fallback(t *protocol.Turn) (int, error) {
	if b.Fallback != nil {
		return b.Fallback(b.game, t.View, t.Legal, b.rng)
	}
	return b.rng.IntN(len(t.Legal)), nil
}

// topVisited is the k root actions visited most but d, most first.
func topVisited(r Result, d, k int) []int {
	var out []int
	for range k {
		best := -1
		for i, v := range r.Visits {
			if i != d && v > 0 && !slices.Contains(out, i) && (best < 0 || v > r.Visits[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out = append(out, best)
	}
	return out
}

type compareFunc func(cands []int, base, n int, lim Limits) []Paired

func (b *Bot) search(t *protocol.Turn, lim Limits) (int, Result, compareFunc, error) {
	if b.err != nil {
		return 0, Result{}, nil, b.err
	}
	if b.obs == nil {
		return 0, Result{}, nil, fmt.Errorf("ismcts does not play %s", b.game)
	}
	// Every view goes to the observer, in order: one skipped would lose
	// what its events told.
	if err := b.obs.Observe(t.View); err != nil {
		b.err = err
		return 0, Result{}, nil, err
	}
	switch b.game {
	case "uno", "bounce":
		acts, err := parseLegal(t.Legal, uno.ParseAction)
		if err != nil {
			return 0, Result{}, nil, err
		}
		return searchGame[uno.Action](b, &unoGame{obs: b.obs, seats: b.seats, greedy: b.Config.GreedyPlayouts}, acts, lim)
	default:
		var v boon.View
		if err := json.Unmarshal(t.View, &v); err != nil {
			return 0, Result{}, nil, err
		}
		acts, err := parseLegal(t.Legal, boon.ParseAction)
		if err != nil {
			return 0, Result{}, nil, err
		}
		return searchGame[boon.Action](b, newBoonGame(b.obs, &v, b.Config.Boon), acts, lim)
	}
}

// searchGame runs the search of g from the root actions acts, and
// gives the paired comparison of its moves over the same deals.
func searchGame[A comparable](b *Bot, g Game[A], acts []A, lim Limits) (int, Result, compareFunc, error) {
	i, r, err := b.run(Search[A](g, acts, lim, b.rng))
	return i, r, func(cands []int, base, n int, lim Limits) []Paired {
		return Compare[A](g, acts, cands, base, n, lim, b.rng)
	}, err
}

func (b *Bot) run(r Result) (int, Result, error) {
	if b.Stats != nil {
		b.Stats(r)
	}
	if len(r.Visits) > 1 && r.Iterations == 0 {
		return 0, r, fmt.Errorf("no determinization could be dealt")
	}
	return r.Best, r, nil
}

func parseLegal[A any](legal []json.RawMessage, parse func(json.RawMessage) (A, error)) ([]A, error) {
	out := make([]A, len(legal))
	for i, raw := range legal {
		a, err := parse(raw)
		if err != nil {
			return nil, fmt.Errorf("legal[%d]: %w", i, err)
		}
		out[i] = a
	}
	return out, nil
}
