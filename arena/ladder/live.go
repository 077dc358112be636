package ladder

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
)

// IntakeEvery is how often a running ladder takes submissions in
// (RunOptions.IntakeEvery's default).
const IntakeEvery = time.Second

// live is a running ladder's roster side: one goroutine (loop) makes
// every roster log append of the run, the intake's and the suspensions
// the runner decides, so that the log (which has no lock) has one
// writer and the intake reads its state undisturbed. The runner's
// goroutine and loop share only the two queues below.
type live struct {
	l      *Ladder
	intake func(ctx context.Context, l *Ladder, changed func(Event)) error
	every  time.Duration
	bind   func([]bot.Spec) error
	cancel context.CancelCauseFunc
	// presence wakes await when a remote bot comes or goes (nil: never).
	presence <-chan struct{}

	mu       sync.Mutex
	suspends []Event  // for loop to log
	changes  []change // versions admitted and bots withdrawn, for the Source
	kick     chan struct{}
	started  chan struct{} // closed once the first intake pass is done (loop)
	wake     chan struct{}
}

// change is one change of who plays, in the order the roster log took
// it: a version admitted (bound), or a bot withdrawn (Spec unset).
type change struct {
	Spec      bot.Spec
	Withdrawn string // the bot withdrawn
}

func newLive(l *Ladder, opt RunOptions, bind func([]bot.Spec) error, cancel context.CancelCauseFunc) *live {
	every := opt.IntakeEvery
	if every <= 0 {
		every = IntakeEvery
	}
	lv := &live{l: l, intake: opt.Intake, every: every, bind: bind, cancel: cancel,
		kick: make(chan struct{}, 1), started: make(chan struct{}), wake: make(chan struct{}, 1)}
	if opt.Presence != nil {
		lv.presence = opt.Presence.Changed()
	}
	return lv
}

// signal wakes whoever waits on c, once, without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// loop runs until ctx ends: it logs the suspensions queued and every
// IntakeEvery takes submissions in. Its error (a roster log it cannot
// write, a version it cannot bind) ends the run with it.
//
// Its first pass comes before the first table (started closes then): a
// ladder that starts takes in first what waited while it was down, so
// that a bot withdrawn meanwhile plays no table and a version submitted
// meanwhile replaces its old one from the start.
func (lv *live) loop(ctx context.Context) {
	var tick <-chan time.Time
	if lv.intake != nil {
		t := time.NewTicker(lv.every)
		defer t.Stop()
		tick = t.C
		err := lv.intake(ctx, lv.l, lv.changed)
		if err != nil && ctx.Err() == nil {
			close(lv.started)
			lv.cancel(fmt.Errorf("ladder %s: intake: %w", lv.l.Config.Name, err))
			return
		}
	}
	close(lv.started)
	for {
		if err := lv.logSuspensions(); err != nil {
			lv.cancel(err)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-lv.kick:
		case <-tick:
			err := lv.intake(ctx, lv.l, lv.changed)
			if err != nil && ctx.Err() == nil {
				lv.cancel(fmt.Errorf("ladder %s: intake: %w", lv.l.Config.Name, err))
				return
			}
		}
	}
}

// suspend queues e (the runner's goroutine) for loop to log.
func (lv *live) suspend(e Event) {
	lv.mu.Lock()
	lv.suspends = append(lv.suspends, e)
	lv.mu.Unlock()
	signal(lv.kick)
}

// logSuspensions logs the suspensions queued. One of a version since
// replaced (Event.Version no longer active) is dropped: it would
// suspend the new one.
func (lv *live) logSuspensions() error {
	lv.mu.Lock()
	queued := lv.suspends
	lv.suspends = nil
	lv.mu.Unlock()
	for _, e := range queued {
		if b := lv.l.Roster.State().Bot(e.Bot); b == nil || b.Active != e.Version || b.Status != StatusActive {
			continue
		}
		e.Version = 0 // a suspension names the bot
		if err := lv.l.Roster.Append(e); err != nil {
			return fmt.Errorf("recording that bot %s is suspended: %w", e.Bot, err)
		}
	}
	return nil
}

// changed is the intake's, told of each event that changes who plays:
// a version admitted is bound, a bot withdrawn named; either is queued
// for the Source, which is woken.
func (lv *live) changed(e Event) {
	c := change{Withdrawn: e.Bot}
	if e.Kind == Admitted {
		spec, err := lv.bound(e)
		if err != nil {
			lv.cancel(fmt.Errorf("ladder %s: version %s admitted: %w", lv.l.Config.Name, VersionName(e.Bot, e.Version), err))
			return
		}
		c = change{Spec: spec}
	}
	lv.mu.Lock()
	lv.changes = append(lv.changes, c)
	lv.mu.Unlock()
	signal(lv.wake)
}

// bound is version e's spec, bound.
func (lv *live) bound(e Event) (bot.Spec, error) {
	b := lv.l.Roster.State().Bot(e.Bot)
	spec, err := lv.l.Spec(b, b.Versions[e.Version-1])
	if err != nil {
		return spec, err
	}
	specs := []bot.Spec{spec}
	err = lv.bind(specs)
	return specs[0], err
}

// taken takes the changes queued for the Source.
func (lv *live) taken() []change {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	c := lv.changes
	lv.changes = nil
	return c
}

// await blocks until a version is queued, a remote bot comes or goes,
// or ctx ends (false).
func (lv *live) await(ctx context.Context) bool {
	select {
	case <-lv.wake:
		return true
	case <-lv.presence:
		return true
	case <-ctx.Done():
		return false
	}
}

// confiner is Run's binding when RunOptions.Bind is nil: the ladder's
// stdio bots in one sandbox of the ladder file's limits, made with the
// first of them, which hides the ladder directory (Hidden) but bots/,
// where each version sees its own directory alone (an isolated bot's
// root holds only its own program and directory). runplan.Confine is
// given no output directory: the versions live inside the ladder's.
// Versions added later join the same sandbox; other bots do not see
// their directories, which lie outside theirs. Other bots (mem:, and
// nats: with RunOptions.Bindings) are bound as bot.Bind binds them.
type confiner struct {
	c        *Config
	dir      string
	bindings bot.Bindings
	sb       *sandbox.Sandbox
	confined func(*sandbox.Sandbox) // RunOptions.Confined
}

func (cf *confiner) bind(specs []bot.Spec) error {
	if len(stdio.Programs(specs)) > 0 {
		if cf.sb == nil {
			opts := cf.c.BotOptions
			opts.Hide = append(slices.Clip(opts.Hide), Hidden(cf.dir)...)
			sb, err := runplan.Confine(specs, cf.c.BotLimits, opts, "")
			if err != nil {
				return fmt.Errorf("ladder %s: %w", cf.c.Name, err)
			}
			cf.sb = sb
			if cf.confined != nil {
				cf.confined(sb)
			}
		} else {
			stdio.Confine(specs, cf.sb)
		}
	}
	return bot.Bind(specs, cf.bindings)
}
