package tournament

import (
	"path/filepath"

	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/internal/usage"
)

// LoadBots reads the tournament file at path for its bots alone, as a
// worker plays them (arena worker --bots FILE): resolved against the
// file's directory, in a runplan.Group confined by the file's limits,
// whose refusal names the file's field (a *usage.Error: the
// command line's mistake, as every error of the file is).
func LoadBots(path string) (runplan.Group, error) {
	f, err := LoadFile(path)
	if err != nil {
		return runplan.Group{}, err
	}
	cfg, err := f.Resolve(path, filepath.Dir(path))
	if err != nil {
		return runplan.Group{}, err
	}
	return runplan.Group{Bots: cfg.Bots, Limits: cfg.BotLimits, Sandbox: cfg.BotOptions,
		Refused: func(r *runplan.RefusedError) error { return usage.Wrap(cfg.Refusal(path, r)) }}, nil
}
