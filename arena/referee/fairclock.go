package referee

import (
	"fmt"
	"sync"
	"sync/atomic"
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
	stolen        time.Duration // the machine's steal time meanwhile (not forgiven: it moves the wall cap)
}

// limit charges at most d, the rest of the wall time being the referee's.
func (t *moveTime) limit(d time.Duration) {
	if t.think > d {
		t.waited += t.think - d
		t.think = d
	}
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
	// unread: the Conn is a Meter but could not be read (an unconfined
	// bot, no cgroup, or one that had ended): the detail says so.
	unread bool
	// Taken late (the referee was held back past MeterAfter): what the
	// cgroup saw from the bot's reading before the move (Remembered) to
	// the first, and the part of it forgiven (early, at most how late the
	// reading came).
	before    transport.Usage
	early     time.Duration
	hasBefore bool
	// since is the use from the first reading to the last (forgiven).
	since transport.Usage
	// The machine's steal time at the first reading; steal is nil where
	// it cannot be read (then the wall cap does not move).
	stolenAt time.Duration
	steal    func() (time.Duration, bool)
}

// startMeter takes the first reading of c, from into the move that began
// at start. When the referee took it late (at twice MeterAfter or later: it
// was held back itself, and could not watch the bot meanwhile), the time before
// it is judged by the reading c kept from before the move
// (transport.Remembered): of what the bot waited since then, the part that
// must have fallen in the move (all of it less the wall time between that
// reading and the move's start) is forgiven, as clock.Forgiven says over
// the wall time so far, but never more than how late the reading came (the
// first MeterAfter is charged, as in any move). So nothing the bot waited
// before the move (its start-up, moves it answered within MeterAfter,
// which were charged in full) counts, and all the CPU it ran since that
// reading counts against it. The bound is tight when that reading is
// recent: refereeLag has one taken at the turn's write while the referee
// runs late.
func startMeter(c transport.Conn, start time.Time, from time.Duration) meter {
	m, ok := c.(transport.Meter)
	if !ok {
		return meter{}
	}
	var last transport.Usage
	var lastAt time.Time
	haveLast := false
	if r, ok := c.(transport.Remembered); ok {
		last, lastAt, haveLast = r.LastUsage() // before Usage replaces it
	}
	at, ok := m.Usage()
	if !ok {
		return meter{unread: true} // the bot has ended, or cannot be read: charged in full
	}
	mt := meter{m: m, at: at, from: from}
	if late := from - MeterAfter; late >= MeterAfter && haveLast && !lastAt.After(start) {
		d, held := usedSince(last, at)
		held -= start.Sub(lastAt) // what it may have waited before the move
		mt.before, mt.hasBefore = d, true
		mt.early = min(clock.Forgiven(from, max(d.Ran, 0), held, d.Throttled, d.Rate), late)
	}
	if s, ok := machineSteal.now(); ok {
		mt.stolenAt, mt.steal = s, machineSteal.now
	}
	return mt
}

// lagAfter is how late the referee's first wait for a reply (due
// MeterAfter into a move) may return before refereeLag counts it as held
// back; lagHold is for how long after that a move takes a reading of the
// bot's CPU use as its turn goes out, unless the one its Conn kept is no
// older than baselineAge. (Of a backdated reading, startMeter forgives at
// most the bot's wait less that age: a kept reading up to baselineAge old
// costs a late move at most that much forgiveness, and saves the referee
// a reading, 10-14 us of its CPU, in most moves of a loaded machine, where
// the bot's last move ended one opponent's move ago. Read at every turn,
// they were 30% of the referee's CPU in the 256-game soak.)
const (
	lagAfter    = 10 * MeterAfter
	lagHold     = 10 * time.Second
	baselineAge = 20 * MeterAfter
)

// lagClock is when this process's referee was last held back (see
// lagAfter), shared by every game: a machine that holds one game's referee
// back holds them all. While it lasts, a move's first reading, if it comes
// late, has a baseline from the move's start (startMeter); on a machine
// that runs the referee on time it costs nothing.
type lagClock struct{ until atomic.Int64 } // unix nanoseconds

