package run

import "errors"

// maxBatch bounds the games recorded together (GroupSink).
const maxBatch = 256

// syncSlack is the places a run without a stop rule has at least beyond
// its concurrency for games finished and waiting to count (runner.free).
const syncSlack = 1

// syncPlaces is the places a run without a stop rule has at least for
// its games, running and waiting to count together (runner.free): as
// many as one group of games recorded together (maxBatch).
const syncPlaces = maxBatch

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
}

// startGroups starts the syncer of sink; close (once the run is over)
// ends it.
func startGroups(sink GroupSink) *groups {
	to, done := make(chan []finished), make(chan syncDone)
	go syncer(sink, to, done)
	return &groups{to: to, done: done}
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

// flush hands the games queued to the syncer as one group, if it is idle
// and no group failed.
func (g *groups) flush() {
	if g != nil && !g.syncing && len(g.queued) > 0 && !g.failed {
		g.to <- g.queued
		g.queued, g.syncing, g.inSync = nil, true, len(g.queued)
	}
}

// close ends the syncer.
func (g *groups) close() {
	if g != nil {
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
