package bots

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/arena-dev/arena/bots/ismcts"
	"github.com/arena-dev/arena/sdk"
)

func ismctsLevels() string {
	var out []string
	for _, l := range ismcts.Levels {
		out = append(out, l.Doc)
	}
	return strings.Join(out, ", ")
}

// ISMCTSConfig is the search config of options: the level's (default
// strong), with a fixed iteration budget or a time fraction given
// instead. Iterations alone drop the level's time budget (and a time
// fraction alone its iterations), so that --iterations N is a
// deterministic bot.
func ISMCTSConfig(o Options) (ismcts.Config, error) {
	level := o.Level
	if level == "" {
		level = "strong"
	}
	c, err := ismcts.Level(level)
	if err != nil {
		return c, err
	}
	if o.Depth != 0 || o.Nodes != 0 {
		return c, fmt.Errorf("--%s/--%s: %w (ismcts takes --%s)", FlagDepth, FlagNodes, ErrOtherBudget, FlagIterations)
	}
	if o.Iterations < 0 {
		return c, fmt.Errorf("--%s %d: want a count >= 0", FlagIterations, o.Iterations)
	}
	if o.TimeFraction < 0 || o.TimeFraction > 1 {
		return c, fmt.Errorf("--%s %g: want a fraction in [0, 1]", FlagTimeFraction, o.TimeFraction)
	}
	if o.Iterations > 0 {
		c.Iterations = o.Iterations
		if o.TimeFraction == 0 {
			c.TimeFraction = 0
		}
	}
	if o.TimeFraction > 0 {
		c.TimeFraction = o.TimeFraction
		if o.Iterations == 0 {
			c.Iterations = 0
		}
	}
	return c, nil
}

func newISMCTS(o Options) (sdk.Bot, error) {
	c, err := ISMCTSConfig(o)
	if err != nil {
		return nil, err
	}
	return ismcts.New(c, greedyFallback), nil
}

// greedyFallback plays greedy's move, for the games and decisions the
// search does not take.
func greedyFallback(game string, view json.RawMessage, legal []json.RawMessage, rng *rand.Rand) (int, error) {
	f := greedyByGame[game]
	if f == nil {
		f = greedyByGame[""]
	}
	return f(view, legal, rng)
}
