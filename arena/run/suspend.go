package run

import (
	"fmt"
	"maps"
	"slices"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/protocol"
)

// Suspension is a bot suspended for failing to start
// (Settings.MaxStartupFailures).
type Suspension struct {
	Bot  int    // index into the run's bots (Config.Bots, Config.Roster)
	Name string // the bot's name
	// Why is the detail of each of its forfeits from now on: "suspended
	// after 3 startup failures in a row (the last: ...)".
	Why string
	// Game is the id of the game whose result suspended it: what a
	// leaderboard that shows no game of a deal still in play waits for
	// before it shows the suspension.
	Game string
}

// String says it as a run's output does: "bot sleeper suspended after 3
// startup failures in a row (the last: ...): its remaining games are
// forfeits, recorded without starting it".
func (s Suspension) String() string {
	return fmt.Sprintf("bot %s %s: its remaining games are forfeits, recorded without starting it", s.Name, s.Why)
}

// startupWatch counts each bot's startup failures in a row, in the order
// games count, and holds the bots that take no part (Config.Absent and
// the ones it suspends), for the tables Run starts (mark).
type startupWatch struct {
	max    int // Settings.MaxStartupFailures: NeverSuspend or more than 0
	bots   *Roster
	absent map[int]string // bot -> why
	streak map[int]int    // bot -> startup failures in a row
}

func newStartupWatch(cfg Config) *startupWatch {
	w := &startupWatch{max: cfg.MaxStartupFailures, bots: cfg.roster(), absent: maps.Clone(cfg.Absent), streak: map[int]int{}}
	if w.absent == nil {
		w.absent = map[int]string{}
	}
	return w
}

// whyRetired is why a retired bot (Roster.Retire) takes no part in a
// table picked before it was retired.
const whyRetired = "retired from the run"

// mark sets t.Absent from the bots that take no part now. A table is
// marked as it is picked to start (and again at each pick it waits
// through): a Claimer's processes are held for the seats marked then.
func (w *startupWatch) mark(t *Table) {
	t.Absent = nil
	for s, b := range t.Seats {
		why, out := w.absent[b]
		if !out && w.bots.Retired(b) {
			why, out = whyRetired, true
		}
		if !out {
			continue
		}
		if t.Absent == nil {
			t.Absent = make([]string, len(t.Seats))
		}
		t.Absent[s] = why
	}
}

// saw counts a played game's startup failures (a seat that took no part
// neither counts nor resets its bot's count) and returns the bots it
// suspends.
func (w *startupWatch) saw(t Table, rec ledger.Record) []Suspension {
	var out []Suspension
	for s, b := range t.Seats {
		if s < len(t.Absent) && t.Absent[s] != "" {
			continue
		}
		i := slices.IndexFunc(rec.Forfeits, func(f ledger.SeatFailure) bool { return f.Seat == s && f.Reason == protocol.ReasonStartup })
		if i < 0 {
			delete(w.streak, b)
			continue
		}
		last := rec.Forfeits[i].Detail
		w.streak[b]++
		if _, already := w.absent[b]; already || w.max <= 0 || w.streak[b] < w.max {
			continue
		}
		why := fmt.Sprintf("suspended after %d startup failures in a row (the last: %s)", w.streak[b], last)
		if w.streak[b] == 1 {
			why = fmt.Sprintf("suspended after a startup failure (%s)", last)
		}
		w.absent[b] = why
		out = append(out, Suspension{Bot: b, Name: w.bots.Name(b), Why: why, Game: rec.GameID})
	}
	return out
}

// markAbsentForfeits marks rec's forfeits of seats that took no part in
// t (ledger.SeatFailure.Absent), whichever executor played it.
func markAbsentForfeits(t Table, rec *ledger.Record) {
	for i, f := range rec.Forfeits {
		if f.Seat >= 0 && f.Seat < len(t.Absent) && t.Absent[f.Seat] != "" {
			rec.Forfeits[i].Absent = true
		}
	}
}
