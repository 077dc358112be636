package run

import (
	"slices"

	"github.com/arena-dev/arena/arena/schedule"
)

// picker hands Run the game to start next: the Source's next, or with a
// Claimer (a pool that keeps bot processes between games) the first of
// the next Lookahead ready games whose processes are waiting, so that
// idle processes are reused rather than new ones started; a game passed
// over Lookahead times starts whatever is waiting. Each game it hands out
// is marked with the bots that take no part in it now (startupWatch).
type picker struct {
	src     Source
	claimer Claimer // nil: the Source's order
	watch   *startupWatch
	// held is a game taken from src while gathering a unit, for the
	// next unit: not started yet.
	held *Table
	// window holds the ready games taken from src and not started yet
	// (with a Claimer), in the Source's order.
	window []waiting
}

// waiting is a game of the window, with the times it was passed over.
type waiting struct {
	t      Table
	passed int
}

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
	st := schedule.Ready
	for len(p.window) < Lookahead {
		var t Table
		if t, st = p.src.Next(); st != schedule.Ready {
			break
		}
		if t.Recorded != nil {
			return t, schedule.Ready // counted, not started: no process needed
		}
		p.window = append(p.window, waiting{t: t})
	}
	if len(p.window) == 0 {
		return Table{}, st
	}
	// Marked before any is claimed for: the processes held are those of
	// the bots that take part now.
	for i := range p.window {
		p.watch.mark(&p.window[i].t)
	}
	pick := 0 // none has its processes waiting: the first starts
	if p.window[0].passed < Lookahead {
		for i := range p.window {
			if p.claimer.Claim(p.window[i].t) {
				pick = i
				break
			}
		}
	}
	for i := range pick {
		p.window[i].passed++
	}
	t := p.window[pick].t
	p.window = slices.Delete(p.window, pick, pick+1)
	return t, schedule.Ready
}
