package ladder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/stoprule"
)

// RunOptions tune a ladder's run.
type RunOptions struct {
	// Version is the arena's, written into replays.
	Version string
	// Warn (nil: none) receives warnings: a stale lock, a torn ledger or
	// roster line, edited lines.
	Warn io.Writer
	// AbandonAfter is how long running games may go on once ctx ends
	// before their bots are closed (0: at once); a game that ends in that
	// time is recorded, the others are played again by the next run.
	AbandonAfter time.Duration
	// OnGame (nil: none) is told of each game counted, from Run's
	// goroutine: it may read Progress.Ratings then, and not after.
	OnGame func(Progress)
	// Bind binds the bots' specs in place (a command confines the local
	// ones in its sandbox, binds the remote ones to its NATS link), those
	// of the start and each version admitted later; nil: the ladder
	// file's sandbox (limits and options) confines the stdio bots, all in
	// one sandbox that hides the ladder directory but each version's own
	// (Hidden), and bot.Bind binds the others.
	Bind func(specs []bot.Spec) error
	// Bindings bind, when Bind is nil, the bots of schemes that need
	// something of the run: a remote.Binding (with the Presence below)
	// for nats: bots, which a ladder file names as any bot.
	Bindings bot.Bindings
	// Confined (nil: none) is told the sandbox the default binding (Bind
	// nil) made, once, when the first stdio bot is bound: a command says
	// how the bots are confined (output.Confinement).
	Confined func(*sandbox.Sandbox)
	// Intake (nil: none) takes in the submissions waiting (arena/ladder/
	// intake's Take, which this package cannot import: it imports this
	// one), every IntakeEvery (0: the constant IntakeEvery), from a
	// goroutine of the run that makes every roster log append of the
	// run; it calls changed with each version admitted, once logged,
	// which then joins the run (and retires the one it replaces), and
	// with each bot withdrawn, whose version is retired. Its error ends
	// the run with it.
	Intake      func(ctx context.Context, l *Ladder, changed func(Event)) error
	IntakeEvery time.Duration
	// Executor, if set, makes the executor that plays the games from the
	// run's configuration; nil: they are played here (run.Local).
	Executor func(run.Config) (run.Executor, error)
	// Until (zero: none) makes the run a final that stops once the
	// rule is met on the live ratings of the versions in play, decided
	// as each table's last game counts (and once before the first, so
	// that a final decided already plays nothing more).
	Until stoprule.Rule
	// MaxGames (0: none) is a final's budget: the run stops once it has
	// counted this many games (this run's: a final resumed gets its
	// budget afresh). A final takes no submissions: Intake must be nil
	// (ErrFinalIntake).
	MaxGames int
	// Presence (nil: none) wakes the run when a remote bot's server comes
	// or goes (a remote.Presence, the one Bind's remote.Binding follows
	// its bots with): a remote bot is seated only while it is served.
	Presence Presence
}

// Presence tells a run that a bot's availability may have changed: its
// launcher (Served) says what it is now.
type Presence interface {
	Changed() <-chan struct{}
}

// Progress is a ladder's state after a game counted.
type Progress struct {
	// Progress is the runner's, but that Last.Index is the game's in the
	// ledger (this run's and the earlier runs'), and Suspended holds the
	// ladder's suspensions (submissions.suspend_after) beside the
	// runner's (failures to start).
	run.Progress
	// Ratings are the live ratings, the game's included.
	Ratings *Ratings
	// Tables is how many tables the ladder has started, this run's and
	// the earlier runs'.
	Tables int64
	// Verdict is a final's last decision (RunOptions.Until; the zero
	// Verdict before the first, and without a rule).
	Verdict stoprule.Verdict
}

