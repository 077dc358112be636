package run

import "github.com/arena-dev/arena/arena/schedule"

// maxUnit bounds the games of one unit (UnitExecutor): a rotation of
// seats has at most as many as the largest table.
const maxUnit = 16

// picker hands Run the game to start next: the Source's next, or with a
// Claimer (a pool that keeps bot processes between games) the one its
// claim window picks, so that idle processes are reused rather than new
// ones started. Each game it hands out is marked with the bots that take
// no part in it now (startupWatch).
type picker struct {
	src     Source
	claimer Claimer // nil: the Source's order
	watch   *startupWatch
	// held is a game taken from src while gathering a unit, for the
	// next unit: not started yet.
	held *Table
	// window holds the ready games taken from src and not started yet
	// (with a Claimer).
	window window
}

func newPicker(src Source, claimer Claimer, watch *startupWatch) *picker {
	return &picker{src: src, claimer: claimer, watch: watch, window: window{size: Lookahead}}
}

// next is the game to start next, or why there is none (the Source's
// status). A game already recorded comes unmarked: it is counted, not
// started.
func (p *picker) next() (Table, schedule.Status) {
	if p.held != nil {
		t := *p.held
		p.held = nil
		p.watch.mark(&t)
		return t, schedule.Ready
	}
	if p.claimer == nil {
		t, st := p.src.Next()
		if st == schedule.Ready && t.Recorded == nil {
			p.watch.mark(&t)
		}
		return t, st
	}
	recorded, st := p.window.fill(p.src.Next)
	if recorded != nil {
		return *recorded, schedule.Ready
	}
	// Marked before any is claimed for: the processes held are those of
	// the bots that take part now.
	t, ok := p.window.take(p.watch.mark, p.claimer.Claim)
	if !ok {
		return Table{}, st
	}
	return t, schedule.Ready
}

// unit is t with the games that follow it on the same deal between the
// same bots (a pair, a rotation), up to maxUnit: played as one unit, on
// one machine (UnitExecutor). The first game that is not of the unit is
// held for the next.
func (p *picker) unit(t Table) []Table {
	unit := []Table{t}
	key := UnitKey(t)
	for len(unit) < maxUnit {
		u, st := p.src.Next()
		if st != schedule.Ready {
			break
		}
		if u.Recorded != nil || UnitKey(u) != key {
			p.held = &u
			break
		}
		p.watch.mark(&u)
		unit = append(unit, u)
	}
	return unit
}
