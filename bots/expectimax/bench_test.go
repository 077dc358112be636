package expectimax

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine/banqi"
)

// benchPositions are positions of random games after 10, 30 and 60
// plies, the view of the seat to move, with its legal actions.
func benchPositions(tb testing.TB, r rules) ([]position, [][]banqi.Action) {
	var ps []position
	var acts [][]banqi.Action
	for i, plies := range []int{10, 30, 60} {
		s := banqi.NewState(uint64(40+i), r)
		rng := rand.New(rand.NewPCG(uint64(i), 9))
		for s.Ply() < plies && !s.Over() {
			l := s.AppendLegal(nil)
			s.Play(l[rng.IntN(len(l))])
		}
		ps = append(ps, seatView(tb, s))
		acts = append(acts, s.AppendLegal(nil))
	}
	return ps, acts
}

// BenchmarkSearchNodes is the search's speed in nodes per second (every
// search node, quiescence node and chance outcome counts), beside a
// baseline measured in the same run: the engine's own random playouts,
// in plies per second (legal-move generation plus apply). ratio is
// nodes/s over engine plies/s: a node does more than a ply (an
// evaluation, move ordering), so below 1 is expected; it shows what the
// search costs against the engine on the same machine and load.
func BenchmarkSearchNodes(b *testing.B) {
	r := banqi.DefaultRules()
	ps, acts := benchPositions(b, r)
	s := newSearcher(r)
	var nodes int64
	var searching time.Duration
	for i := 0; b.Loop(); i++ {
		k := i % len(ps)
		t0 := time.Now()
		res := s.run(&ps[k], []uint64{ps[k].hash}, acts[k], Limits{Nodes: 20_000}, rand.New(rand.NewPCG(1, 1)))
		searching += time.Since(t0)
		nodes += res.Nodes
	}
	b.StopTimer()
	nps := float64(nodes) / searching.Seconds()
	// Baseline: engine random playouts for as long as the searches took.
	rng := rand.New(rand.NewPCG(2, 2))
	buf := make([]banqi.Action, 0, 128)
	plies, t0 := 0, time.Now()
	for g := uint64(0); time.Since(t0) < searching; g++ {
		st := banqi.NewState(g, r)
		for !st.Over() {
			buf = st.AppendLegal(buf[:0])
			st.Play(buf[rng.IntN(len(buf))])
			plies++
		}
	}
	pps := float64(plies) / time.Since(t0).Seconds()
	b.ReportMetric(nps, "nodes/s")
	b.ReportMetric(pps, "engine-plies/s")
	b.ReportMetric(nps/pps, "ratio")
}
