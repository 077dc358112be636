package expectimax

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/protocol"
)

// Config is a bot's strength: a fixed budget (Depth, Nodes), a share of
// the move clock (TimeFraction), or both, whichever ends first. With
// TimeFraction 0 the bot still stops by the safety deadline.
type Config struct {
	// Depth caps iterative deepening, in plies (0: no cap).
	Depth int
	// Nodes caps the nodes searched per move (0: no cap).
	Nodes int64
	// TimeFraction is the share of turn.clock.move_ms to think for,
	// in (0, MaxTimeFraction]; 0: think until the fixed budget or the
	// safety deadline.
	TimeFraction float64
}

// Levels of the bundled bot, weakest first. Weak and medium are fixed
// budgets (so they play the same moves on any machine, given the seed,
// as long as the clock lets them finish: medium needs a few milliseconds
// a move); strong thinks for half of each move's clock.
var Levels = []struct {
	Name   string
	Config Config
}{
	{"weak", Config{Depth: 1}},
	{"medium", Config{Nodes: 4000}},
	{"strong", Config{TimeFraction: 0.5}},
}

// DefaultLevel is the level a bot gets when none is named.
const DefaultLevel = "strong"

// Bounds of the time a move may take.
const (
	// MaxTimeFraction is the largest share of the move clock a bot may
	// plan to use: the rest is for reading, writing and the OS.
	MaxTimeFraction = 0.8
	// safetyMargin is kept back from every move clock on top of that, for
	// a clock so short that a fraction of it leaves no room.
	safetyMargin = 5 * time.Millisecond
)

// ErrLevel is the error of a level name that is not one of Levels.
var ErrLevel = errors.New("unknown level")

// ErrConfig is the error of a Config out of bounds.
var ErrConfig = errors.New("bad expectimax config")

// LevelConfig is the Config of a named level ("" is DefaultLevel).
func LevelConfig(name string) (Config, error) {
	if name == "" {
		name = DefaultLevel
	}
	var names []string
	for _, l := range Levels {
		if l.Name == name {
			return l.Config, nil
		}
		names = append(names, l.Name)
	}
	return Config{}, fmt.Errorf("%w %q (want %s)", ErrLevel, name, strings.Join(names, ", "))
}

// Check returns nil if c is within bounds, else an error wrapping
// ErrConfig that names the bad field.
func (c Config) Check() error {
	switch {
	case c.Depth < 0:
		return fmt.Errorf("%w: depth %d is negative", ErrConfig, c.Depth)
	case c.Nodes < 0:
		return fmt.Errorf("%w: nodes %d is negative", ErrConfig, c.Nodes)
	case c.TimeFraction < 0 || c.TimeFraction > MaxTimeFraction:
		return fmt.Errorf("%w: time fraction %g is not in [0, %g]", ErrConfig, c.TimeFraction, MaxTimeFraction)
	}
	return nil
}

// Bot is the expectimax Banqi bot, an sdk.Bot. It keeps, across the turns
// of a game, the positions since the last flip or capture (for the
// repetition rule); everything else it reads from each turn. It plays
// any game: one that is not Banqi gets a seeded random legal action.
type Bot struct {
	cfg   Config
	rng   *rand.Rand
	rules rules
	banqi bool
	// window holds the hashes of the positions at turn boundaries since
	// the last flip or capture, as far as this seat has seen them (the
	// engine's repetition window; view.repeats checks it).
	window []uint64
	s      *searcher
	// Last is the result of the last search (for tests and logs).
	Last Result
}

// New is a bot of strength cfg (checked: see Config.Check).
func New(cfg Config) (*Bot, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return &Bot{cfg: cfg}, nil
}

// Start implements sdk.Bot: seeds the bot from the hello's seed and seat
// (as the other bundled bots), reads the rule options.
func (b *Bot) Start(h *protocol.Hello) error {
	b.rng = rand.New(rand.NewPCG(h.Seed, uint64(h.Seat)))
	b.window = b.window[:0]
	b.banqi = h.Game == "banqi"
	if !b.banqi {
		return nil
	}
	r, err := banqi.RulesFromOptions(engine.Options(h.Options))
	if err != nil {
		return fmt.Errorf("expectimax: hello options: %w", err)
	}
	b.rules = r
	b.s = newSearcher(r)
	return nil
}

