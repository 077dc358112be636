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
			if got, _ := m.forgiven(100 * ms); got != tc.want {
				t.Errorf("forgiven %v, want %v", got, tc.want)
			}
		})
	}
}
