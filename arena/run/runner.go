package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/schedule"
)

// runner is one Run, whose loop starts games while there is room
// (start), waits for games to finish or a group to be made durable
// (wait), takes what came (collect, synced) and hands the next group to
// the syncer (flush); a game counts (recorded, count) once its ledger
// line is durable. The state those steps share, which were closures over
// Run's variables, is its fields. Its fields are Run's goroutine's alone, but for those
// the games' goroutines read (keep, play), which are set once, before
// any game starts.
type runner struct {
	ctx  context.Context // the caller's: once it ends no game starts
	cfg  Config
	src  Source
	stop StopRule // nil: none
	// byRecord: stop is a RecordRule, asked as games finish (judge).
	byRecord bool
	sink     Sink
	exec     Executor
	// units is exec when it plays units of games together (nil: each
	// game on its own).
	units UnitExecutor
	// gctx is the games' context, which ends AbandonAfter after ctx does,
	// or at once when the run stops early (abandon: a stop rule, an
	// error). stopWatch undoes the watch on ctx.
	gctx      context.Context
	abandon   context.CancelFunc
	stopWatch func() bool
	lostLogs  func() int
	watch     *startupWatch
	pick      *picker
	// group is the syncer's side of a GroupSink (nil: the sink records
	// one game at a time, on Run's goroutine).
	group *groups
	// results brings each game played, from its goroutine (keep).
	results chan finished
	res     *Result
	began   time.Time
	status  schedule.Status // the Source's last
	// stopping: no more games are started, none more counted.
	stopping bool
	err      error // the first that stops the run
	ranToEnd bool  // every game was played: the bots may be sent bye

	// Concurrency bounds the units running (a unit's games are played
	// in turn); Result.InFlight counts their games. unitLeft counts, by
	// unit id, the games of a running unit not finished yet.
	running, lastUnit int
	unitLeft          map[int]int
	places            int // see free
	// indexed counts the games played and recorded by this run (their
	// ledger indices follow those resumed).
	indexed int
}

// finished is a game played, as its goroutine hands it to Run.
type finished struct {
	t    Table
	rec  ledger.Record
	err  error
	unit int // its unit's id (runner.occupy)
	// suspended are the bots this game's result suspended.
	suspended []Suspension
	// judged: a RecordRule has seen the game, which is counted once
	// durable even after a verdict.
	judged bool
}

// newRunner sets a run up: cfg's defaults, the executor (Local unless
// cfg has one), the games' context and, with a GroupSink, the syncer.
// close undoes it.
func newRunner(ctx context.Context, cfg Config, src Source, stop StopRule, sink Sink) *runner {
	cfg.Settings = cfg.Settings.WithDefaults()
	cfg.Concurrency = max(cfg.Concurrency, 1)
	cfg.Roster = cfg.roster() // shared with the executor made here
	if cfg.Warn == nil {
		cfg.Warn = io.Discard
	}
	if sink == nil {
		sink = Discard
	}
	r := &runner{ctx: ctx, cfg: cfg, src: src, stop: stop, sink: sink, exec: cfg.Executor, lostLogs: func() int { return 0 }}
	if r.exec == nil {
		r.exec = NewLocal(cfg, sink)
	}
	if l, ok := r.exec.(interface{ LostLogs() int }); ok {
		r.lostLogs = l.LostLogs
	}
	r.gctx, r.abandon, r.stopWatch = gamesContext(ctx, cfg.AbandonAfter)
	r.res = &Result{}
	r.watch = newStartupWatch(cfg)
	r.began = time.Now()
	r.results = make(chan finished)
	r.status = schedule.Ready
	_, r.byRecord = stop.(RecordRule)
	r.units, _ = r.exec.(UnitExecutor)
	claimer, _ := r.exec.(Claimer)
	if stop != nil || r.units != nil || cfg.Concurrency == 1 {
		// A stop rule sees the games in the Source's order; one game at
		// a time leaves all its processes idle for the next.
		claimer = nil
	}
	r.pick = newPicker(src, claimer, r.watch)
	r.unitLeft = map[int]int{}
	r.places = max(cfg.Concurrency+syncSlack, syncPlaces)
	// With a GroupSink, finished games are recorded in groups by a syncer
	// of their own, while the run goes on: their replays made durable,
	// then their lines appended, then the ledger synced; then they count.
	if g, ok := sink.(GroupSink); ok {
		r.group = startGroups(g)
	}
	return r
}

// gamesContext is the context a run's games are played under: it ends
// after (0: at once) once ctx ends, so that running games may finish and
// be recorded, or at once by abandon (the run stops early: a stop rule,
// an error). stopWatch undoes the watch on ctx.
func gamesContext(ctx context.Context, after time.Duration) (gctx context.Context, abandon context.CancelFunc, stopWatch func() bool) {
	gctx, abandon = context.WithCancel(context.WithoutCancel(ctx))
	stopWatch = context.AfterFunc(ctx, func() {
		if after > 0 {
			time.AfterFunc(after, abandon)
		} else {
			abandon()
		}
	})
	return gctx, abandon, stopWatch
}