// Result is how a ladder's run ended.
type Result struct {
	// Resumed counts the games the ledger held when the run began,
	// Played those this run recorded, Abandoned those it cut short (not
	// recorded: the next run plays them).
	Resumed, Played, Abandoned int
	// Ratings are the ratings of every game in the ledger: equal, bit for
	// bit, to Fold of the ledger (the run adds each game in ledger order).
	Ratings *Ratings
	Tables  int64
	// Ending says why the run ended: Interrupted (its context, how a
	// ladder stops), or a final's Decided or BudgetSpent.
	Ending Ending
	// Verdict is a final's last decision of RunOptions.Until (the zero
	// Verdict without a rule).
	Verdict stoprule.Verdict
}

// Run plays the ladder in dir until ctx ends, which is how a ladder
// stops: the games running then are given opt.AbandonAfter to finish,
// and Run returns nil once every game that finished is recorded. It
// resumes whatever the ledger holds: the ratings and each bot's games,
// seats and last table are folded from it, and a duplicate unit cut
// short has its missing games played first (its bots still active).
//
// Each table the matchmaker chooses is a unit of k games of one deal,
// seats rotated (as a tournament's rotation block): game g of table
// number T has id NAME-tT-g(g+1), Round T (the ledger's record of which
// unit it is) and the deal seed the deal secret derives from the ladder
// seed and T. The bots play under their versions' names (NAME.vN).
func Run(ctx context.Context, dir string, opt RunOptions) (*Result, error) {
	if err := opt.checkFinal(); err != nil {
		return nil, err
	}
	if opt.Warn == nil {
		opt.Warn = io.Discard
	}
	o, err := openRun(dir, opt)
	if err != nil {
		return nil, err
	}
	defer o.plan.Close()
	defer o.l.Roster.Close()
	src, bind, err := o.source(opt)
	if err != nil {
		return nil, err
	}
	stop := newFinal(opt, src)
	if stop.decided() { // a final resumed after its end
		return stop.report(&Result{Resumed: o.past.games, Ratings: src.ratings, Tables: src.seq - 1}), nil
	}
	outer := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	src.ctx, src.live = ctx, newLive(o.l, opt, bind, cancel)
	liveDone := make(chan struct{})
	go func() {
		defer close(liveDone)
		src.live.loop(ctx)
	}()
	defer func() { <-liveDone }() // before the roster log closes
	defer cancel(nil)
	rc := o.runConfig(opt, src, stop)
	if opt.Executor != nil {
		if rc.Executor, err = opt.Executor(rc); err != nil {
			return nil, err
		}
	}
	res, err := run.Run(ctx, rc, src, stop.stopRule(), o.plan.Sink)
	out := stop.report(&Result{Resumed: o.past.games, Played: res.Played, Abandoned: res.Abandoned, Ratings: src.ratings, Tables: src.seq - 1})
	if errors.Is(err, run.ErrInterrupted) && ctx.Err() != nil {
		if outer.Err() == nil {
			return out, context.Cause(ctx) // the intake's, or a version that could not join
		}
		return out, nil // how a ladder stops
	}
	return out, err
}

// opened is a ladder directory a run holds: its lock, roster log and
// output directory, and the ledger folded.
type opened struct {
	l    *Ladder
	past *resumed
	plan *runplan.Held
}

// openRun takes dir's lock once, through the output directory (Held
// opens the ladder and the ledger is folded holding it), with the
// ledger's index going on from the games recorded.
func openRun(dir string, opt RunOptions) (*opened, error) {
	o := &opened{l: &Ladder{Dir: dir, Bindings: opt.Bindings}}
	var err error
	o.plan, err = runplan.OpenDir(runplan.Dir{Out: dir, Warn: opt.Warn,
		Held: func() error {
			if err := o.l.open(); err != nil {
				return err
			}
			warnRoster(opt.Warn, o.l)
			return nil
		},
		Deal: func() (*deal.Secret, error) {
			secret, err := deal.InDir(dir, nil)
			if err != nil {
				return nil, err
			}
			o.past, err = resume(o.l.Config, secret, dir, opt.Warn)
			return secret, err
		},
		Line: func(_ run.Table, rec ledger.Record) any {
			rec.Index += o.past.games // the runner counts from 0: the ledger's index goes on
			return rec
		},
	})
	if err != nil {
		if o.l.Roster != nil {
			o.l.Roster.Close()
		}
		return nil, err
	}
	return o, nil
}

