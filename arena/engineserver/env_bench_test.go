package engineserver_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/arena/engineserver"
)

// BenchmarkEnvStep is one env_step of 256 4-seat Uno games, every seat an
// agent choosing at random: the Go side of the training throughput path.
func BenchmarkEnvStep(b *testing.B) {
	s := engineserver.New(engineserver.Config{})
	a := envMust(b, s, `{"op":"env_create","game":"uno","seats":4,"options":{"target":"0"},"n":256,"seed":1}`)
	h := a.Env
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]int, len(a.Legal))
	for b.Loop() {
		for i, l := range a.Legal {
			ids[i] = l[rng.IntN(len(l))]
		}
		a = envMust(b, s, sprintf(`{"op":"env_step","env":%d,"actions":%s}`, h, actionsJSON(ids)))
	}
	b.ReportMetric(float64(b.N*len(ids))/b.Elapsed().Seconds(), "steps/s")
}
