package all

import (
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// Every game with an encoding documents it: docs/games/<game>.md has an
// "Encoding" section that states the observation size and the number of
// actions the engine really has at 4 seats (or the most the game takes),
// default rules.
func TestEncodingDocumented(t *testing.T) {
	for _, g := range engine.Games() {
		enc, ok := g.(engine.Encoder)
		if !ok {
			t.Errorf("%s has no encoding (engine.Encoder)", g.Info().Name)
			continue
		}
		seats := min(max(4, g.Info().MinSeats), g.Info().MaxSeats)
		e, err := enc.Encoding(seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		doc := readDoc(t, docOf(g.Info().Name))
		_, section, found := strings.Cut(doc, "\n## Encoding\n")
		section, _, _ = strings.Cut(section, "\n## ")
		if !found {
			t.Errorf("%s: no \"## Encoding\" section", docOf(g.Info().Name))
			continue
		}
		for what, n := range map[string]int{"obs_size": e.ObsSize(), "num_actions": e.NumActions()} {
			if !strings.Contains(section, strconv.Itoa(n)) {
				t.Errorf("%s: the Encoding section does not give %s %d (%d seats)", docOf(g.Info().Name), what, n, seats)
			}
		}
	}
}