// source binds the active versions and makes the run's Source and
// roster. Versions no longer active with games left in a table cut
// short join the run retired: those games are played without them
// (forfeits, recorded without starting them), so that every table ends
// whole.
func (o *opened) source(opt RunOptions) (*tables, func([]bot.Spec) error, error) {
	specs, err := o.l.activeSpecs()
	if err != nil {
		return nil, nil, err
	}
	c := o.l.Config
	bind := opt.Bind
	if bind == nil {
		bind = (&confiner{c: c, dir: o.l.Dir, bindings: opt.Bindings, confined: opt.Confined}).bind
	}
	if err := bind(specs); err != nil {
		return nil, nil, err
	}
	gone := o.l.goneSpecs(o.past.partial, specs)
	all := append(specs, gone...)
	src, err := newTables(c, o.plan.Secret, all, len(gone), o.past)
	if err != nil {
		return nil, nil, err
	}
	src.roster = run.NewRoster(all)
	for i := len(specs); i < len(all); i++ {
		if err := src.roster.Retire(i); err != nil {
			return nil, nil, err
		}
	}
	return src, bind, nil
}

// runConfig is the runner's configuration of the ladder's run.
func (o *opened) runConfig(opt RunOptions, src *tables, stop *final) run.Config {
	c := o.l.Config
	return run.Config{
		Settings: c.Settings, Game: c.Game, Options: c.Options, MatchID: c.Name, RunKey: o.plan.Secret.Fingerprint(),
		Version: opt.Version, Roster: src.roster, Concurrency: c.Concurrency, Rotation: c.Seats.Max,
		AbandonAfter: opt.AbandonAfter, Warn: opt.Warn,
		OnSuspend: func(s run.Suspension) error { src.suspend(s); return nil },
		OnGame: func(p run.Progress) {
			p.Last.Index += o.past.games // the ledger's, as Line writes it
			p.Suspended = append(p.Suspended, src.takeSuspended()...)
			if opt.OnGame != nil {
				opt.OnGame(Progress{Progress: p, Ratings: src.ratings, Tables: src.seq - 1, Verdict: stop.last()})
			}
		},
	}
}

// warnRoster tells what reading the roster log found.
func warnRoster(w io.Writer, l *Ladder) {
	if l.Read.Torn != nil {
		fmt.Fprintf(w, "arena: warning: %s: %s\n", filepath.Join(l.Dir, RosterName), l.Read.Torn)
	}
	for _, e := range l.Read.Edited {
		fmt.Fprintf(w, "arena: warning: %v\n", e)
	}
}

// activeSpecs are the specs of the bots that play (status active), by
// the run's roster index.
func (l *Ladder) activeSpecs() ([]bot.Spec, error) {
	specs, err := playing(l.Dir, l.Roster.State())
	if err != nil {
		return nil, fmt.Errorf("ladder %s: %w", l.Config.Name, err)
	}
	return specs, nil
}

// Playing are the specs (unbound) of the versions that play in the
// ladder at dir now, as its roster log says, read without its lock: a
// command learns from them what its run must reach (the remote ones).
func Playing(dir string) ([]bot.Spec, error) {
	r, _, err := ReadRoster(filepath.Join(dir, RosterName))
	if err != nil {
		return nil, err
	}
	return playing(dir, r)
}

