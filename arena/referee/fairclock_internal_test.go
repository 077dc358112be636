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

// What a move's wall time of 100 ms forgives, from the readings as the
// turn went out and after it: the wait for a CPU always; a stall on
// memory or I/O only when the bot was away from its own memory limit at
// both readings (at it, the reclaim is its own doing).
func TestForgivenStalls(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name          string
		before, after transport.Usage
		want          time.Duration
	}{
		{"cpu wait", transport.Usage{}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms}, 30 * ms},
		{"stall", transport.Usage{}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms, Stalled: 40 * ms}, 70 * ms},
		{"stall, at the limit after", transport.Usage{}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms, Stalled: 40 * ms, AtMemoryLimit: true}, 30 * ms},
		{"stall, at the limit before", transport.Usage{AtMemoryLimit: true}, transport.Usage{Ran: 10 * ms, Waited: 30 * ms, Stalled: 40 * ms}, 30 * ms},
		{"never more than wall less ran", transport.Usage{}, transport.Usage{Ran: 50 * ms, Waited: 30 * ms, Stalled: 40 * ms}, 50 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := readings{tc.before, tc.after}
			m := meter{m: &r, at: tc.before}
			r = r[1:]
			if got, _ := m.forgiven(100 * ms); got != tc.want {
				t.Errorf("forgiven %v, want %v", got, tc.want)
			}
		})
	}
}
