package main

import (
	"regexp"
	"strings"
	"testing"
)

// arena bench measures and prints the three figures an organiser sizes a
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