// playing are the specs of r's active versions, a bot's files in dir.
func playing(dir string, r *Roster) ([]bot.Spec, error) {
	l := &Ladder{Dir: dir}
	var specs []bot.Spec
	for _, b := range r.Bots {
		if b.Status != StatusActive || b.Active == 0 {
			continue
		}
		spec, err := l.Spec(b, b.Versions[b.Active-1])
		if err != nil {
			return nil, fmt.Errorf("bot %s: %w", b.Name, err)
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

// goneSpecs are the specs (unbound: never started) of the versions not
// in active that the ledger's tables cut short still seat.
func (l *Ladder) goneSpecs(partial map[int64][]ledger.Record, active []bot.Spec) []bot.Spec {
	playing := map[string]bool{}
	for _, s := range active {
		playing[s.Name] = true
	}
	var gone []bot.Spec
	for _, name := range shortUnitBots(partial) {
		if playing[name] {
			continue
		}
		playing[name] = true
		spec := bot.Spec{Name: name} // a version whose files are gone
		if b, n, ok := SplitVersion(name); ok {
			if rb := l.Roster.State().Bot(b); rb != nil && n >= 1 && n <= len(rb.Versions) {
				if parsed, err := l.Spec(rb, rb.Versions[n-1]); err == nil {
					spec = parsed
				}
			}
		}
		gone = append(gone, spec)
	}
	return gone
}

// dealSeed is table seq's deal: keyed with the deal secret, as a
// tournament's deal number is (tournament.Config's dealSeed, label
// "deal"), the table's number in place of the deal's.
func dealSeed(c *Config, secret *deal.Secret, seq int64) uint64 {
	return secret.Seed(c.Seed, "deal", uint64(seq))
}

// checkSecret: secret deals game r as it was dealt, or the rest of a
// unit cut short would be other cards.
func checkSecret(c *Config, secret *deal.Secret, r *ledger.Record) error {
	if got := dealSeed(c, secret, int64(r.Round)); got != r.Seed {
		return fmt.Errorf("ladder %s: %w than the one its games were dealt with (game %s was dealt seed %d; this secret deals it %d)",
			c.Name, deal.ErrMismatch, r.GameID, r.Seed, got)
	}
	return nil
}

// resumed is what a run resumes from the ledger, folded a line at a
// time (ledger.Each) so that a ladder's memory does not grow with its
// games: the ratings (Ratings.Add in ledger order, as the live ladder
// adds them: equal to Fold, bit for bit), each version's games, seats
// and last table, the next table's number, and the games of the units
// still short of their k games (a complete unit's are dropped as its
// last game is read: only the units a stop cut short, a handful, stay).
type resumed struct {
	games   int
	ratings *Ratings
	states  map[string]*botState
	seq     int64                     // the next table's number (from 1)
	partial map[int64][]ledger.Record // by table number
}

// resume folds the ledger of the ladder in dir, checking that secret
// deals each game as it was dealt.
func resume(c *Config, secret *deal.Secret, dir string, warn io.Writer) (*resumed, error) {
	r := &resumed{ratings: NewRatings(c.Rating, c.Initial), states: map[string]*botState{}, seq: 1,
		partial: map[int64][]ledger.Record{}}
	path := filepath.Join(dir, ledger.FileName)
	lc := newLineCheck(path, func(err error) { fmt.Fprintf(warn, "arena: warning: %v\n", err) })
	torn, err := ledger.Each(path, func(e ledger.Entry[ledger.Record]) error {
		if err := lc.check(e); err != nil {
			return err
		}
		if err := checkSecret(c, secret, &e.Record); err != nil {
			return err
		}
		r.add(e.Record)
		return nil
	})
	if torn != nil {
		fmt.Fprintf(warn, "arena: warning: %s: %s\n", path, torn)
	}
	return r, err
}

// add folds one game.
func (r *resumed) add(rec ledger.Record) {
	r.games++
	r.ratings.Add(rec)
	for seat, name := range rec.Bots {
		st := r.states[name]
		if st == nil {
			st = &botState{}
			r.states[name] = st
		}
		st.games++
		st.last = max(st.last, int64(rec.Round))
		st.seats = countSeat(st.seats, seat)
	}
	seq := int64(rec.Round)
	r.seq = max(r.seq, seq+1)
	unit := append(r.partial[seq], rec)
	if len(unit) >= len(unit[0].Bots) {
		delete(r.partial, seq)
		return
	}
	r.partial[seq] = unit
}
