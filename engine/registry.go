package engine

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]Game{}
)

// Register makes a game available by name. Game packages call it from init;
// registering a name twice panics, as database/sql does for drivers.
func Register(g Game) {
	registryMu.Lock()
	defer registryMu.Unlock()
	name := g.Info().Name
	if _, dup := registry[name]; dup {
		panic("engine: game registered twice: " + name)
	}
	registry[name] = g
}

// Lookup finds a registered game; the error lists the known games.
func Lookup(name string) (Game, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if g, ok := registry[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(namesLocked(), ", "))
}

// Games lists the registered games sorted by name.
func Games() []Game {
	registryMu.RLock()
	defer registryMu.RUnlock()
	var out []Game
	for _, n := range namesLocked() {
		out = append(out, registry[n])
	}
	return out
}

func namesLocked() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Setup validates a seat count and options for a game and returns the
// resolved options, so callers report bad input before any bot starts.
func Setup(g Game, seats int, given map[string]string) (Options, error) {
	info := g.Info()
	if seats < info.MinSeats || seats > info.MaxSeats {
		if info.MinSeats == info.MaxSeats {
			return nil, fmt.Errorf("game %s needs %d seats, got %d", info.Name, info.MinSeats, seats)
		}
		return nil, fmt.Errorf("game %s takes %d-%d seats, got %d", info.Name, info.MinSeats, info.MaxSeats, seats)
	}
	return Resolve(info.Name, info.Options, given)
}
