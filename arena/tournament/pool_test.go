//go:build linux

package tournament

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/internal/proctest"
)

// TestBotProcessesStayWithinTheBudget plays round-robins of many bots
// (real processes: the bundled random bot) and counts the bot processes
// the test started, by the pool's own accounting and through /proc
// (those carrying the test's marker in their environment), sampled while
// the games run: at no moment are more alive than the running games hold
// (concurrency x seats) plus the spare budget, however many bots there
// are, and none is left at the end. With deals by cycle nearly every game
// needs fresh processes; by encounter, with room for about one idle
// process per bot, most games reuse them.
func TestBotProcessesStayWithinTheBudget(t *testing.T) {
	t.Parallel()
	const bots = 10
	for _, tc := range []struct {
		name        string
		share       string
		concurrency int
		spare       int // 0: the default
		// maxStarted bounds the processes started, against the 2 x 90
		// seats of the 90 games (0: no bound).
		maxStarted int
	}{
		{"by cycle, default budget", ShareCycle, 2, 0, 0},
		{"by encounter, budget 1", ShareEncounter, 2, 1, 0},
		{"by encounter, default budget", ShareEncounter, 3, 0, 0},
		// Room for two idle processes per bot: reused across encounters.
		{"by encounter, budget 2 per bot", ShareEncounter, 2, 2 * bots, 2*bots + 2*2 + 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			token := fmt.Sprintf("ARENA_POOL_BUDGET=%d-%d-%s", os.Getpid(), time.Now().UnixNano(), tc.name)
			seed := uint64(11)
			f := File{Name: "budget", Game: "banqi", Options: map[string]string{"max_plies": "16"}, GamesPerEncounter: 2, Rounds: 1, Settings: options.Settings{Seed: &seed, Concurrency: tc.concurrency, ShareDeals: tc.share, SpareProcesses: tc.spare}}
			for i := range bots {
				k, v, _ := strings.Cut(token, "=")
				f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("b%d", i), Command: os.Args[0],
					Env: map[string]string{"ARENA_TOURNAMENT_BOT": "random", k: v}})
			}
			c := resolve(t, f)
			spare := tc.spare
			if spare == 0 {
				spare = run.DefaultSpare(tc.concurrency, c.Seats)
			}
			bound := tc.concurrency*c.Seats + spare

			var local *run.Local
			stop := make(chan struct{})
			var wg sync.WaitGroup
			seen := 0
			wg.Go(func() {
				for {
					seen = max(seen, len(proctest.WithEnv(token)))
					select {
					case <-stop:
						return
					case <-time.After(time.Millisecond):
					}
				}
			})
			out := t.TempDir()
			_, err := Run(context.Background(), c, out, Options{Executor: func(rc run.Config) (run.Executor, error) {
				local = run.NewLocal(rc, nil)
				return local, nil
			}})
			close(stop)
			wg.Wait()
			if err != nil {
				t.Fatal(err)
			}
			st := local.PoolStats()
			t.Logf("bound %d (%d in games + %d spare): pool peak %d live (%d in games, %d outside), %d started for %d seats; /proc peak %d",
				bound, tc.concurrency*c.Seats, spare, st.PeakLive, st.PeakInGame, st.PeakOutside, st.Started, 2*45*2, seen)
			if st.PeakLive > bound || st.PeakOutside > spare || st.PeakInGame > tc.concurrency*c.Seats {
				t.Errorf("pool peaks %+v beyond the bound: %d in games + %d spare", st, tc.concurrency*c.Seats, spare)
			}
			if seen > bound {
				t.Errorf("%d bot processes alive at once (/proc), bound %d", seen, bound)
			}
			if seen == 0 {
				t.Error("no bot process seen in /proc: the count proves nothing")
			}
			if st.Live != 0 {
				t.Errorf("%d processes still counted after the run", st.Live)
			}
			if left := proctest.WithEnv(token); len(left) != 0 {
				t.Errorf("bot processes left after the run: %v", left)
			}
			if tc.maxStarted > 0 && st.Started > tc.maxStarted {
				t.Errorf("%d processes started for 180 seats, want at most %d (reuse across encounters)", st.Started, tc.maxStarted)
			}
		})
	}
}
