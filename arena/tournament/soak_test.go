package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
)

// BenchmarkSoak is opt-in (ARENA_SOAK=1; ARENA_SOAK_GAMES, default 2000):
// concurrency 32 with bots that answer at once and a 50 ms move limit on
// this machine, counting spurious timeouts (target: none), games per second
// and the referee's peak memory. Bots are sandboxed as `arena tournament
// run` does by default (ARENA_SOAK_BARE=1: bare processes;
// ARENA_SOAK_CPUS: their CPU rate).
//
//	ARENA_SOAK=1 go test -run '^$' -bench Soak -benchtime 1x ./arena/tournament/
func BenchmarkSoak(b *testing.B) {
	if os.Getenv("ARENA_SOAK") == "" {
		b.Skip("opt-in: set ARENA_SOAK=1")
	}
	games := 2000
	if s := os.Getenv("ARENA_SOAK_GAMES"); s != "" {
		games, _ = strconv.Atoi(s)
	}
	// 64 bots, 2-seat round robin with 2 games per pairing: 4032 games per
	// cycle; the run stops once `games` are recorded.
	seed := uint64(1)
	f := File{Name: "soak", Game: "banqi", Options: map[string]string{"max_plies": "200"}, GamesPerEncounter: 2, Seed: &seed,
		Concurrency: 32, Clock: ClockFile{Move: Duration(50 * time.Millisecond)}} // default margin
	for i := range 64 {
		f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("b%02d", i), Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": "random"}})
	}
	f.Limits.CPUs = os.Getenv("ARENA_SOAK_CPUS") // "": the default
	c, err := f.Resolve("soak", ".")
	if err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	if os.Getenv("ARENA_SOAK_BARE") == "" {
		sb, err := c.Confine("soak", out)
		if err != nil {
			b.Fatal(err)
		}
		b.Log(sb.Describe())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	for range b.N {
		_, err = Run(ctx, c, out, Options{OnGame: func(p Progress) {
			if p.Done >= games {
				cancel()
			}
		}})
	}
	elapsed := time.Since(start)
	recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	timeouts := 0
	for _, r := range recs {
		for _, f := range r.Forfeits {
			if f.Reason == "timeout" {
				timeouts++
				if timeouts <= 10 {
					b.Logf("spurious timeout: %s seat %d (%s), ply %d: %s", r.GameID, f.Seat, f.Bot, r.Plies, f.Detail)
				}
			}
		}
	}
	b.ReportMetric(float64(len(recs)), "games")
	b.ReportMetric(float64(len(recs))/elapsed.Seconds(), "games/s")
	b.ReportMetric(float64(timeouts), "spurious-timeouts")
	b.ReportMetric(peakRSSMiB(), "peak-MiB")
	if err != nil && !strings.Contains(err.Error(), "interrupted") {
		b.Fatal(err)
	}
}

// peakRSSMiB is this process's peak resident memory (VmHWM).
func peakRSSMiB() float64 {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return float64(kb) / 1024
		}
	}
	return 0
}