// close ends the syncer and the watch on ctx, abandons what still runs
// and closes the executor, saying whether the run ran to its end.
func (r *runner) close() {
	r.group.close()
	r.stopWatch()
	r.abandon()
	r.exec.Close(r.ranToEnd)
}

// over says the run has nothing left to wait for: no game running, no
// group with the syncer, none waiting to go to it (or none may go, after
// a group failed). Games queued then were finished but not made durable.
func (r *runner) over() bool {
	return r.res.InFlight == 0 && !r.group.pending()
}

// fail stops the run with err (the first error is the run's): no game
// starts, running games are abandoned.
func (r *runner) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.stopping = true
	r.abandon()
}

// free says another unit may start. A game keeps its place in the
// concurrency until it counts, so that games wait for the disk instead of
// piling more work on a machine that is syncing. With a stop rule that is
// all: the rule has seen every game before the next starts, as without
// the syncer, so a verdict at concurrency 1 abandons no game started
// after it. A RecordRule sees each game as it finishes (judge), so its
// run has places as a run without one: the next game need not wait for
// the last one's sync. Without one a run has places beyond its concurrency for games
// played while the last group is synced (a Source whose games depend on
// results waits for them, Wait): at least one (syncSlack), and at least
// syncPlaces in all, so that at a low concurrency, where games are short
// next to a sync, many games go on while one sync runs and the next group
// is as large: at concurrency 1 a game then waits for a sync only when
// the sync takes longer than syncPlaces-1 games. At a concurrency of
// syncPlaces or more, where the machine is busy with games already, the
// places are one beyond it: letting every running game go on during syncs
// cost the 256-game soak a tenth of its games per second and added
// spurious timeouts.
func (r *runner) free() bool {
	uncounted := r.group.uncounted()
	if r.stop != nil && !r.byRecord {
		return r.running+uncounted < r.cfg.Concurrency
	}
	return r.running < r.cfg.Concurrency && r.running+uncounted < r.places
}

// start starts games while there is room, the run goes on and the Source
// has them ready. A game already recorded (a resumed run) is counted
// instead; with a UnitExecutor the games that follow on the same deal
// between the same bots go with the first, as one unit.
func (r *runner) start() {
	for !r.stopping && r.ctx.Err() == nil && r.free() {
		var t Table
		if t, r.status = r.pick.next(); r.status != schedule.Ready {
			return
		}
		if t.Recorded != nil {
			r.res.Resumed++
			r.count(t, *t.Recorded)
			continue
		}
		if r.units == nil {
			r.play(t)
			continue
		}
		r.playUnit(r.pick.unit(t))
	}
}

// play plays t in a goroutine of its own, which hands it back (keep).
func (r *runner) play(t Table) {
	id := r.occupy(1)
	go func() {
		rec, replay, err := r.exec.Play(r.gctx, t)
		r.keep(id, t, rec, replay, err)
	}()
}

// playUnit has the UnitExecutor play unit's games, each handed back as
// it finishes (keep).
func (r *runner) playUnit(unit []Table) {
	id := r.occupy(len(unit))
	go r.units.PlayUnit(r.gctx, unit, func(i int, rec ledger.Record, replay Replay, err error) { r.keep(id, unit[i], rec, replay, err) })
}

// occupy takes a place in the concurrency for a unit of games and
// returns the unit's id; release gives it back once they all finished.
func (r *runner) occupy(games int) int {
	r.lastUnit++
	r.running++
	r.unitLeft[r.lastUnit] = games
	r.res.InFlight += games
	return r.lastUnit
}

// release counts one game of unit finished.
func (r *runner) release(unit int) {
	r.res.InFlight--
	if r.unitLeft[unit]--; r.unitLeft[unit] == 0 {
		delete(r.unitLeft, unit)
		r.running--
	}
}

// keep hands a game played back to Run, its replay kept first (in the
// game's goroutine, games in parallel: Sink.Replay); a replay the sink
// could not keep is the game's error.
func (r *runner) keep(unit int, t Table, rec ledger.Record, replay Replay, err error) {
	markAbsentForfeits(t, &rec)
	if err == nil {
		if rec.Replay, rec.ReplayAt, err = r.sink.Replay(t, replay); err != nil {
			err = &sinkError{err}
		}
	}
	r.results <- finished{t: t, rec: rec, err: err, unit: unit}
}

// wait waits for a game to finish or for the syncer, and takes what
// comes.
func (r *runner) wait() {
	select {
	case d := <-r.results:
		r.collect(r.gather(d))
	case done := <-r.group.synced():
		r.synced(done)
	case <-r.group.due():
	}
}

// gather is d with the games that finished meanwhile, up to maxBatch, so
// that they are recorded together.
func (r *runner) gather(d finished) []finished {
	batch := []finished{d}
	for len(batch) < maxBatch {
		select {
		case d := <-r.results:
			batch = append(batch, d)
		default:
			return batch
		}
	}
	return batch
}

