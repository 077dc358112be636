package ismcts

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/protocol"
)

// firstDecision is the hello and first turn of seat 0 in a fresh game,
// as the referee sends them.
func firstDecision(tb testing.TB, game string, s engine.State, seats int, opts map[string]string) (*protocol.Hello, *protocol.Turn) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for s.ToMove() != 0 || len(s.Legal()) < 2 {
		l := s.Legal()
		if err := s.Apply(l[rng.IntN(len(l))]); err != nil {
			tb.Fatal(err)
		}
	}
	view, err := engine.AppendJSON(nil, s.View(0))
	if err != nil {
		tb.Fatal(err)
	}
	var raws []json.RawMessage
	for _, a := range s.Legal() {
		raw, _ := engine.AppendJSON(nil, a)
		raws = append(raws, raw)
	}
	return &protocol.Hello{Game: game, Seat: 0, Seats: seats, Seed: 1, Options: opts}, &protocol.Turn{View: view, Legal: raws}
}

// playoutSpeed is the plain engine's speed from the same position:
// uniformly random playouts of a clone of the true state to the end of
// the hand or round, in plies per second, timed for about 200 ms.
func playoutSpeed(s engine.State, done func(engine.State) bool, clone func() engine.State) float64 {
	rng := rand.New(rand.NewPCG(3, 4))
	plies := 0
	start := time.Now()
	for time.Since(start) < 200*time.Millisecond {
		c := clone()
		for !done(c) {
			l := c.Legal()
			c.Apply(l[rng.IntN(len(l))])
			plies++
		}
	}
	return float64(plies) / time.Since(start).Seconds()
}

// BenchmarkISMCTS measures the search's speed in process, one op an
// iteration (a determinization dealt, the tree walked, a playout to the
// end of the hand or round), from seat 0's first decision; nodes/s counts
// the states applied (tree and playout plies); iters/cpu-s is iters/s in
// the process's CPU time, which other jobs on the machine do not
// stretch as they do the wall clock's. x-random is nodes/s over
// the plain engine's uniformly random playout speed from the same
// position, measured in the same run: the price of the determinizations,
// the tree and the playout policy.
func BenchmarkISMCTS(b *testing.B) {
	cases := []struct {
		name  string
		game  string
		seats int
		mk    func() engine.State
		opts  map[string]string
		done  func(round int) func(engine.State) bool
	}{
		{"uno-2", "uno", 2, func() engine.State { r := uno.DefaultRules(); r.Target = 0; return uno.NewState(2, 7, r) }, map[string]string{"target": "0"}, nil},
		{"uno-4", "uno", 4, func() engine.State { r := uno.DefaultRules(); r.Target = 0; return uno.NewState(4, 7, r) }, map[string]string{"target": "0"}, nil},
		{"boon-3", "boon", 3, func() engine.State { return boon.NewState(3, 7, boon.DefaultRules()) }, nil, nil},
		{"boon-4", "boon", 4, func() engine.State { return boon.NewState(4, 7, boon.DefaultRules()) }, nil, nil},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := c.mk()
			h, t := firstDecision(b, c.game, s, c.seats, c.opts)
			var base float64
			switch x := s.(type) {
			case *uno.State:
				hand := x.HandNo()
				base = playoutSpeed(x, func(e engine.State) bool { return e.Over() || e.(*uno.State).HandNo() != hand },
					func() engine.State { return x.Clone() })
			case *boon.State:
				round := x.Round()
				base = playoutSpeed(x, func(e engine.State) bool { return e.Over() || e.(*boon.State).Round() != round },
					func() engine.State { return x.Clone() })
			}
			bot := New(Config{Iterations: 1}, nil)
			if err := bot.Start(h); err != nil {
				b.Fatal(err)
			}
			var res Result
			bot.Stats = func(r Result) { res = r }
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime(b)
			if _, _, _, err := bot.search(t, Limits{Iterations: b.N}); err != nil {
				b.Fatal(err)
			}
			el, cpu := time.Since(start).Seconds(), (cpuTime(b) - cpu0).Seconds()
			b.StopTimer()
			b.ReportMetric(float64(res.Iterations)/cpu, "iters/cpu-s")
			nodes := float64(res.Nodes) / el
			b.ReportMetric(float64(res.Iterations)/el, "iters/s")
			b.ReportMetric(nodes, "nodes/s")
			b.ReportMetric(base, "random-plies/s")
			b.ReportMetric(nodes/base, "x-random")
		})
	}
}

