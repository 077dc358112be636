package run

import (
	"fmt"
	"slices"
	"sync"

	"github.com/arena-dev/arena/arena/bot"
)

// Roster is a run's bots, by the index Table.Seats name them with. It
// only grows: a run that goes on for weeks (a ladder) adds a bot (a new
// version) while games are played, and retires one, whose index is never
// reused, so that the ledger lines and replays that name it stay
// readable. A retired bot is never started again: the executor closes
// its idle sessions, and a table that still seats it plays without it
// (Table.Absent). arena match, tournament and sprt have a roster built
// once from Config.Bots, which never changes.
//
// Its methods may be called from any goroutine, between games and
// during them.
type Roster struct {
	mu       sync.Mutex
	specs    []bot.Spec
	retired  map[int]bool
	watchers []RosterWatcher
}

// RosterWatcher is an executor that keeps something per bot (Local: its
// sessions; a distributed run: each bot's build, which workers must
// have): it is told of every bot of the roster, in index order, and of
// each retirement, under the roster's lock, so that no table can seat a
// bot before its executor knows it.
type RosterWatcher interface {
	// AddBot is told of bot i. An error refuses the bot (Roster.Add
	// fails; a bot of the roster's start fails Watch), and i is then the
	// next bot's: a run has one executor watching, the only one whose
	// refusal could leave another watcher out of step.
	AddBot(i int, spec bot.Spec) error
	// RetireBot is told that bot i is retired.
	RetireBot(i int)
}

// NewRoster is the roster of specs (indexed 0, 1, ...).
func NewRoster(specs []bot.Spec) *Roster {
	return &Roster{specs: slices.Clone(specs), retired: map[int]bool{}}
}

// Add adds a bot and returns its index, once every watcher took it
// (else it is not added, and the error is the first watcher's).
func (r *Roster) Add(spec bot.Spec) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := len(r.specs)
	for _, w := range r.watchers {
		if err := w.AddBot(i, spec); err != nil {
			return -1, err
		}
	}
	r.specs = append(r.specs, spec)
	return i, nil
}

// Retire retires bot i (see Roster); retiring one twice does nothing.
// The watchers' sessions of it are closed when it returns, but those
// still in games, which are closed when their games end.
func (r *Roster) Retire(i int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= len(r.specs) {
		return fmt.Errorf("bot %d of %d: no such bot", i, len(r.specs))
	}
	if r.retired[i] {
		return nil
	}
	r.retired[i] = true
	for _, w := range r.watchers {
		w.RetireBot(i)
	}
	return nil
}

// Len is how many bots the roster has had, retired ones included.
func (r *Roster) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.specs)
}

// Spec is bot i's spec (retired or not).
func (r *Roster) Spec(i int) bot.Spec {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.specs[i]
}

// Name is bot i's name.
func (r *Roster) Name(i int) string { return r.Spec(i).Name }

// Retired reports whether bot i is retired.
func (r *Roster) Retired(i int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.retired[i]
}

// Watch has w told of every bot of the roster so far (AddBot, then
// RetireBot for the retired ones), then of every change, until the stop
// it returns is called. An error is AddBot's for a bot so far: w is then
// not watching.
func (r *Roster) Watch(w RosterWatcher) (stop func(), err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, spec := range r.specs {
		if err := w.AddBot(i, spec); err != nil {
			return nil, err
		}
	}
	for i := range r.specs {
		if r.retired[i] {
			w.RetireBot(i)
		}
	}
	r.watchers = append(r.watchers, w)
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.watchers = slices.DeleteFunc(r.watchers, func(x RosterWatcher) bool { return x == w })
	}, nil
}

// roster is the run's roster: Roster, or a fixed one of Bots (a new
// one each time: whoever shares it keeps it, as Config.Roster).
func (c Config) roster() *Roster {
	if c.Roster != nil {
		return c.Roster
	}
	return NewRoster(c.Bots)
}

// BotRoster is the run's roster, as Config.Roster: Roster, or a fixed one
// of Bots, made anew at each call, which an executor keeps.
func (c Config) BotRoster() *Roster { return c.roster() }
