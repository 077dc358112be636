package ladder

import (
	"path/filepath"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/runplan"
)

// LoadBots are the bundled bots of the ladder file at path as a worker
// plays them (arena worker --ladder FILE): under the names their games
// give them (version 1, VersionName), confined by the file's limits.
// The submitted versions it does not have: a worker fetches those by
// their build hash when a game needs them (cluster.Worker.FetchDir).
func LoadBots(path string) (runplan.Group, error) {
	f, err := LoadFile(path)
	if err != nil {
		return runplan.Group{}, err
	}
	c, err := f.Resolve(path, filepath.Dir(path))
	if err != nil {
		return runplan.Group{}, err
	}
	bots := make([]bot.Spec, 0, len(c.Bots))
	for _, b := range c.Bots {
		b.Name = VersionName(b.Name, 1)
		bots = append(bots, b)
	}
	return runplan.Group{Bots: bots, Limits: c.BotLimits, Sandbox: c.BotOptions}, nil
}
