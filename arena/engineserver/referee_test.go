package engineserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/engineserver"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// seen is one turn as a bot received it from the referee, and the index
// the bot answered.
type seen struct {
	seat  int
	view  string
	legal string
	index int
}

// refereeTurns plays a game of in-memory random bots under the referee
// and returns every turn in the order it was sent.
func refereeTurns(t *testing.T, game string, seats int, options map[string]string, seed uint64) []seen {
	t.Helper()
	g, opts := testkit.Setup(t, game, seats, options)
	var mu sync.Mutex
	var turns []seen
	players := make([]referee.Player, seats)
	for seat := range seats {
		s := membot.Start(func(turn *protocol.Turn, rng *rand.Rand) []byte {
			i := rng.IntN(len(turn.Legal))
			legal, _ := json.Marshal(turn.Legal)
			mu.Lock()
			turns = append(turns, seen{seat, string(turn.View), string(legal), i})
			mu.Unlock()
			return fmt.Appendf(nil, `{"type":"action","id":%d,"index":%d}`, turn.ID, i)
		}, nil, 0)
		t.Cleanup(func() { s.Close(); <-s.Done() })
		players[seat] = referee.Player{Name: fmt.Sprint("r", seat), Conn: s}
	}
	// Clocks no machine misses: the bots answer at once, and a timeout
	// would end the game early, not make it wrong.
	limits := clock.Limits{Startup: time.Minute, Move: time.Minute, Margin: time.Second}
	if _, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: seed, Match: "m", GameID: "g", Limits: limits}, players); err != nil {
		t.Fatal(err)
	}
	return turns
}

// TestViewsAreTheReferees: through the server, a game created with the
// referee's seed and options, played with the same choices, shows at every
// turn the very bytes the referee sent: the seat to move, its view and its
// legal actions. Other seats' and the spectator's views are the same
// function (AppendView), checked at the same points to be well-formed.
func TestViewsAreTheReferees(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game    string
		seats   int
		options string
		opts    map[string]string
	}{
		{"banqi", 2, `{"max_plies":"120"}`, map[string]string{"max_plies": "120"}},
		{"uno", 3, `{"target":"0"}`, map[string]string{"target": "0"}},
		{"bounce", 4, `{}`, nil},
		{"boon", 3, `{"rounds":"1"}`, map[string]string{"rounds": "1"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			const seed = 11
			turns := refereeTurns(t, tc.game, tc.seats, tc.opts, seed)
			if len(turns) < 5 {
				t.Fatalf("the referee's game had %d turns", len(turns))
			}
			s := engineserver.New(engineserver.Config{})
			h := must(t, s, `{"op":"create","game":%q,"seats":%d,"seed":%d,"options":%s}`, tc.game, tc.seats, seed, tc.options).int(t, "state")
			for i, turn := range turns {
				legal := must(t, s, `{"op":"legal","state":%d}`, h)
				if got := legal.int(t, "to_move"); got != turn.seat {
					t.Fatalf("turn %d: to_move %d, the referee asked seat %d", i, got, turn.seat)
				}
				if string(legal["legal"]) != turn.legal {
					t.Fatalf("turn %d: legal\n%s\nthe referee's\n%s", i, legal["legal"], turn.legal)
				}
				// One batch: the seat's view, and every other's.
				var batch []string
				for seat := -1; seat < tc.seats; seat++ {
					batch = append(batch, fmt.Sprintf(`{"op":"view","state":%d,"seat":%d}`, h, seat))
				}
				var views []reply
				if err := json.Unmarshal(s.Handle(nil, []byte("["+strings.Join(batch, ",")+"]")), &views); err != nil {
					t.Fatal(err)
				}
				if got := string(views[turn.seat+1]["view"]); got != turn.view {
					t.Fatalf("turn %d: seat %d's view\n%s\nthe referee's\n%s", i, turn.seat, got, turn.view)
				}
				must(t, s, `{"op":"apply","state":%d,"index":%d}`, h, turn.index)
			}
			if o := must(t, s, `{"op":"outcome","state":%d}`, h); string(o["over"]) != "true" {
				t.Fatalf("after the referee's %d turns the game is not over: %v", len(turns), o)
			}
		})
	}
}

// TestSampleThroughTheWire: an observer fed seat 0's views of a game, as
// they come, samples states whose view for seat 0 is the last view
// observed, byte for byte.
func TestSampleThroughTheWire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game, options string
		seats         int
	}{
		{"uno", `{"target":"0"}`, 3},
		{"boon", `{"rounds":"1"}`, 3},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			s := engineserver.New(engineserver.Config{})
			h := must(t, s, `{"op":"create","game":%q,"seats":%d,"seed":4,"options":%s}`, tc.game, tc.seats, tc.options).int(t, "state")
			o := must(t, s, `{"op":"observer","game":%q,"seat":0,"seats":%d,"options":%s}`, tc.game, tc.seats, tc.options).int(t, "observer")
			samples := 0
			for step := 0; ; step++ {
				r := must(t, s, `{"op":"legal","state":%d}`, h)
				if r.int(t, "to_move") == 0 {
					view := must(t, s, `{"op":"view","state":%d,"seat":0}`, h)["view"]
					must(t, s, `{"op":"observe","observer":%d,"view":%s}`, o, view)
					if step%3 == 0 {
						sampled := must(t, s, `{"op":"sample","observer":%d,"seed":%d}`, o, step)
						sv := must(t, s, `{"op":"view","state":%d,"seat":0}`, sampled.int(t, "state"))["view"]
						if string(sv) != string(view) {
							t.Fatalf("step %d: the sample's view\n%s\nthe view observed\n%s", step, sv, view)
						}
						must(t, s, `{"op":"free","handles":[%d]}`, sampled.int(t, "state"))
						samples++
					}
				}
				if string(must(t, s, `{"op":"step_random","state":%d,"seed":%d}`, h, step)["over"]) == "true" {
					break
				}
			}
			if samples == 0 {
				t.Fatal("no sample taken")
			}
		})
	}
}