// End implements sdk.Bot.
func (b *Bot) End(*protocol.End) {}

// Act implements sdk.Bot: it searches from the turn's view over the
// turn's legal actions and returns the index of the best.
func (b *Bot) Act(t *protocol.Turn) (int, error) {
	received := time.Now()
	if len(t.Legal) == 0 {
		return 0, fmt.Errorf("expectimax: turn %d has no legal actions", t.ID)
	}
	if b.rng == nil { // a turn before any hello: be lenient
		b.Start(&protocol.Hello{Game: "banqi"})
	}
	if !b.banqi {
		return b.rng.IntN(len(t.Legal)), nil
	}
	var v banqi.View
	if err := json.Unmarshal(t.View, &v); err != nil {
		return 0, fmt.Errorf("expectimax: view: %w", err)
	}
	acts := make([]banqi.Action, len(t.Legal))
	for i, raw := range t.Legal {
		a, err := banqi.ParseAction(raw)
		if err != nil {
			return 0, fmt.Errorf("expectimax: legal[%d]: %w", i, err)
		}
		acts[i] = a
	}
	if v.You == nil || v.You.Colour == nil {
		// The game's first flip: every square hides the same multiset.
		return b.rng.IntN(len(t.Legal)), nil
	}
	me := banqi.Red
	if *v.You.Colour == "black" {
		me = banqi.Black
	}
	if v.Ranks == "hk" {
		b.rules.Ranks = banqi.HK
	} else {
		b.rules.Ranks = banqi.Taiwan
	}
	b.s.r = b.rules
	root, err := fromView(&v, me)
	if err != nil {
		return 0, fmt.Errorf("expectimax: %w", err)
	}
	b.track(&root, &v)
	b.Last = b.s.run(&root, b.window, acts, b.limits(t.Clock, received), b.rng)
	return b.Last.Best, nil
}

// limits are the search's bounds for a move with clock c received at
// start: the fixed budget, and a deadline at TimeFraction of the clock,
// never later than MaxTimeFraction of it less safetyMargin.
func (b *Bot) limits(c protocol.TurnClock, start time.Time) Limits {
	l := Limits{Depth: b.cfg.Depth, Nodes: b.cfg.Nodes}
	if c.MoveMs <= 0 {
		return l
	}
	move := time.Duration(c.MoveMs) * time.Millisecond
	think := max(time.Duration(float64(move)*MaxTimeFraction)-safetyMargin, time.Millisecond)
	if b.cfg.TimeFraction > 0 {
		think = min(think, time.Duration(float64(move)*b.cfg.TimeFraction))
	}
	l.Deadline = start.Add(think)
	return l
}

// track brings the repetition window up to root. Since the seat's last
// turn, if no flip or capture happened (plies_since_progress grew by 2),
// the window gained the position after this seat's move, which is root
// with the opponent's last move undone, and root itself; in any case it
// holds the last plies_since_progress+1 positions at most.
func (b *Bot) track(root *position, v *banqi.View) {
	if root.chain >= 0 {
		b.window = b.window[:0] // inside a capture chain: a new window after it
		return
	}
	if q := int(root.quiet); q > 0 {
		// A move (not a flip, nor an attack on a face-down piece, which
		// shows something: no repetition across it).
		if last, err := banqi.ParseLast(v.Last); err == nil && last.To >= 0 && last.Revealed == banqi.Empty &&
			root.board[last.To].Up() && root.board[last.From] == banqi.Empty {
			from, to := last.From, last.To
			prev := *root
			prev.set(from, root.board[to])
			prev.set(to, banqi.Empty)
			prev.side = 1 - root.side
			prev.computeHash()
			b.window = append(b.window, prev.hash)
		}
	}
	b.window = append(b.window, root.hash)
	if keep := int(root.quiet) + 1; len(b.window) > keep {
		b.window = append(b.window[:0], b.window[len(b.window)-keep:]...)
	}
}

// Repeats is how many times the current position occurs in the bot's
// repetition window (what view.repeats says, when the bot has seen the
// whole window).
func (b *Bot) Repeats() int {
	if len(b.window) == 0 {
		return 1
	}
	n, h := 0, b.window[len(b.window)-1]
	for _, x := range b.window {
		if x == h {
			n++
		}
	}
	return n
}
