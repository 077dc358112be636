package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bench"
)

// arena bench measures and prints the figures an organiser sizes a
// run by, for a real bot over stdio.
func TestBenchPrintsTheFigures(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := arena(t, "bench", "--games", "4", "--max-concurrency", "2", "--move-time", "2s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, re := range []string{
		`pipe round trip: +[0-9.]+[µm]s per turn`,
		`referee per move: +[0-9.]+[µm]s \([0-9.]+x the pipe round trip\)`,
		`rules engine: +[0-9.]+[µm]s a line of one operation \([0-9.]+x the pipe round trip\), [0-9.]+[nµm]s an operation in batches of 32 \([0-9.]+x\)`,
		`concurrency +1: +4 games, 0 timeouts, p99 think [0-9.]+[µm]s: fair`,
		`concurrency +2: +4 games, 0 timeouts`,
		`fair concurrency: +[12] `,
	} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("no line matching %s in:\n%s", re, stdout)
		}
	}
}

func TestBenchUsageErrors(t *testing.T) {
	runUsageCases(t, []usageCase{
		{"no such game", []string{"bench", "--game", "chess"}, "--game"},
		{"move time", []string{"bench", "--move-time", "0s"}, "--move-time"},
		{"games", []string{"bench", "--games", "0"}, "--games"},
	}, func(t *testing.T, tc usageCase, stdout, stderr string) {
		if strings.Contains(stdout, "pipe round trip") {
			t.Errorf("%s: measured anyway", tc.name)
		}
	})
}

// What the machine did is said only where it happened.
func TestBenchPrintsTheMachine(t *testing.T) {
	for _, tc := range []struct {
		name      string
		m         bench.Machine
		want, not []string
	}{
		{"quiet bare machine", bench.Machine{StolenKnown: true}, nil, []string{"hypervisor:", "idle CPUs"}},
		{"steal", bench.Machine{StolenKnown: true, Stolen: 1500 * time.Millisecond, StolenShare: 0.05},
			[]string{"hypervisor:        took 1.5s per CPU of the run (5.0%, steal time)"}, []string{"idle CPUs"}},
		{"idle CPUs halting", bench.Machine{IdleHalts: true},
			[]string{"idle CPUs:         halt at once", "guest_halt_poll_ns"}, []string{"hypervisor:"}},
		{"steal unknown", bench.Machine{}, nil, []string{"hypervisor:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			tc.m.Text(&b)
			for _, s := range tc.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("no %q in:\n%s", s, b.String())
				}
			}
			for _, s := range tc.not {
				if strings.Contains(b.String(), s) {
					t.Errorf("%q in:\n%s", s, b.String())
				}
			}
		})
	}
}
