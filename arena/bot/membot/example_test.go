package membot_test

import (
	"context"
	"fmt"
	"time"

	"github.com/arena-dev/arena/arena/bot"
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

// A bot given as "mem:random", parsed by the one parser every flag and
// tournament file uses and bound by its own scheme, plays a game of
// banqi through the real referee against "mem:first".
func Example_scheme() {
	specs := make([]bot.Spec, 2)
	for i, cmd := range []string{"mem:random", "mem:first"} {
		var err error
		if specs[i], err = bot.Parse(fmt.Sprintf("p%d", i), cmd, ""); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := bot.Bind(specs, nil); err != nil {
		fmt.Println(err)
		return
	}
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	var players []referee.Player
	for _, s := range specs {
		e, err := s.Launcher.Launch(s.Name, bot.LaunchOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		defer e.Close()
		players = append(players, referee.Player{Name: s.Name, Conn: e})
	}
	res, err := referee.Play(context.Background(), referee.Config{
		Game: g, Options: opts, Seed: 1, Match: "example", GameID: "example-g0",
		Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second},
	}, players)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(specs[0].Target, "decided:", len(res.Outcome.Ranks) == 2, "forfeits:", len(res.Forfeits))
	// Output: mem:random decided: true forfeits: 0
}
