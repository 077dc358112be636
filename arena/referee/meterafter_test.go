package referee_test

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// countedMeter is a bot's Conn whose CPU use reads as nothing, counting
// the readings.
type countedMeter struct {
	transport.Conn
	readings atomic.Int64
}

func (c *countedMeter) Usage() (transport.Usage, bool) {
	c.readings.Add(1)
	return transport.Usage{}, true
}

// The referee reads a bot's CPU use only in a move still unanswered
// referee.MeterAfter in (then twice: there and at the reply), so that the
// many fast replies of a match cost no cgroup reads: a bot that takes ten
// times MeterAfter per move is read twice a move (none in a move whose
// reply was in by the time a loaded machine ran the referee, which then
// takes it: so at least half its moves are asked for), an instant one
// only in moves whose wall time reached MeterAfter (on a quiet machine,
// about none).
func TestMeterReadsOnlySlowMoves(t *testing.T) {
	slow := func(turn *protocol.Turn, rng *rand.Rand) []byte {
		time.Sleep(10 * referee.MeterAfter) // the bot's think time: the scenario, not a wait for a race
		return randomMove(turn, rng)
	}
	limits := clock.Limits{Startup: 10 * time.Second, Move: time.Second, Margin: 50 * time.Millisecond}
	for _, tc := range []struct {
		name string
		bot  memBot
		slow bool // every move takes 10 x MeterAfter
	}{
		{"instant", randomMove, false},
		{"slow", slow, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conns := []*countedMeter{{Conn: startMemBot(t, tc.bot)}, {Conn: startMemBot(t, tc.bot)}}
			_, rp := playConns(t, "uno", map[string]string{"target": "0", "voluntary_draw": "false"}, 7, limits, []transport.Conn{conns[0], conns[1]})
			moves, slowMoves := [2]int64{}, [2]int64{}
			for _, e := range rp.Events {
				if m := e.Move; m != nil && m.By == "" {
					moves[m.Seat]++
					if time.Duration(m.ThinkUs+m.WaitUs)*time.Microsecond >= referee.MeterAfter {
						slowMoves[m.Seat]++
					}
				}
			}
			for seat, c := range conns {
				got := c.readings.Load()
				switch {
				case moves[seat] == 0:
					t.Fatalf("seat %d made no moves", seat)
				case tc.slow && (got%2 != 0 || got > 2*moves[seat] || got < moves[seat]):
					t.Errorf("seat %d: %d readings in %d moves, want two in each of most moves", seat, got, moves[seat])
				case !tc.slow && got > 2*slowMoves[seat]:
					t.Errorf("seat %d: %d readings, but only %d of its %d moves took %v or more", seat, got, slowMoves[seat], moves[seat], referee.MeterAfter)
				}
			}
		})
	}
}
