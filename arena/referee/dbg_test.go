package referee_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

func TestDbgMeter(t *testing.T) {
	slow := func(turn *protocol.Turn, rng *rand.Rand) []byte {
		time.Sleep(3 * referee.MeterAfter)
		return randomMove(turn, rng)
	}
	limits := clock.Limits{Startup: 10 * time.Second, Move: time.Second, Margin: 50 * time.Millisecond}
	conns := []*countedMeter{{Conn: startMemBot(t, slow)}, {Conn: startMemBot(t, slow)}}
	_, rp := playConns(t, "uno", map[string]string{"target": "0", "voluntary_draw": "false"}, 7, limits, []transport.Conn{conns[0], conns[1]})
	for _, e := range rp.Events {
		if m := e.Move; m != nil {
			t.Logf("ply %d seat %d think %d wait %d by %q", m.Ply, m.Seat, m.ThinkUs, m.WaitUs, m.By)
		}
	}
	t.Logf("readings %d %d", conns[0].readings.Load(), conns[1].readings.Load())
}
