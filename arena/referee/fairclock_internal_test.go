package referee

import (
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/transport"
)

// readings is a Meter that reports its readings in turn.
type readings []transport.Usage

func (r *readings) Usage() (transport.Usage, bool) {
	u := (*r)[0]
	*r = (*r)[1:]
	return u, true
}

// What a move's wall time of 100 ms forgives, from the readings at the
// first reading (from into the move) and after it: the wait for a CPU
// always; a stall on memory or I/O only when the bot was away from its
// own memory limit at both readings (at it, the reclaim is its own
// doing); and never more than the wall time since the first reading less
// the CPU the bot ran.
func TestForgivenStalls(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name          string
		from          time.Duration
		before, after transport.Usage
		want          time.Duration
	}{
		{"cpu wait", 0, transport.Usage{}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms}, 30 * ms},
		{"stall", 0, transport.Usage{}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms, Stalled: 40 * ms}, 70 * ms},
		{"stall, at the limit after", 0, transport.Usage{}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms, Stalled: 40 * ms, AtMemoryLimit: true}, 30 * ms},
		{"stall, at the limit before", 0, transport.Usage{AtMemoryLimit: true}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms, Stalled: 40 * ms}, 30 * ms},
		{"never more than wall less ran", 0, transport.Usage{}, transport.Usage{Ran: 50 * ms, Waited: 30 * ms, Stalled: 40 * ms}, 50 * ms},
		{"read late: only the wall time since", 60 * ms, transport.Usage{}, transport.Usage{Ran: 10 * ms, Waited: 35 * ms}, 30 * ms},
		{"read after the wall time", 120 * ms, transport.Usage{}, transport.Usage{Waited: 30 * ms}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := readings{tc.before, tc.after}
			m := meter{m: &r, at: tc.before, from: tc.from}
			r = r[1:]
			if got := m.forgiven(100 * ms); got != tc.want {
				t.Errorf("forgiven %v, want %v", got, tc.want)
			}
		})
	}
}

// steals is a steal clock that reports its readings in turn.
func steals(v ...time.Duration) func() (time.Duration, bool) {
	return func() (time.Duration, bool) {
		s := v[0]
		v = v[1:]
		return s, true
	}
}

// Time the hypervisor held the machine's CPUs (steal) moves the wall cap
// by as much, and is not forgiven: to the bot's cgroup a bot on a taken
// virtual CPU is neither running nor waiting, as a sleeper is. A move of
// 100 ms (cap 300 ms) whose bot waited 600 ms for a CPU while the machine
// was paused for 500 ms has its deadline moved to 700 ms, past the cap;
// without steal the cap holds; a bot that sleeps is charged its sleep
// whatever the machine stole meanwhile.
func TestStealMovesTheCapOnly(t *testing.T) {
	ms := time.Millisecond
	start := time.Unix(1000, 0)
	due, wallCap := start.Add(100*ms), start.Add(300*ms)
	for _, tc := range []struct {
		name        string
		after       transport.Usage
		stolen      time.Duration // during the move
		wall        time.Duration
		wantForgive time.Duration
		wantUntil   time.Duration // the deadline extend gives, into the move
	}{
		{"no steal: the cap holds", transport.Usage{Waited: 600 * ms}, 0, 600 * ms, 600 * ms, 300 * ms},
		{"paused: the cap moves", transport.Usage{Waited: 600 * ms}, 500 * ms, 600 * ms, 600 * ms, 700 * ms},
		{"the cap moves by the steal only", transport.Usage{Waited: 900 * ms}, 100 * ms, 900 * ms, 900 * ms, 400 * ms},
		{"a sleeper is not forgiven steal", transport.Usage{}, 300 * ms, 400 * ms, 0, 100 * ms},
		{"nor is a bot that computes", transport.Usage{Ran: 150 * ms}, 60 * ms, 200 * ms, 0, 100 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := 7 * time.Second // steal since boot at the first reading
			r := readings{tc.after, tc.after}
			m := meter{m: &r, steal: steals(base+tc.stolen, base+tc.stolen), stolenAt: base}
			got := m.charge(tc.wall)
			if got.waited != tc.wantForgive || got.think != tc.wall-tc.wantForgive || got.stolen != tc.stolen {
				t.Errorf("charged %v and forgave %v of %v (stolen %v), want %v forgiven (stolen %v)", got.think, got.waited, tc.wall, got.stolen, tc.wantForgive, tc.stolen)
			}
			until := m.extend(due, due, wallCap, tc.wall)
			if want := start.Add(tc.wantUntil); !until.Equal(want) {
				t.Errorf("deadline extended to %v into the move, want %v", until.Sub(start), tc.wantUntil)
			}
		})
	}
}

