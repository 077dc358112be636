package expectimax_test

import (
	"fmt"

	"github.com/arena-dev/arena/bots/expectimax"
	"github.com/arena-dev/arena/sdk"
)

// A bot at a named level, or with a fixed budget of its own; either is an
// sdk.Bot, for sdk.Main or sdk.Run.
func ExampleLevelConfig() {
	for _, name := range []string{"weak", "medium", "strong"} {
		cfg, _ := expectimax.LevelConfig(name)
		fmt.Printf("%s: %+v\n", name, cfg)
	}
	bot, err := expectimax.New(expectimax.Config{Depth: 3})
	var _ sdk.Bot = bot
	fmt.Println(err)
	_, err = expectimax.LevelConfig("expert")
	fmt.Println(err)
	// Output:
	// weak: {Depth:1 Nodes:0 TimeFraction:0}
	// medium: {Depth:0 Nodes:4000 TimeFraction:0}
	// strong: {Depth:0 Nodes:0 TimeFraction:0.5}
	// <nil>
	// unknown level "expert" (want weak, medium, strong)
}
