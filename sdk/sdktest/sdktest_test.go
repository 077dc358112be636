package sdktest_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/sdktest"
)

// Every game, every seat count: whole games end, seats rotate, and every
// bot gets its hellos, turns and ends as from the referee.
func TestEveryGame(t *testing.T) {
	for _, g := range []struct {
		game  string
		seats int
	}{{"banqi", 2}, {"uno", 3}, {"bounce", 2}, {"boon", 3}, {"boon", 5}} {
		var hellos, ends int
		counting := sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, c *sdk.Context) (int, error) {
			if c.Game() != g.game || c.Seats() != g.seats || c.TimeLeft() <= 0 {
				t.Errorf("context: %s %d seats, %v left", c.Game(), c.Seats(), c.TimeLeft())
			}
			return c.Rand.IntN(len(legal)), nil
		})
		counting.OnStart = func(*sdk.Context) error { hellos++; return nil }
		counting.OnEnd = func(*protocol.End, *sdk.Context) { ends++ }
		results := sdktest.Play(t, sdktest.Config{Game: g.game, Seats: g.seats, Games: 2 * g.seats, Seed: 3,
			Options: map[string]string{}}, counting)
		if len(results) != 2*g.seats || hellos != 2*g.seats || ends != 2*g.seats {
			t.Fatalf("%s: %d results, %d hellos, %d ends", g.game, len(results), hellos, ends)
		}
		for k, r := range results {
			if r.Players[0] != k%g.seats {
				t.Fatalf("%s game %d: seats %v", g.game, k, r.Players)
			}
			if r.Plies == 0 || len(r.Outcome.Ranks) != g.seats || r.Rank(0) < 1 || r.Outcome.Reason == "" {
				t.Fatalf("%s game %d: %+v", g.game, k, r)
			}
		}
	}
}

// A bot's failures: a bad index is an error of Run; a fallback is counted,
// and fails Play unless allowed.
func TestFailures(t *testing.T) {
	bad := sdk.Func(func(t *protocol.Turn) (int, error) { return len(t.Legal), nil })
	if _, err := sdktest.Run(sdktest.Config{Game: "banqi"}, bad); err == nil || !strings.Contains(err.Error(), "index 32 out of range 0..31") {
		t.Fatalf("error %v", err)
	}
	failing := sdk.Func(func(*protocol.Turn) (int, error) { return 0, errors.New("no idea") })
	results, err := sdktest.Run(sdktest.Config{Game: "uno", Games: 1}, failing)
	if err != nil || results[0].Fallbacks[0] == 0 || results[0].Fallbacks[1] != 0 {
		t.Fatalf("results %+v, %v", results, err)
	}
	sdktest.Play(t, sdktest.Config{Game: "uno", Games: 1, AllowFallback: true, Log: &strings.Builder{}}, failing)
	if _, err := sdktest.Run(sdktest.Config{Game: "chess"}); err == nil {
		t.Fatal("played an unknown game")
	}
	if _, err := sdktest.Run(sdktest.Config{Game: "banqi"}, bad, bad, bad); err == nil {
		t.Fatal("three bots in two seats")
	}
	refusing := sdk.NewPlayer(func(*json.RawMessage, []json.RawMessage, *sdk.Context) (int, error) { return 0, nil })
	refusing.OnStart = func(*sdk.Context) error { return errors.New("not today") }
	if _, err := sdktest.Run(sdktest.Config{Game: "banqi"}, refusing); err == nil || !strings.Contains(err.Error(), "not today") {
		t.Fatalf("error %v", err)
	}
}
