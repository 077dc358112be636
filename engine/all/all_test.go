package all

import (
	"testing"

	"github.com/arena-dev/arena/engine"
)

// An option's Default is what a game is played with when the option is not
// given: `arena games` and the docs show it, so for a game whose preset
// sets other options (bounce's rules=bounce) each of them must carry the
// preset's value, not another preset's.
func TestGamesOptionDefaultsAreWhatIsPlayed(t *testing.T) {
	for _, g := range engine.Games() {
		info := g.Info()
		name := info.Name
		played, err := engine.Setup(g, info.MinSeats, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range info.Options {
			if o.Default != played[o.Name] {
				t.Errorf("%s: option %s lists default %q, a game without options plays %q", name, o.Name, o.Default, played[o.Name])
			}
		}
	}
}