// boonDecisions are the views and legal actions of every decision of
// seat 0 (of two actions or more) in the first rounds of random
// four-seat games: picks, burials and tricks, as a game brings them.
// A Boon view carries the whole round, so each is its own history.
func boonDecisions(tb testing.TB, games int) (views [][]byte, legal [][]boon.Action) {
	tb.Helper()
	for seed := range uint64(games) {
		s := boon.NewState(4, seed, boon.DefaultRules())
		rng := rand.New(rand.NewPCG(seed, 5))
		for !s.Over() && s.Round() == 1 {
			l := s.AppendLegal(nil)
			if s.ToMove() == 0 && len(l) > 1 {
				views, legal = append(views, enginetest.ViewBytes(tb, s, 0)), append(legal, l)
			}
			if err := s.Play(l[rng.IntN(len(l))]); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return views, legal
}

// boonGameOf is seat 0's information set at its view.
func boonGameOf(tb testing.TB, view []byte, opt BoonOptions) *boonGame {
	tb.Helper()
	o := observerOf(tb, "boon", 0, 4, nil)
	if err := o.Observe(view); err != nil {
		tb.Fatal(err)
	}
	var v boon.View
	if err := json.Unmarshal(view, &v); err != nil {
		tb.Fatal(err)
	}
	return newBoonGame(o, &v, opt)
}

// BenchmarkBoonInfer measures what BoonOptions.Infer costs: the CPU time
// of 500-iteration searches of every decision of seat 0 in 40 random
// rounds, with it (8 and 4 deals weighed per determinization) over
// without, interleaved in the same run.
func BenchmarkBoonInfer(b *testing.B) {
	views, legal := boonDecisions(b, 40)
	run := func(opt BoonOptions) time.Duration {
		start := cpuTime(b)
		for i := range views {
			g := boonGameOf(b, views[i], opt)
			Search[boon.Action](g, legal[i], Limits{Iterations: 500}, rand.New(rand.NewPCG(1, 1)))
		}
		return cpuTime(b) - start
	}
	b.ResetTimer()
	var plain, infer8, infer4 time.Duration
	for range b.N {
		plain += run(BoonOptions{})
		infer8 += run(BoonOptions{Infer: true, InferDeals: 8})
		infer4 += run(BoonOptions{Infer: true, InferDeals: 4})
	}
	b.ReportMetric(float64(len(views)), "decisions")
	b.ReportMetric(infer8.Seconds()/plain.Seconds(), "infer8/plain")
	b.ReportMetric(infer4.Seconds()/plain.Seconds(), "infer4/plain")
}

// BenchmarkBoonSearchCost is the CPU time of a 1,500-iteration search
// at every decision of seat 0 in 40 random four-seat rounds, with and
// without BoonOptions.Infer: the mean and the dearest, to set against
// strong's 50 ms at 100 ms a move.
func BenchmarkBoonSearchCost(b *testing.B) {
	views, legal := boonDecisions(b, 40)
	for _, c := range []struct {
		name string
		opt  BoonOptions
	}{{"plain", BoonOptions{}}, {"infer8", BoonOptions{Infer: true, InferDeals: 8}}} {
		b.Run(c.name, func(b *testing.B) {
			var total, dearest time.Duration
			for range b.N {
				for i := range views {
					g := boonGameOf(b, views[i], c.opt)
					start := cpuTime(b)
					Search[boon.Action](g, legal[i], Limits{Iterations: 1500}, rand.New(rand.NewPCG(1, 1)))
					el := cpuTime(b) - start
					total += el
					dearest = max(dearest, el)
				}
			}
			b.ReportMetric(total.Seconds()*1000/float64(b.N*len(views)), "mean-cpu-ms")
			b.ReportMetric(dearest.Seconds()*1000, "dearest-cpu-ms")
		})
	}
}
