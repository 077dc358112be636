package sdktest_test

import (
	"fmt"

	"github.com/arena-dev/arena/sdk"
	"github.com/arena-dev/arena/sdk/banqi"
	"github.com/arena-dev/arena/sdk/sdktest"
)

// A Banqi bot that always captures when it can plays ten games in
// process against the random bot, five in each seat.
func ExampleRun() {
	capture := sdk.NewPlayer(func(v *banqi.View, legal []banqi.Action, c *sdk.Context) (int, error) {
		for i, a := range legal {
			if a.Type == banqi.Capture {
				return i, nil
			}
		}
		return c.Rand.IntN(len(legal)), nil
	})
	results, err := sdktest.Run(sdktest.Config{Game: "banqi", Games: 10, Seed: 1}, capture, sdktest.Random())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d games, %d won by the capturer, seats of the first two: %v %v\n",
		len(results), sdktest.Wins(results, 0), results[0].Players, results[1].Players)
	// Output:
	// 10 games, 10 won by the capturer, seats of the first two: [0 1] [1 0]
}
