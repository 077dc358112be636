package referee

import (
	"fmt"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/procfs"
)

// moveTime is a move's think time as charged, and the part of its wall
// time that was not (wall = think + waited): time the bot waited for a
// CPU, or a reply in time that the referee read late.
type moveTime struct {
	think, waited time.Duration
	ran           time.Duration // the CPU time the bot used (-1: not metered)
	stolen        time.Duration // the machine's steal time meanwhile (not forgiven: it moves the wall cap)
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
	text := fmt.Sprintf(": it ran %v on a CPU and waited %v for one, or for memory or I/O", t.ran.Round(time.Microsecond), t.waited.Round(time.Microsecond))
	if t.stolen > 0 {
		text += fmt.Sprintf(" (the hypervisor held this machine's CPUs %v meanwhile)", t.stolen)
	}
	return text
}

// minExtension is the least a deadline is moved for time the bot waited
// for a CPU: below it, the move is over time.
const minExtension = time.Millisecond

// MeterAfter is how far into a move the referee takes its first reading
// of the bot's CPU use; a reply before then is charged its whole wall
// time, and a later one is forgiven only what the machine held the bot
// back from that reading on. Why: a reading is four or five cgroup files
// the kernel formats afresh (10-14 us), two per move, which doubled the
// referee's CPU per move of a fast bot in a real match; a reply within
// MeterAfter is far inside any allowance, and charging what little
// waiting it had costs a Fischer bank at most MeterAfter per move.
const MeterAfter = time.Millisecond

// meter reads the CPU use of the bot on a turn, from a first reading
// taken MeterAfter into the move (the reply had not come).
type meter struct {
	m    transport.Meter // nil: not metered, the wall time is charged
	at   transport.Usage // the first reading
	from time.Duration   // when into the move it was taken
	// The machine's steal time at the first reading; steal is nil where
	// it cannot be read (then the wall cap does not move).
	stolenAt time.Duration
	steal    func() (time.Duration, bool)
}

// startMeter takes the first reading of c, from into the move.
func startMeter(c transport.Conn, from time.Duration) meter {
	m, ok := c.(transport.Meter)
	if !ok {
		return meter{}
	}
	at, ok := m.Usage()
	if !ok {
		return meter{} // the bot has ended, or cannot be read: charged in full
	}
	mt := meter{m: m, at: at, from: from}
	if s, ok := machineSteal.now(); ok {
		mt.stolenAt, mt.steal = s, machineSteal.now
	}
	return mt
}

// forgiven is the time not charged of a move's wall time so far, and the
// CPU time the bot ran since the first reading (-1: not metered). Only
// the wall time since the first reading can be forgiven.
func (m *meter) forgiven(wall time.Duration) (time.Duration, time.Duration) {
	if m.m == nil {
		return 0, -1
	}
	now, ok := m.m.Usage()
	if !ok {
		return 0, -1 // the bot has ended: its last move is charged in full
	}
	d := now.Since(m.at)
	ran := max(d.Ran, 0)
	held := d.Waited // by the machine, for a CPU
	if !now.AtMemoryLimit && !m.at.AtMemoryLimit {
		held += d.Stalled // or for memory or I/O, not brought on by its own memory limit
	}
	return clock.Forgiven(max(wall-m.from, 0), ran, held, d.Throttled, d.Rate), ran
}

// stolen is the machine's steal time since the first reading (0 where it
// cannot be read). It is not forgiven: a bot on a virtual CPU the
// hypervisor took counts, to its cgroup, as neither running nor waiting,
// as a bot that sleeps does, and a sleeper must lose on time whatever the
// machine does. It moves the wall cap (extend).
func (m *meter) stolen() time.Duration {
	if m.steal == nil {
		return 0
	}
	s, ok := m.steal()
	if !ok {
		return 0
	}
	return max(s-m.stolenAt, 0)
}

// extend is the deadline for a move whose deadline so far has passed
// after wall: due (its wall-clock deadline) plus the time the bot waited
// for a CPU, up to wallCap, which the machine's steal time meanwhile
// moves (a paused virtual machine stops the referee and the bot alike:
// the cap bounds what load on this machine may stretch a move by, not
// time in which nothing here ran); or deadline itself, when that is not
// at least minExtension later.
func (m *meter) extend(due, deadline, wallCap time.Time, wall time.Duration) time.Time {
	f, _ := m.forgiven(wall)
	later := due.Add(f)
	if c := wallCap.Add(m.stolen()); c.Before(later) {
		later = c
	}
	if later.Sub(deadline) < minExtension {
		return deadline
	}
	return later
}

// charge is the move's time after wall.
func (m *meter) charge(wall time.Duration) moveTime {
	f, ran := m.forgiven(wall)
	return moveTime{think: wall - f, waited: f, ran: ran, stolen: m.stolen()}
}

// stealFresh is how old a reading of the machine's steal time may be and
// still serve a move: the kernel counts it in steps of 10 ms, and a read
// of /proc/stat costs the referee about 8 us, as much as the bot's
// cgroup files, so the moves of every game share one reading at a time.
const stealFresh = 10 * time.Millisecond

// stealClock is the machine's steal time (procfs.Stolen), read at most
// once per stealFresh.
type stealClock struct {
	mu   sync.Mutex
	at   time.Time // of the last reading; zero: none yet
	v    time.Duration
	ok   bool
	read func() (time.Duration, error)
}

// machineSteal serves every game of this process.
var machineSteal = &stealClock{read: procfs.Stolen}

// now is the machine's steal time, as of stealFresh ago at most, and
// whether it can be read here.
func (s *stealClock) now() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := time.Now(); s.at.IsZero() || t.Sub(s.at) >= stealFresh {
		v, err := s.read()
		s.at, s.v, s.ok = t, v, err == nil
	}
	return s.v, s.ok
}
