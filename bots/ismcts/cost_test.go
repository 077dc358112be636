package ismcts

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// BenchmarkSearchCost is the search's speed over every decision of
// seat 0 in whole games (four-seat Uno to one hand, four-seat Boon),
// the other seats playing at random: the bot is given each turn as the
// referee sends it and searches 200 iterations. iters/cpu-s counts the
// process's CPU time, which other jobs on the machine do not stretch.
// Only the bot's public API is used, so that the figure compares across
// revisions of the bot.
func BenchmarkSearchCost(b *testing.B) {
	for _, c := range []struct {
		game string
		opts map[string]string
	}{{"uno", map[string]string{"target": "0"}}, {"boon", nil}} {
		b.Run(c.game, func(b *testing.B) {
			g, err := engine.Lookup(c.game)
			if err != nil {
				b.Fatal(err)
			}
			opts, err := engine.Setup(g, 4, c.opts)
			if err != nil {
				b.Fatal(err)
			}
			var iters int
			var cpu time.Duration
			for i := range b.N {
				iters, cpu = playSearched(b, g, opts, c.opts, uint64(i), iters, cpu)
			}
			b.ReportMetric(float64(iters)/cpu.Seconds(), "iters/cpu-s")
		})
	}
}

// playSearched plays one game with the bot at seat 0, adding its
// iterations and the CPU time of its moves to iters and cpu.
func playSearched(b *testing.B, g engine.Game, opts engine.Options, given map[string]string, seed uint64, iters int, cpu time.Duration) (int, time.Duration) {
	s, err := g.New(4, seed, opts)
	if err != nil {
		b.Fatal(err)
	}
	bot := New(Config{Iterations: 200}, nil)
	bot.Stats = func(r Result) { iters += r.Iterations }
	if err := bot.Start(&protocol.Hello{Game: g.Info().Name, Seat: 0, Seats: 4, Seed: seed, Options: given}); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	for ply := 0; !s.Over() && ply < 2000; ply++ {
		l := s.Legal()
		i := rng.IntN(len(l))
		if s.ToMove() == 0 {
			view, err := engine.AppendJSON(nil, s.View(0))
			if err != nil {
				b.Fatal(err)
			}
			raws := make([]json.RawMessage, len(l))
			for k, a := range l {
				raws[k], _ = engine.AppendJSON(nil, a)
			}
			start := cpuTime(b)
			if i, err = bot.Act(&protocol.Turn{View: view, Legal: raws}); err != nil {
				b.Fatal(err)
			}
			cpu += cpuTime(b) - start
		}
		if err := s.Apply(l[i]); err != nil {
			b.Fatal(err)
		}
	}
	return iters, cpu
}
