package match_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/referee"
	_ "github.com/arena-dev/arena/engine/boon"
	_ "github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/protocol"
)

// TestMemoryBotCheatsOnARepeatedDeal is the control for
// TestNoProcessPlaysADealTwice: handed the same deal twice in one process
// (here by the referee directly, with no pool in between), the "memory"
// bot notices and forfeits with illegal_action. So its playing clean
// there means something.
func TestMemoryBotCheatsOnARepeatedDeal(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"m0", "m1"}, []string{"memory", "memory"})
	cfg := config(t, 2, 1, "")
	players := make([]referee.Player, 2)
	for i, b := range fx.bots {
		proc, err := b.Launcher.Launch(b.Name, bot.LaunchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer proc.Close()
		players[i] = referee.Player{Name: b.Name, Conn: proc}
	}
	rc := referee.Config{Game: cfg.Game, Options: cfg.Options, Seed: 42, Match: "control", Limits: cfg.Limits}
	for g, want := range []int{0, 1} {
		rc.GameID = fmt.Sprintf("control-g%d", g)
		res, err := referee.Play(context.Background(), rc, players)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Forfeits) != want {
			t.Fatalf("game %d (the deal's %s time): forfeits %+v, want %d", g, []string{"first", "second"}[g], res.Forfeits, want)
		}
		if want == 1 && res.Forfeits[0].Reason != protocol.ReasonIllegalAction {
			t.Errorf("replayed deal: forfeit %+v, want illegal_action", res.Forfeits[0])
		}
	}
}

// TestNoProcessPlaysADealTwice plays matches of "memory" bots, which
// forfeit as soon as a process sees a deal again. With duplicate deals no
// game may be forfeited, no process may get one bot seed twice, and yet
// every game of a rotation block after its first must be a repeat for the
// bot: so the pool replaced the process exactly then, and kept it when the
// next block began. FreshDeals needs no replacement at all; RestartBots
// replaces every time.
func TestNoProcessPlaysADealTwice(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		game    string
		seats   int
		options map[string]string
		games   int
		fresh   bool
		restart bool
		// process is which process (numbered in start order) of a bot
		// plays game g, at concurrency 1.
		process func(g, seats int) int
	}{
		{name: "banqi", game: "banqi", seats: 2, options: map[string]string{"max_plies": "150"}, games: 8, process: lane},
		{name: "boon", game: "boon", seats: 4, options: map[string]string{"rounds": "1"}, games: 8, process: lane},
		{name: "uno", game: "uno", seats: 4, options: map[string]string{"target": "0"}, games: 8, process: lane},
		{name: "banqi fresh deals", game: "banqi", seats: 2, options: map[string]string{"max_plies": "150"}, games: 8, fresh: true,
			process: func(g, k int) int { return 0 }},
		{name: "boon restart bots", game: "boon", seats: 4, options: map[string]string{"rounds": "1"}, games: 8, restart: true,
			process: func(g, k int) int { return g }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var names, modes []string
			for i := range tc.seats {
				names = append(names, fmt.Sprintf("m%d", i))
				modes = append(modes, "memory")
			}
			fx := newFixture(t, names, modes)
			out := filepath.Join(fx.dir, "out")
			cfg := gameConfig(t, tc.game, tc.seats, tc.options, tc.games, 11, out)
			cfg.FreshDeals, cfg.RestartBots = tc.fresh, tc.restart
			sum, err := match.Run(context.Background(), cfg, fx.bots)
			if err != nil {
				t.Fatal(err)
			}
			recs, _ := results(t, out)
			if len(recs) != tc.games || sum.Games != tc.games {
				t.Fatalf("%d games recorded, want %d", len(recs), tc.games)
			}
			for _, r := range recs {
				if len(r.Forfeits) != 0 {
					t.Errorf("game %d: forfeits %+v: a process played a deal again", r.Index, r.Forfeits)
				}
			}
			var want []int
			for g := range tc.games {
				want = append(want, tc.process(g, tc.seats))
			}
			for _, bot := range names {
				pids, seeds, _ := fx.hellos(t, bot)
				order, started := processOrder(t, bot, pids, recs)
				if !reflect.DeepEqual(order, want) {
					t.Errorf("%s: games played by processes %v, want %v", bot, order, want)
				}
				// Read from the hellos, not the bot's word: each process's
				// seeds are distinct, while the bot as a whole got repeats.
				perProcess := map[[2]uint64]bool{}
				all := map[uint64]bool{}
				repeats := 0
				for _, r := range recs {
					pid, seed := pids[r.GameID], seeds[r.GameID]
					key := [2]uint64{uint64(pid), seed}
					if perProcess[key] {
						t.Errorf("%s: pid %d got seed %d twice", bot, pid, seed)
					}
					perProcess[key] = true
					if all[seed] {
						repeats++
					}
					all[seed] = true
				}
				wantRepeats := tc.games - tc.games/tc.seats // every game of a block but its first
				if tc.fresh {
					wantRepeats = 0
				}
				if repeats != wantRepeats {
					t.Errorf("%s: %d games replayed a deal the bot had played, want %d", bot, repeats, wantRepeats)
				}
				t.Logf("%s: %d games, %d processes, %d repeated deals", bot, len(recs), len(started), repeats)
			}
		})
	}
}

// lane is the process that plays game g of a match with k seats: one
// process per game of a rotation block, kept across blocks (the pool keeps
// a block's worth idle). The most recently returned goes first, so every
// other block takes them in reverse.
func lane(g, k int) int {
	if (g/k)%2 == 0 {
		return g % k
	}
	return k - 1 - g%k
}