// The steal clock reads /proc/stat once for every move within stealFresh,
// and afresh after.
func TestStealClockSharesAReading(t *testing.T) {
	reads := 0
	s := &stealClock{read: func() (time.Duration, error) { reads++; return time.Duration(reads) * time.Second, nil }}
	a, _ := s.now()
	b, _ := s.now()
	if reads != 1 || a != b {
		t.Fatalf("two asks at once: %d reads, %v and %v", reads, a, b)
	}
	s.at = s.at.Add(-stealFresh) // as if the reading were that old
	if c, ok := s.now(); reads != 2 || c != 2*time.Second || !ok {
		t.Errorf("an old reading: %d reads, %v %v", reads, c, ok)
	}
}

// kept is a bot's Conn whose CPU use reads as now, and which kept a
// reading, last, taken at lastAt (transport.Remembered).
type kept struct {
	transport.Conn
	now, last transport.Usage
	lastAt    time.Time
}

func (k *kept) Usage() (transport.Usage, bool) { return k.now, true }

func (k *kept) LastUsage() (transport.Usage, time.Time, bool) {
	return k.last, k.lastAt, !k.lastAt.IsZero()
}

// A first reading the referee took late (from into a move of 100 ms + 50
// ms) is backdated to the reading kept from before the move: what the bot
// waited since is forgiven less the wall time between that reading and
// the move's start (it may have waited then), never more than the wall time
// so far less the CPU it ran since, nor more than how late the reading
// came. A reading less than MeterAfter late, or one kept from after the
// move began, is not backdated; a bot that did not wait is forgiven nothing.
func TestLateFirstReadingIsBackdated(t *testing.T) {
	ms := time.Millisecond
	start := time.Unix(1000, 0)
	for _, tc := range []struct {
		name     string
		from     time.Duration // when the first reading was taken
		lastAgo  time.Duration // how long before the move's start the kept reading was (<0: after it)
		since    transport.Usage
		want     time.Duration
		backdate bool
	}{
		{"waited all along", 180 * ms, 0, transport.Usage{Waited: 180 * ms}, 179 * ms, true},
		{"no more than how late", 180 * ms, 0, transport.Usage{Waited: 400 * ms}, 179 * ms, true},
		{"less the CPU it ran", 180 * ms, 0, transport.Usage{Ran: 100 * ms, Waited: 180 * ms}, 80 * ms, true},
		{"less what it may have waited before the move", 180 * ms, 70 * ms, transport.Usage{Waited: 150 * ms}, 80 * ms, true},
		{"a reading long before forgives nothing", 180 * ms, 5 * time.Second, transport.Usage{Waited: 180 * ms}, 0, true},
		{"a sleeper is forgiven nothing", 180 * ms, 0, transport.Usage{Ran: ms}, 0, true},
		{"a stall on memory or I/O counts", 180 * ms, 0, transport.Usage{Stalled: 120 * ms}, 120 * ms, true},
		{"at its memory limit it does not", 180 * ms, 0, transport.Usage{Stalled: 120 * ms, AtMemoryLimit: true}, 0, true},
		{"on time: not backdated", MeterAfter, 0, transport.Usage{Waited: MeterAfter}, 0, false},
		{"less than MeterAfter late: not backdated", MeterAfter + MeterAfter/2, 0, transport.Usage{Waited: MeterAfter}, 0, false},
		{"kept from after the start: not backdated", 180 * ms, -ms, transport.Usage{Waited: 180 * ms}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &kept{now: tc.since, lastAt: start.Add(-tc.lastAgo)}
			m := startMeter(c, start, tc.from)
			if m.early != tc.want || m.hasBefore != tc.backdate {
				t.Errorf("forgave %v before the first reading (backdated %v), want %v (%v)", m.early, m.hasBefore, tc.want, tc.backdate)
			}
			if got := m.forgiven(tc.from); got != tc.want {
				t.Errorf("forgiven %v at the first reading, want %v", got, tc.want)
			}
		})
	}
}
