package referee

import (
	"fmt"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/transport"
)

// moveTime is a move's think time as charged, and the part of its wall
// time that was not (wall = think + waited): time the bot waited for a
// CPU, or a reply in time that the referee read late.
type moveTime struct {
	think, waited time.Duration
	ran           time.Duration // the CPU time the bot used (-1: not metered)
}

// limit charges at most d, the rest of the wall time being the referee's.
func (t *moveTime) limit(d time.Duration) {
	if t.think > d {
		t.waited += t.think - d
		t.think = d
	}
}

// cpuText says how the bot used the CPU during the move, when metered.
func (t moveTime) cpuText() string {
	if t.ran < 0 {
		return ""
	}
	return fmt.Sprintf(": it ran %v on a CPU and waited %v for one", t.ran.Round(time.Microsecond), t.waited.Round(time.Microsecond))
}

// minExtension is the least a deadline is moved for time the bot waited
// for a CPU: below it, the move is over time.
const minExtension = time.Millisecond

// meter reads the CPU use of the bot on a turn. After a quick move it
// takes its first reading only once the move has lasted clock.MeterAfter,
// so that a quick reply costs no reading at all; after a slow one (a busy
// machine, or a bot that thinks), as the turn goes out: a referee that a
// busy machine runs late would take it late, and miss the wait before.
type meter struct {
	m       transport.Meter // nil: not metered, the wall time is charged
	started bool
	wall0   time.Duration   // the move's wall time at the first reading
	at      transport.Usage // the first reading
	last    time.Duration   // the time forgiven when the deadline was last moved
}

func newMeter(c transport.Conn, now bool) meter {
	m, _ := c.(transport.Meter)
	cpu := meter{m: m}
	if now && m != nil {
		cpu.start(0)
	}
	return cpu
}

// unread: the bot is metered, but not read yet.
func (m *meter) unread() bool { return m.m != nil && !m.started }

// start takes the first reading, wall into the move.
func (m *meter) start(wall time.Duration) {
	m.started = true
	at, ok := m.m.Usage()
	if !ok {
		m.m = nil // the bot has ended, or cannot be read: charged in full
		return
	}
	m.wall0, m.at = wall, at
}

// forgiven is the time not charged of a move's wall time so far, and the
// CPU time the bot ran since the first reading (-1: no reading).
func (m *meter) forgiven(wall time.Duration) (time.Duration, time.Duration) {
	if m.m == nil || !m.started {
		return 0, -1
	}
	now, ok := m.m.Usage()
	if !ok {
		return 0, -1 // the bot has ended: its last move is charged in full
	}
	ran := now.Ran - m.at.Ran
	return clock.Forgiven(wall-m.wall0, ran, now.Waited-m.at.Waited), ran
}

// extend is the deadline for a move whose wall-clock deadline (due) has
// passed after wall: due plus the time the bot waited for a CPU, up to
// wallCap; or due itself when that is not at least minExtension more than
// the last extension.
func (m *meter) extend(due time.Time, wall time.Duration, wallCap time.Time) time.Time {
	f, _ := m.forgiven(wall)
	if f < m.last+minExtension {
		return due.Add(m.last)
	}
	m.last = f
	if later := due.Add(f); later.Before(wallCap) {
		return later
	}
	return wallCap
}

// charge is the move's time after wall.
func (m *meter) charge(wall time.Duration) moveTime {
	f, ran := m.forgiven(wall)
	return moveTime{think: wall - f, waited: f, ran: ran}
}
