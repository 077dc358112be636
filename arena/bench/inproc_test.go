package bench

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/internal/testkit"
)

// echoConn answers every turn at once with index 0 and every hello with
// ready, inside the process: it isolates the referee's own CPU per move
// from pipe and scheduling latency. Benchmarks only; tests use real bots.
type echoConn struct{ reply []byte }

func (c *echoConn) Send(line []byte, _ time.Time) error {
	if bytes.HasPrefix(line, []byte(`{"type":"turn","id":`)) {
		rest := line[len(`{"type":"turn","id":`):]
		id := rest[:bytes.IndexByte(rest, ',')]
		c.reply = append(append(append(c.reply[:0], `{"type":"action","id":`...), id...), `,"index":0}`...)
	} else {
		c.reply = append(c.reply[:0], `{"type":"ready"}`...)
	}
	return nil
}
func (c *echoConn) Receive(time.Time) ([]byte, error) { return c.reply, nil }
func (c *echoConn) Close() error                      { return nil }

// BenchmarkRefereeCPU is the referee's own cost per move: view and legal
// encoding, reply decoding, legality, clocks, the replay recorder. Banqi,
// and Uno as BenchmarkPerMove plays it (two seats, one hand).
func BenchmarkRefereeCPU(b *testing.B) {
	for _, tc := range []struct {
		game    string
		options map[string]string
	}{{"banqi", nil}, {"uno", unoHand}} {
		b.Run(tc.game, func(b *testing.B) {
			g, opts := testkit.Setup(b, tc.game, 2, tc.options)
			players := []referee.Player{{Name: "a", Conn: &echoConn{}}, {Name: "b", Conn: &echoConn{}}}
			moves := 0
			b.ReportAllocs()
			b.ResetTimer()
			for seed := uint64(1); moves < b.N; seed++ {
				res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: seed,
					Limits: clock.Limits{Startup: time.Second, Move: time.Second}, Recorder: nopRecorder{}}, players)
				if err != nil || len(res.Forfeits) > 0 {
					b.Fatal(err, res.Forfeits)
				}
				moves += res.Plies
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1000/float64(moves), "us/move")
		})
	}
}
