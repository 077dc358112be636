package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/run"
)

// BenchmarkRoundRobinVsLongMatch measures what sharing deals costs in bot
// processes: plies per second of a round-robin of many bots (the bundled
// random bot) against one long match of two bots at the same
// concurrency, both measured in the same run, with deals shared by cycle
// (every pairing of a cycle plays the same deals, so most games need
// fresh processes) and by encounter (the default). It prints each
// round-robin's ratio to the long match (target: at most 1.5) and the
// processes started per game. Bots run bare (ARENA_BENCH_SANDBOX=1:
// confined as tournament run confines them). ARENA_BENCH_SHARE picks
// the round-robins (a comma list of cycle, encounter, 2perbot; none:
// the long match alone).
//
//	go test -run '^$' -bench RoundRobinVsLongMatch -benchtime 1x ./arena/tournament/
//	ARENA_BENCH_BOTS=64 ARENA_BENCH_CONC=256 ARENA_BENCH_GAMES=3000 go test ...
func BenchmarkRoundRobinVsLongMatch(b *testing.B) {
	env := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
			return n
		}
		return def
	}
	bots, conc, games := env("ARENA_BENCH_BOTS", 64), env("ARENA_BENCH_CONC", 64), env("ARENA_BENCH_GAMES", 1500)
	if pick := os.Getenv("ARENA_BENCH_SHARE"); pick != "" {
		for _, name := range strings.Split(pick, ",") {
			if name != ShareCycle && name != ShareEncounter && name != "2perbot" {
				b.Fatalf("ARENA_BENCH_SHARE: %q is not %s, %s or 2perbot", name, ShareCycle, ShareEncounter)
			}
		}
	}
	type result struct {
		pliesPerSec, startedPerGame float64
		peakLive                    int
		waitPerGame, gameTime       time.Duration // waited for processes, and played, per game
		cpuPerPly                   time.Duration // the arena's and its bots' CPU time
	}
	measure := func(name string, n, rounds int, share string, spare int) result {
		seed := uint64(5)
		f := File{Name: name, Game: "banqi", GamesPerEncounter: 2, Rounds: rounds, Settings: options.Settings{Seed: &seed, Concurrency: conc, ShareDeals: share, SpareProcesses: spare, Clock: options.Clock{Move: options.Duration(5 * time.Second)}}}
		for i := range n {
			f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("b%02d", i), Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": "random"}})
		}
		c, err := f.Resolve("bench", ".")
		if err != nil {
			b.Fatal(err)
		}
		out := b.TempDir()
		if os.Getenv("ARENA_BENCH_SANDBOX") != "" {
			if _, err := c.Confine("bench", out); err != nil {
				b.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var local *run.Local
		cpu0 := cpuTime()
		start := time.Now()
		_, err = Run(ctx, c, out, Options{
			AbandonAfter: time.Nanosecond,
			OnGame: func(p Progress) {
				if p.Done >= games {
					cancel()
				}
			},
			Executor: func(rc run.Config) (run.Executor, error) {
				local = run.NewLocal(rc, nil)
				return local, nil
			}})
		elapsed := time.Since(start)
		cpu := cpuTime() - cpu0
		if ctx.Err() == nil && err != nil {
			b.Fatal(err)
		}
		recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
		plies := 0
		for _, r := range recs {
			plies += r.Plies
		}
		st := local.PoolStats()
		gamesDone := max(1, len(recs))
		return result{float64(plies) / elapsed.Seconds(), float64(st.Started) / float64(gamesDone), st.PeakLive,
			st.Waited / time.Duration(gamesDone), elapsed * time.Duration(conc) / time.Duration(gamesDone), cpu / time.Duration(max(1, plies))}
	}
	for range b.N {
		// Two bots, a cycle per deal: one long match, processes always kept.
		long := measure("long", 2, games, ShareCycle, 0)
		b.Logf("long match: %.0f plies/s, %.2f processes started per game, peak %d live, waited %v for processes per game of %v, %v CPU per ply",
			long.pliesPerSec, long.startedPerGame, long.peakLive, long.waitPerGame.Round(time.Microsecond), long.gameTime.Round(time.Millisecond), long.cpuPerPly.Round(time.Microsecond/10))
		for _, v := range []struct {
			share string
			spare int // 0: the default
		}{{ShareCycle, 0}, {ShareEncounter, 0}, {ShareEncounter, 2 * bots}} {
			if pick := os.Getenv("ARENA_BENCH_SHARE"); pick != "" {
				name := v.share
				if v.spare > 0 {
					name = "2perbot"
				}
				if !slices.Contains(strings.Split(pick, ","), name) {
					continue
				}
			}
			rr := measure("rr-"+v.share, bots, 1, v.share, v.spare)
			ratio := long.pliesPerSec / rr.pliesPerSec
			budget, unit := "the default", "x-long-"+v.share
			if v.spare > 0 {
				budget, unit = fmt.Sprintf("%d (2 per bot)", v.spare), unit+"-2perbot"
			}
			b.Logf("round-robin of %d bots, deals by %s, spare budget %s: %.0f plies/s, %.2fx slower than the long match, %.2f processes started per game, peak %d live, waited %v for processes per game of %v, %v CPU per ply",
				bots, v.share, budget, rr.pliesPerSec, ratio, rr.startedPerGame, rr.peakLive, rr.waitPerGame.Round(time.Microsecond), rr.gameTime.Round(time.Millisecond), rr.cpuPerPly.Round(time.Microsecond/10))
			b.ReportMetric(ratio, unit)
		}
		b.ReportMetric(long.pliesPerSec, "long-plies/s")
	}
}
