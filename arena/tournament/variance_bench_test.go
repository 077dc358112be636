package tournament

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/options"
)

// BenchmarkDealSharingVariance measures what each share_deals choice
// costs in the spread of the standings: the same round-robin of bundled
// bots (two greedy, two random: pairs of equal strength, whose score
// difference is pure luck, and a strength gap to measure) played with
// many seeds under each choice, and the standard deviation over seeds
// of the score differences (score per game, in points of 100%): g1-g2
// and r1-r2 (equal bots: 0 is the truth) and greedy-random (the gap).
//
//	go test -run '^$' -bench DealSharingVariance -benchtime 1x ./arena/tournament/
//	ARENA_VARIANCE_SEEDS=60 ARENA_VARIANCE_GAME=banqi ARENA_VARIANCE_ROUNDS=2 go test ...
func BenchmarkDealSharingVariance(b *testing.B) {
	seeds := 30
	if n, err := strconv.Atoi(os.Getenv("ARENA_VARIANCE_SEEDS")); err == nil && n > 1 {
		seeds = n
	}
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("ARENA_VARIANCE_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	game := os.Getenv("ARENA_VARIANCE_GAME")
	if game == "" {
		game = "uno"
	}
	kinds := []string{"greedy", "greedy", "random", "random"}
	for range b.N {
		for _, share := range []string{ShareCycle, ShareEncounter} {
			var equal, gap []float64
			games := 0
			for s := range seeds {
				seed := uint64(1000 + s)
				f := File{Name: "var", Game: game, GamesPerEncounter: 2, Rounds: rounds, Settings: options.Settings{Seed: &seed, ShareDeals: share, Concurrency: 2, Clock: options.Clock{Move: options.Duration(5 * time.Second)}}}
				for i, k := range kinds {
					f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("%s%d", k[:1], i), Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": k}})
				}
				c, err := f.Resolve("variance", ".")
				if err != nil {
					b.Fatal(err)
				}
				c.Secret = deal.New()
				sum, err := Run(context.Background(), c, b.TempDir(), Options{})
				if err != nil {
					b.Fatal(err)
				}
				pct := make([]float64, len(kinds))
				for i, st := range sum.Bots {
					pct[i] = 100 * st.Score / float64(st.Games)
				}
				games += sum.Games
				equal = append(equal, pct[0]-pct[1], pct[2]-pct[3])
				gap = append(gap, (pct[0]+pct[1]-pct[2]-pct[3])/2)
			}
			me, se := meanSD(equal)
			mg, sg := meanSD(gap)
			b.Logf("%s, deals by %s: %d tournaments of %d games; equal bots' score difference %.2f +/- %.2f (sd) points; greedy-random gap %.2f +/- %.2f (sd)",
				game, share, seeds, games/seeds, me, se, mg, sg)
			b.ReportMetric(se, "sd-equal-"+share)
			b.ReportMetric(sg, "sd-gap-"+share)
		}
	}
}

// meanSD is the mean and the sample standard deviation of xs.
func meanSD(xs []float64) (float64, float64) {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)-1))
}
