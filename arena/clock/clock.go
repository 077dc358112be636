// Package clock keeps a bot's time: a per-move limit, a Fischer bank
// (base + increment), or both, plus a margin for OS jitter.
//
// A move's wall time runs from the moment the referee has written a turn
// until it has read the reply's newline, on the referee's monotonic clock.
// The bot is charged that time less the time it was ready to run but
// waited for a CPU the machine gave to others (Forgiven), when the machine
// reports it; however long it waited, a move ends at WallCap.
package clock

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// Limits are the time rules of a match. Zero Move and zero Base means no
// per-move limit at all (not recommended: a silent bot then blocks forever,
// so the referee applies Unlimited instead).
type Limits struct {
	// Startup is the time allowed from hello to ready.
	Startup time.Duration
	// Move is the limit for a single move (0 = none).
	Move time.Duration
	// Base and Inc form a Fischer clock: the bank starts at Base and gains
	// Inc after every move (Base 0 = no bank).
	Base, Inc time.Duration
	// Margin is added to every deadline to absorb OS scheduling jitter; a
	// reply inside the margin is on time.
	Margin time.Duration
}

// Unlimited is the per-move allowance when no limit is configured.
const Unlimited = 24 * time.Hour

// Defaults are the limits arena uses when none are given.
var Defaults = Limits{Startup: 10 * time.Second, Move: time.Second, Margin: 50 * time.Millisecond}

// Protocol renders the limits as sent in hello.
func (l Limits) Protocol() protocol.Clock {
	return protocol.Clock{
		StartupMs: l.Startup.Milliseconds(), MoveMs: l.Move.Milliseconds(),
		BaseMs: l.Base.Milliseconds(), IncMs: l.Inc.Milliseconds(), MarginMs: l.Margin.Milliseconds(),
	}
}

// String is a short human description, e.g. "move 1s, tc 60s+1s".
func (l Limits) String() string {
	var parts []string
	if l.Move > 0 {
		parts = append(parts, "move "+l.Move.String())
	}
	if l.Base > 0 {
		parts = append(parts, fmt.Sprintf("tc %v+%v", l.Base, l.Inc))
	}
	if len(parts) == 0 {
		parts = append(parts, "no move limit")
	}
	return strings.Join(parts, ", ")
}

// Validate rejects negative or meaningless limits.
func (l Limits) Validate() error {
	switch {
	case l.Startup < 0, l.Move < 0, l.Base < 0, l.Inc < 0, l.Margin < 0:
		return fmt.Errorf("time limits must not be negative")
	case l.Inc > 0 && l.Base == 0:
		return fmt.Errorf("an increment needs a base time (--tc BASE+INC)")
	}
	return nil
}

// Clock is one seat's clock for one game.
type Clock interface {
	// Allowance is the time granted for the next move (margin excluded)
	// and the bank before it (0 without a bank).
	Allowance() (move, bank time.Duration)
	// Deadline is when a move started at start runs out, margin included.
	Deadline(start time.Time) time.Time
	// Charge books a move's think time; it reports false if the move was
	// over time.
	Charge(elapsed time.Duration) bool
}

// New returns a fresh clock for one seat.
func New(l Limits) Clock {
	return &fischer{limits: l, bank: l.Base}
}

type fischer struct {
	limits Limits
	bank   time.Duration
}

func (c *fischer) Allowance() (time.Duration, time.Duration) {
	move := c.limits.Move
	if c.limits.Base > 0 && (move == 0 || c.bank < move) {
		move = c.bank
	}
	if move == 0 && c.limits.Base == 0 {
		move = Unlimited
	}
	return move, c.bank
}

func (c *fischer) Deadline(start time.Time) time.Time {
	move, _ := c.Allowance()
	return start.Add(move + c.limits.Margin)
}

func (c *fischer) Charge(elapsed time.Duration) bool {
	move, _ := c.Allowance()
	onTime := elapsed <= move+c.limits.Margin
	if c.limits.Base > 0 {
		c.bank = max(c.bank-elapsed, 0) + c.limits.Inc
	}
	return onTime
}

// Forgiven is the part of a move's wall time not charged to the bot: the
// time it waited for a CPU (waited, less throttled, the time its own CPU
// rate limit held it back), but never more than wall less ran, the CPU
// time it used. So a loaded machine does not make a bot lose on time, and
// a bot is never charged less than the CPU it got, over all its threads
// and processes. Under a rate limit of rate CPUs (0: none) the bot could
// have run at most rate×wall; the machine kept from it only what it did
// not get of that, so no more than wall less ran/rate is forgiven (the
// kernel's throttled count falls short of the time the limit held a bot
// back on a loaded machine: a bot at 0.2 CPU that ran its 120 ms of 600 ms
// was counted 240-390 ms throttled of the 480 it was held). Arguments out
// of range (a reading that went backwards) forgive nothing beyond wall.
func Forgiven(wall, ran, waited, throttled time.Duration, rate float64) time.Duration {
	waited -= min(max(throttled, 0), wall)
	f := max(0, min(waited, wall-max(ran, 0), wall))
	if rate > 0 {
		f = max(0, min(f, wall-time.Duration(float64(max(ran, 0))/rate)))
	}
	return f
}

// MinCapSlack is the least WallCap allows beyond a move's deadline.
const MinCapSlack = time.Second

// WallCap is the most wall time a move of the given allowance may take,
// however long the bot waited for a CPU: the allowance and margin twice
// over, and at least MinCapSlack beyond the deadline. It keeps a starved
// machine from stretching a game without bound.
func (l Limits) WallCap(move time.Duration) time.Duration {
	d := move + l.Margin
	return d + max(d, MinCapSlack)
}

// ParseTC parses a Fischer time control "BASE+INC" or "BASE" where each part
// is a Go duration ("60s+0.5s", "2m+1s") or plain seconds ("60+0.5").
func ParseTC(s string) (base, inc time.Duration, err error) {
	b, i, hasInc := strings.Cut(s, "+")
	if base, err = parseDur(b); err != nil {
		return 0, 0, fmt.Errorf("time control %q: base: %w", s, err)
	}
	if hasInc {
		if inc, err = parseDur(i); err != nil {
			return 0, 0, fmt.Errorf("time control %q: increment: %w", s, err)
		}
	}
	if base <= 0 {
		return 0, 0, fmt.Errorf("time control %q: base must be positive", s)
	}
	return base, inc, nil
}

var plainSeconds = regexp.MustCompile(`^([0-9]+\.?[0-9]*|\.[0-9]+)$`)

func parseDur(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if err != nil {
		secs, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || !plainSeconds.MatchString(s) {
			return 0, fmt.Errorf("%q is not a duration (try 60s, 1m30s or 60)", s)
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return d, nil
}
