package run

import (
	"errors"
	"time"
)

// maxBatch bounds the games recorded together (GroupSink).
const maxBatch = 256

// syncSlack is the places a run without a stop rule has at least beyond
// its concurrency for games finished and waiting to count (runner.free).
const syncSlack = 1

// syncPlaces is the places a run without a stop rule has at least for
// its games, running and waiting to count together (runner.free): as
// many as one group of games recorded together (maxBatch).
const syncPlaces = maxBatch

// syncEvery is the least time between two groups handed to the syncer
// while games go on and more could join the next group (runner.flush).
// Why: at a low concurrency a short game takes less time than a sync, so
// each group was one game and each game paid two syncs (a fifth of the
// arena's CPU in 1,000 two-ply games: the file system's journal, the
// disk's notifications, the Go runtime's threads woken for the blocking
// calls). Games wait for it only where nothing else could start: a run
// whose next game needs a count (a stop rule, no places left) flushes
// at once.
const syncEvery = 10 * time.Millisecond

// groups is the run's side of its syncer (GroupSink): the games finished
// and waiting for the syncer, and the group being made durable. The
// runner alone uses it, from Run's goroutine.
type groups struct {
	queued  []finished // finished, waiting for the syncer
	syncing bool       // a group is with the syncer
	inSync  int        // ... of this many games
	failed  bool       // a group could not be made durable: no group after it
	to      chan<- []finished
	done    <-chan syncDone
	// handed is when the last group went to the syncer; linger wakes
	// the run once syncEvery has passed since, for the games queued.
	handed time.Time
	linger *time.Timer
}

// startGroups starts the syncer of sink; close (once the run is over)
// ends it.
func startGroups(sink GroupSink) *groups {
	to, done := make(chan []finished), make(chan syncDone)
	go syncer(sink, to, done)
	linger := time.NewTimer(time.Hour)
	linger.Stop()
	return &groups{to: to, done: done, linger: linger}
}

// uncounted counts the games finished and not counted yet: waiting for
// the syncer or with it (none with no groups).
func (g *groups) uncounted() int {
	if g == nil {
		return 0
	}
	return len(g.queued) + g.inSync
}

// pending says the syncer has a group, or games wait to go to it (and
// may: no group failed).
func (g *groups) pending() bool {
	return g != nil && (g.syncing || len(g.queued) > 0 && !g.failed)
}

// synced is where the syncer says a group is done (nil with no groups:
// nothing comes).
func (g *groups) synced() <-chan syncDone {
	if g == nil {
		return nil
	}
	return g.done
}

// due is where the run is woken when games wait for the syncer only
// because syncEvery has not passed (nil: none do).
func (g *groups) due() <-chan time.Time {
	if g == nil || g.syncing || len(g.queued) == 0 || g.failed {
		return nil
	}
	g.linger.Reset(time.Until(g.handed.Add(syncEvery)))
	return g.linger.C
}

// flush hands the games queued to the syncer as one group, if it is idle
// and no group failed, and now is true or syncEvery has passed since the
// last group, or a group is full.
func (g *groups) flush(now bool) {
	if g != nil && !g.syncing && len(g.queued) > 0 && !g.failed && (now || len(g.queued) >= maxBatch || time.Since(g.handed) >= syncEvery) {
		g.to <- g.queued
		g.queued, g.syncing, g.inSync, g.handed = nil, true, len(g.queued), time.Now()
	}
}

// close ends the syncer.
func (g *groups) close() {
	if g != nil {
		g.linger.Stop()
		close(g.to)
	}
}

// syncDone is a group of games the syncer recorded, or why it could not.
type syncDone struct {
	batch []finished
	err   error
}

// syncer records each group of finished games it is given in sink:
// their replays made durable first, then their lines appended and
// synced, so that a line that survives a crash has its replay.
func syncer(sink GroupSink, groups <-chan []finished, done chan<- syncDone) {
	for batch := range groups {
		err := sink.SyncReplays()
		var gameErr *GameError
		if err != nil && !errors.As(err, &gameErr) {
			err = &GameError{Table: batch[0].t, Err: err}
		}
		for _, d := range batch {
			if err != nil {
				break
			}
			if e := sink.Record(d.t, d.rec); e != nil {
				err = &GameError{Table: d.t, Err: e}
			}
		}
		if err == nil {
			if e := sink.SyncRecords(); e != nil {
				err = &GameError{Table: batch[0].t, Err: e}
			}
		}
		done <- syncDone{batch, err}
	}
}