// collect takes games played: a game cut short is counted as abandoned,
// another error stops the run; a game with a result takes its ledger
// index, its startup failures are counted (which may suspend bots) and
// it is recorded.
func (r *runner) collect(batch []finished) {
	for _, d := range batch {
		r.release(d.unit)
		if d.err != nil {
			if errors.Is(d.err, ErrAbandoned) {
				r.res.Abandoned++
			} else {
				r.fail(&GameError{Table: d.t, Err: d.err})
			}
			continue
		}
		// The ledger's order: the games already in it, then as games
		// finish (recorded after a stop too, so every index is its own).
		d.rec.Index = r.res.Resumed + r.indexed
		r.indexed++
		r.suspend(&d)
		r.judge(&d)
		r.record(d)
	}
}

// suspend counts d's startup failures as it finishes, before the next
// game starts, rather than once it is recorded: no game is then started
// with a bot it suspends. Config.OnSuspend is told of each.
func (r *runner) suspend(d *finished) {
	d.suspended = r.watch.saw(d.t, d.rec)
	for _, s := range d.suspended {
		if r.cfg.OnSuspend != nil {
			if err := r.cfg.OnSuspend(s); err != nil {
				r.fail(err)
			}
		}
	}
}

// judge asks a RecordRule about d as it finishes (before it is durable),
// unless the run is stopping already.
func (r *runner) judge(d *finished) {
	if !r.byRecord || r.stopping {
		return
	}
	d.judged = true
	if r.stop.Stop(d.t, d.rec) {
		r.verdict()
	}
}

// onGame tells Config.OnGame of the run's progress.
func (r *runner) onGame() {
	if r.cfg.OnGame != nil {
		r.res.Elapsed = time.Since(r.began)
		r.cfg.OnGame(r.res.Progress)
	}
}

// verdict stops the run on its stop rule's say: no game starts, those
// running are abandoned.
func (r *runner) verdict() {
	r.res.Stopped = true
	r.stopping = true
	r.abandon()
}

// record appends d's ledger line and counts it, or with a GroupSink
// queues it for the syncer (flush).
func (r *runner) record(d finished) {
	if r.group != nil {
		r.group.queued = append(r.group.queued, d)
		return
	}
	if err := r.sink.Record(d.t, d.rec); err != nil {
		r.fail(&GameError{Table: d.t, Err: err})
		return
	}
	r.recorded(d)
}

// flush hands the games queued to the syncer as one group, if it is idle:
// at once when the run waits for them (a stop rule sees each game before
// the next starts; no game is running; they hold the places a game would
// start in; the run is stopping), else once syncEvery has passed since
// the last group, so that games that finish meanwhile join this one.
// After another failure the games finished are still recorded, as a sink
// without groups records them; only a failed sync stops it.
func (r *runner) flush() {
	waits := r.stop != nil && !r.byRecord || r.running == 0 || r.stopping || r.running+r.group.uncounted() >= r.places
	r.group.flush(waits)
}

// synced takes a group the syncer is done with: its games count, unless
// it could not be made durable, which stops the run (and the syncer:
// the sink is no longer durable).
func (r *runner) synced(done syncDone) {
	r.group.syncing, r.group.inSync = false, 0
	if done.err != nil {
		r.group.failed = true
		r.fail(done.err)
		return // not durable: not counted
	}
	for _, d := range done.batch {
		r.recorded(d)
	}
}

// recorded counts a game whose ledger line is durable, unless the run
// is stopping (then it is recorded, not counted; but for a game a
// RecordRule judged, which counts), asks the stop rule (not a
// RecordRule: judge did) and tells OnGame.
func (r *runner) recorded(d finished) {
	r.res.Played++
	if r.stopping && !d.judged {
		return
	}
	r.count(d.t, d.rec)
	r.res.Suspended = d.suspended
	if r.stop != nil && !r.byRecord && r.stop.Stop(d.t, r.res.Last) {
		r.verdict()
	}
	r.onGame()
}

// count counts a game: the Source is told (its error stops the run) and
// the progress updated.
func (r *runner) count(t Table, rec ledger.Record) {
	if err := r.src.Result(t, rec); err != nil {
		r.fail(err)
	}
	r.res.Done++
	r.res.Elapsed = time.Since(r.began)
	r.res.Last = rec
	r.res.LostLogs = r.lostLogs()
}

// end is how the run ended, once it is over: a stop rule's verdict, the
// first error, ctx's end, or the Source run out (the only end that lets
// the executor send the bots bye) or waiting with nothing running.
func (r *runner) end() (*Result, error) {
	r.res.Elapsed = time.Since(r.began)
	switch {
	case r.err != nil: // after a verdict too: the games a RecordRule judged may not be durable
		return r.res, r.err
	case r.res.Stopped:
		return r.res, nil // the bots are killed, not sent bye: their games were cut short
	case r.ctx.Err() != nil:
		return r.res, fmt.Errorf("%w (%w)", ErrInterrupted, context.Cause(r.ctx))
	case r.status != schedule.Done:
		return r.res, ErrStalled
	}
	r.ranToEnd = true
	return r.res, nil
}
