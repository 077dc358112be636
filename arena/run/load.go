package run

import (
	"fmt"
	"runtime"
)

// DefaultConcurrency is the concurrency of a run of games of seats given
// none: a game per core, each bot process taking one.
func DefaultConcurrency(seats int) int { return max(1, runtime.NumCPU()/seats) }

// LoadWarning warns of games played on this machine at concurrency, each
// of seats bots, when they may want more cores than it has: bots may
// think on their opponents' turns too, so every seat of every running
// game may want a core, and a bot waiting for one loses time on its
// clock. "" when they fit, and at concurrency 1, where there is nothing
// to lower. Only games played here count: a distributed run's games on
// other machines load those.
func LoadWarning(concurrency, seats int) string {
	cores := runtime.NumCPU()
	if concurrency <= 1 || concurrency*seats <= cores {
		return ""
	}
	return fmt.Sprintf("concurrency %d x %d seats = up to %d bot processes busy at once on %d cores: clocks are not fair under that load (try --concurrency %d)",
		concurrency, seats, concurrency*seats, cores, max(1, cores/seats))
}
