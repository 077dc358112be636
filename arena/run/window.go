package run

import (
	"slices"

	"github.com/arena-dev/arena/arena/schedule"
)

// Lookahead is how many ready games Run looks through for one a Claimer
// has processes waiting for; a game passed over this many times starts
// next, so none waits long behind later ones.
const Lookahead = 64

// window is the claim window of a run with a Claimer: the ready games
// taken from the Source and not started yet, in the Source's order. The
// game started next is the first whose bots have processes waiting, so
// that a finished game's processes play the next games rather than fresh
// ones being started; only the order in which games start changes. A
// game passed over size times starts next, whatever is waiting, so none
// waits for ever behind later ones.
type window struct {
	size  int // the games it holds at most, and the passes a game waits through
	games []waiting
}

// waiting is a game of the window, with the times it was passed over.
type waiting struct {
	t      Table
	passed int
}

// fill takes ready games from next until the window holds size. A game
// already recorded is returned at once instead, the window left as it
// is: it is counted, not started, so it needs no process and waits for
// none. st is why next handed out no more (schedule.Ready: the window is
// full).
func (w *window) fill(next func() (Table, schedule.Status)) (recorded *Table, st schedule.Status) {
	st = schedule.Ready
	for len(w.games) < w.size {
		var t Table
		if t, st = next(); st != schedule.Ready {
			break
		}
		if t.Recorded != nil {
			return &t, schedule.Ready
		}
		w.games = append(w.games, waiting{t: t})
	}
	return nil, st
}

// take removes the game to start from the window and returns it (false:
// the window is empty). mark (nil: none) first updates every game: the
// bots that take part may have changed since the last take, and claim
// holds the processes of the bots marked then. The game taken is the
// first that claim holds processes for, or the first game when none has
// them or the first was passed over size times already (it is not asked
// about then); the games before the one taken count a pass.
func (w *window) take(mark func(*Table), claim func(Table) bool) (Table, bool) {
	if len(w.games) == 0 {
		return Table{}, false
	}
	if mark != nil {
		for i := range w.games {
			mark(&w.games[i].t)
		}
	}
	pick := 0 // none has its processes waiting: the first starts
	if w.games[0].passed < w.size {
		for i := range w.games {
			if claim(w.games[i].t) {
				pick = i
				break
			}
		}
	}
	for i := range pick {
		w.games[i].passed++
	}
	t := w.games[pick].t
	w.games = slices.Delete(w.games, pick, pick+1)
	return t, true
}
