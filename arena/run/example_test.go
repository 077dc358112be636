package run_test

import (
	"context"
	"fmt"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/engine"
)

// A run of six banqi games between two in-memory bots, with a stop rule
// that ends it after the fourth; nothing is kept (run.Discard).
func ExampleRun() {
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	l := &membot.Launcher{Policy: membot.First}
	cfg := run.Config{
		Settings: run.Settings{Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}},
		Game:     g, Options: opts, MatchID: "example",
		Bots: []bot.Spec{{Name: "a", Launcher: l}, {Name: "b", Launcher: l}},
	}
	res, err := run.Run(context.Background(), cfg, &tables{n: 6}, &afterN{n: 4}, run.Discard)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d games counted, stopped by the rule: %v\n", res.Done, res.Stopped)
	// Output: 4 games counted, stopped by the rule: true
}
