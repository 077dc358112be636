package bench

import (
	"fmt"
	"io"
	"time"
)

// Text writes the report for a person: the round trip, the referee's
// cost, each step of the sweep under the move clock move, the fair
// concurrency, and what of the machine moved the figures (Machine.Text).
func (r *Report) Text(w io.Writer, move time.Duration) {
	fmt.Fprintf(w, "pipe round trip:   %v per turn (the bot's stdio, no referee)\n", r.PipeRoundTrip)
	fmt.Fprintf(w, "referee per move:  %v (%.2fx the pipe round trip)\n", r.PerMove, float64(r.PerMove)/float64(r.PipeRoundTrip))
	if e := r.Engine; e != nil {
		fmt.Fprintf(w, "rules engine:      %v a line of one operation (%.2fx the pipe round trip), %v an operation in batches of %d (%.2fx)\n",
			e.PerLine, float64(e.PerLine)/float64(r.PipeRoundTrip), e.PerBatchedOp, EngineBatch, float64(e.PerBatchedOp)/float64(r.PipeRoundTrip))
	}
	fmt.Fprintf(w, "move clock %v:\n", move)
	for _, s := range r.Steps {
		verdict := "fair"
		if !s.Fair {
			verdict = "NOT fair"
		}
		fmt.Fprintf(w, "  concurrency %3d: %3d games, %d timeouts, p99 think %v: %s\n", s.Concurrency, s.Games, s.Timeouts, s.P99, verdict)
	}
	if r.FairConcurrency == 0 {
		fmt.Fprintf(w, "fair concurrency:  none: even one game at a time misses the clock here\n")
	} else {
		fmt.Fprintf(w, "fair concurrency:  %d (no timeout, p99 think within half the clock)\n", r.FairConcurrency)
	}
	r.Machine.Text(w)
}

// Text says what of the machine moved the figures: the time its
// hypervisor took, and idle CPUs that halt at once.
func (m Machine) Text(w io.Writer) {
	if m.StolenKnown && m.Stolen > 0 {
		fmt.Fprintf(w, "hypervisor:        took %v per CPU of the run (%.1f%%, steal time): the figures move with the host's load\n",
			m.Stolen.Round(10*time.Millisecond), 100*m.StolenShare)
	}
	if m.IdleHalts {
		fmt.Fprintf(w, "idle CPUs:         halt at once (cpuidle haltpoll, guest_halt_poll_ns 0): a reply that finds the referee's CPU idle\n"+
			"                   waits for the hypervisor to run it again, on every move (docs/performance.md, per-move cost);\n"+
			"                   as root, `echo 200000 > /sys/module/haltpoll/parameters/guest_halt_poll_ns` (the kernel's default) polls first\n")
	}
}
