package main

import (
	"testing"

	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/sdktest"
)

// The bot plays whole games in process (no referee, no processes) against
// the random bot, which takes the other seats: it must never fail a turn
// (sdktest.Play fails the test if the SDK had to play for it) and should
// win more often than a random bot would.
func TestAgainstRandom(t *testing.T) {
	results := sdktest.Play(t, sdktest.Config{Game: "boon", Games: 12, Seed: 1}, sdk.NewPlayer(move))
	wins := sdktest.Wins(results, 0)
	t.Logf("won %d of %d games against random", wins, len(results))
	if wins*3 <= len(results) {
		t.Errorf("won %d of %d games: no better than random", wins, len(results))
	}
}
