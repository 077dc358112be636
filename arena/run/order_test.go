package run_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/run"
)

// claimExcept is a Claimer (over Local) whose processes are waiting for
// every table but the refused one's, noting each table Run asked about
// and each it was granted.
type claimExcept struct {
	*run.Local
	refused string
	mu      sync.Mutex
	asked   map[string]int
	granted []string
}

func (c *claimExcept) Claim(t run.Table) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked[t.GameID]++
	if t.GameID == c.refused {
		return false
	}
	c.granted = append(c.granted, t.GameID)
	return true
}

// TestStartOrderLooksAhead: Run starts the first of the next Lookahead
// ready games whose processes are waiting, and a game passed over
// Lookahead times starts next without asking again, so it cannot wait
// for ever behind later ones. Without that window (one game at a time,
// or a stop rule, which must see the games in order) Run never asks.
func TestStartOrderLooksAhead(t *testing.T) {
	const games = run.Lookahead + 20
	for _, tc := range []struct {
		name        string
		concurrency int
		stop        run.StopRule
		window      bool
	}{
		{"concurrency 2", 2, nil, true},
		{"one at a time", 1, nil, false},
		{"with a stop rule", 2, &afterN{n: games}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(t, &membot.Launcher{Policy: membot.First}, tc.concurrency)
			c := &claimExcept{Local: run.NewLocal(cfg, nil), refused: "t-g00", asked: map[string]int{}}
			cfg.Executor = c
			src := &tables{n: games}
			res, err := run.Run(context.Background(), cfg, src, tc.stop, nil)
			if err != nil || res.Done != games {
				t.Fatalf("%v, %d games counted, want %d", err, res.Done, games)
			}
			if !tc.window {
				if len(c.asked) != 0 {
					t.Fatalf("Run asked for waiting processes %d times, want none", len(c.asked))
				}
				return
			}
			if n := c.asked["t-g00"]; n != run.Lookahead {
				t.Errorf("the refused game was asked about %d times, want %d (then started)", n, run.Lookahead)
			}
			// Every other game is asked once, when it is the first after
			// the refused one (or the first of all), and granted.
			want := make([]string, 0, games-1)
			for i := 1; i < games; i++ {
				want = append(want, fmt.Sprintf("t-g%02d", i))
			}
			if fmt.Sprint(c.granted) != fmt.Sprint(want) {
				t.Errorf("granted in the order %v, want %v", c.granted, want)
			}
			for id, n := range c.asked {
				if id != "t-g00" && n != 1 {
					t.Errorf("%s asked about %d times, want 1", id, n)
				}
			}
			if len(src.results) != games {
				t.Errorf("%d results, want %d", len(src.results), games)
			}
		})
	}
}