// refereeLag serves every game of this process.
var refereeLag lagClock

// note records that the referee was held back at now.
func (l *lagClock) note(now time.Time) { l.until.Store(now.Add(lagHold).UnixNano()) }

// on reports whether the referee was held back within lagHold of now.
func (l *lagClock) on(now time.Time) bool { return now.UnixNano() < l.until.Load() }

// baseline makes sure c keeps (transport.Remembered) a reading of its CPU
// use no older than baselineAge at now, as the baseline of the move about
// to start, taking one if it does not.
func baseline(c transport.Conn, now time.Time) {
	m, metered := c.(transport.Meter)
	r, kept := c.(transport.Remembered)
	if !metered || !kept {
		return
	}
	if _, at, ok := r.LastUsage(); !ok || now.Sub(at) > baselineAge {
		m.Usage()
	}
}

// usedSince is the bot's use between two readings, and the part of it the
// machine held the bot back: waiting for a CPU, or for memory or I/O when
// the bot was away from its own memory limit at both.
func usedSince(before, now transport.Usage) (transport.Usage, time.Duration) {
	d := now.Since(before)
	held := d.Waited
	if !now.AtMemoryLimit && !before.AtMemoryLimit {
		held += d.Stalled
	}
	return d, held
}

// forgiven is the time not charged of a move's wall time so far. Only
// the wall time since the first reading can be forgiven, and what
// startMeter allowed of the time before it.
func (m *meter) forgiven(wall time.Duration) time.Duration {
	if m.m == nil {
		return 0
	}
	now, ok := m.m.Usage()
	if !ok {
		return 0 // the bot has ended: its last move is charged in full
	}
	d, held := usedSince(m.at, now)
	m.since = d
	ran := max(d.Ran, 0)
	// Each part is at most its wall time less the CPU the bot ran in it,
	// so the sum is at most the move's wall time less all it ran.
	return m.early + clock.Forgiven(max(wall-m.from, 0), ran, held, d.Throttled, d.Rate)
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
	f := m.forgiven(wall)
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
	f := m.forgiven(wall)
	return moveTime{think: wall - f, waited: f, stolen: m.stolen()}
}

// explain words, for a timeout's detail, what the bot's cgroup saw of
// the move (after charge), so that a machine that held the bot back can be
// told from a bot that did not answer: the CPU it ran, the time it waited
// for a CPU (and how much of that was its own CPU limit's throttling) and
// for memory or I/O, from when; what came before a first reading the
// referee took late; and the machine's steal time. Empty for a Conn that
// is not metered at all (a remote bot: its machine is not this one).
func (m *meter) explain(stolen time.Duration) string {
	switch {
	case m.unread:
		return ": its CPU use could not be read (no cgroup of its own, as for an unconfined bot, or it had ended), so it was charged its wall time"
	case m.m == nil:
		return ""
	}
	us := func(d time.Duration) time.Duration { return max(d, 0).Round(time.Microsecond) }
	d := m.since
	text := fmt.Sprintf(": from %v into the move (its cgroup's first reading) it ran %v on a CPU, waited %v for one", us(m.from), us(d.Ran), us(d.Waited))
	if d.Throttled > 0 {
		text += fmt.Sprintf(" (%v of it its own CPU limit's throttling)", us(d.Throttled))
	}
	text += fmt.Sprintf(" and %v for memory or I/O", us(d.Stalled))
	if b := m.before; m.hasBefore {
		text += fmt.Sprintf("; the referee, itself held back, took that reading late: since the bot's reading before the move it had run %v and waited %v for a CPU and %v for memory or I/O, %v of it forgiven",
			us(b.Ran), us(b.Waited), us(b.Stalled), us(m.early))
	}
	if m.steal != nil {
		text += fmt.Sprintf("; the hypervisor held this machine's CPUs %v meanwhile", us(stolen))
	}
	return text
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
