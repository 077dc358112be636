package report_test

import (
	"io"
	"testing"

	"github.com/arena-dev/arena/arena/report"
)

// BenchmarkLoad200 reads a 200-bot round-robin (39,800 games) and
// renders its report: the cost of a report of a large field, the
// rating progression's 100 fits most of it.
func BenchmarkLoad200(b *testing.B) {
	dir := syntheticRoundRobin(b, 200)
	for b.Loop() {
		r, err := report.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.HTML(io.Discard, dir); err != nil {
			b.Fatal(err)
		}
	}
}
