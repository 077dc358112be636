package membot_test

import (
	"context"
	"fmt"
	"time"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/banqi"
)

// Two in-memory bots play a game of banqi through the real referee.
func ExampleStart() {
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	a, b := membot.Start(membot.Random, nil, 0), membot.Start(membot.First, nil, 0)
	defer a.Close()
	defer b.Close()
	res, err := referee.Play(context.Background(), referee.Config{
		Game: g, Options: opts, Seed: 1, Match: "example", GameID: "example-g0",
		Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second},
	}, []referee.Player{{Name: "a", Conn: a}, {Name: "b", Conn: b}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("decided:", len(res.Outcome.Ranks) == 2, "forfeits:", len(res.Forfeits))
	// Output: decided: true forfeits: 0
}
