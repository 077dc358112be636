// Package sprt runs a sequential probability ratio test between two bots: a
// base (the bot as it is) and a test (the bot with a change), playing until
// the log-likelihood ratio of "the change is worth at least Elo1" against
// "the change is worth at most Elo0" crosses a bound, or a game cap or a
// time budget is reached.
//
// The unit is the game pair: one deal played twice with base and test in
// swapped seats, so the luck of the deal and of the seat cancels within the
// pair. With more than two seats, base and test swap between two seats of
// the same deal and filler bots take the other seats; which two seats they
// occupy rotates from pair to pair. A game scores 1, 1/2 or 0 for the test
// by its placement relative to the base (a forfeit is ranked last by the
// referee, so it loses), and a pair scores the mean of its two games: 0,
// 1/4, 1/2, 3/4 or 1, counted pentanomially. The statistic is the GLR on
// normalized Elo (stats.SPRT.LLRPenta); with Paired off every game is
// independent (its own deal, seats alternating) and the trinomial
// statistic (stats.SPRT.LLRTri) is used.
//
// Games run concurrently, a pair's two games too. A pair counts when both
// its games are done, and the LLR is checked after every counted pair in
// the order the pairs complete (as fishtest and fastchess do). Once a bound
// is crossed no game is started, running games are abandoned (their bots
// killed), and every finished game that is not part of a counted pair is
// left out of the statistic; it stays in results.jsonl.
package sprt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/engine"
)

// Config describes one SPRT run.
type Config struct {
	Game    engine.Game
	Options engine.Options // resolved, e.g. by engine.Setup
	Seats   int            // seats per game (0: the game's minimum)
	// Test is the candidate, Base the reference. Filler takes every seat
	// beyond those two; each filler seat is its own process, named
	// Filler.Name plus 1, 2... ("filler1", "filler2" when Name is "")
	// of one Launcher. They are bound before Run (bot.Bind).
	Test, Base, Filler bot.Spec
	// Settings are the clocks, the failure policy, the bounds on bots
	// and how their processes are kept (run.Settings). Its FreshDeals is
	// not read: unpaired (Paired false) is what fresh deals mean here.
	run.Settings
	SPRT stats.SPRT
	// MaxGames caps the games played (0: no cap). Paired, it is rounded
	// down to whole pairs.
	MaxGames int
	// MaxTime is the run's wall-clock budget (0: none): when it runs out
	// the run stops as at MaxGames, inconclusive unless a bound was
	// crossed, with the games still running abandoned (their bots killed,
	// nothing of them recorded) and a pair with one game done left
	// uncounted.
	MaxTime     time.Duration
	Concurrency int // games at once (< 1: 1)
	// Paired plays game pairs (pentanomial); off, independent games
	// (trinomial), each on a fresh deal with the seats alternating: what
	// --fresh-deals means for arena match and tournaments, so arena sprt
	// takes --fresh-deals as another name for --no-pairs. Pairs cancel a
	// deal's luck but spend two games on it: they pay only where the two
	// games of a pair are negatively correlated (docs/ci.md, "Variance
	// reduction, measured").
	Paired bool
	// Seed and Secret derive the deals (deal.Secret.Seed). Secret nil:
	// OutDir's, or a fresh one (kept in memory only without OutDir).
	Seed   uint64
	Secret *deal.Secret
	// OutDir receives results.jsonl, replays/, logs/ and, as the run
	// starts, SummaryFile with the Verdict Running; "" keeps nothing.
	OutDir  string
	MatchID string // sent to bots (default: run.NewMatchID("sprt-GAME"))
	Version string // arena version, written into replays
	// Executor, if set, makes the executor that plays the games (a
	// distributed run's coordinator, arena/cluster) from the run's
	// configuration; nil: they are played here.
	Executor func(run.Config) (run.Executor, error)
}

// Verdict is how a run ended.
type Verdict string

// Verdicts.
const (
	H1           Verdict = "H1"           // accepted H1: the test is at least Elo1 better
	H0           Verdict = "H0"           // accepted H0: the test is at most Elo0 better
	Inconclusive Verdict = "inconclusive" // MaxGames played or MaxTime spent, no bound crossed
	Aborted      Verdict = "aborted"      // an arena error or an interrupt
	// Running: no bound crossed yet, the run goes on (a Tally's verdict
	// until it decides, and the Summary a run writes as it starts).
	Running Verdict = "running"
)

// StopReason is what ended a run that has a verdict: a bound (H1, H0), or
// for an inconclusive one the limit it reached.
type StopReason string

// Stop reasons.
const (
	StoppedByBound    StopReason = "bound"     // H1 or H0
	StoppedByMaxGames StopReason = "max_games" // inconclusive: MaxGames played
	StoppedByMaxTime  StopReason = "max_time"  // inconclusive: MaxTime spent
)

// Status is the state of a run after a counted pair (or game, unpaired).
type Status struct {
	Paired bool
	// Pairs counted (0 unpaired) and games counted.
	Pairs, Games int
	Penta        stats.Penta // paired only
	WDL          stats.WDL   // the test's game results among counted games
	LLR          float64
	Lower, Upper float64 // the bounds ln(B/(1-A)) and ln((1-B)/A)
	Estimate     stats.Estimate
	Elapsed      time.Duration
	InFlight     int // games running
}

// Result is a finished run.
type Result struct {
	Status
	Verdict Verdict
	// StoppedBy says what ended the run: "" when it was aborted.
	StoppedBy StopReason
	// Played is every game that finished, counted or not; Abandoned the
	// games cut short when the run stopped.
	Played, Abandoned int
	Seed              uint64
	// Reason says why an aborted run stopped ("interrupted (SIGTERM)",
	// "the test bot new was suspended: ..."); "" otherwise.
	Reason string
}

// SuspendedError stops an SPRT whose test or base bot was suspended for
// failing to start (run.Settings.MaxStartupFailures): every game left
// would be its forfeit, and the verdict they give (H0 for a test bot
// that never starts) would say nothing of its strength.
type SuspendedError struct {
	Role string // "test" or "base"
	run.Suspension
}

func (e *SuspendedError) Error() string {
	return fmt.Sprintf("the %s bot %s was %s: its games say nothing of its strength; check that it starts (arena check)", e.Role, e.Name, e.Why)
}

// GameLine is one line of results.jsonl: the game record plus what the
// SPRT made of it.
type GameLine struct {
	ledger.Record
	// Pair is the pair the game belongs to (paired runs only).
	Pair *int `json:"pair,omitempty"`
	// TestScore is the test's score in this game: 1, 0.5 or 0.
	TestScore float64 `json:"test_score"`
}

// Bot indexes in the pool: test, base, then the fillers.
const (
	testBot = 0
	baseBot = 1
)

// Check validates a Config without starting anything.
func (c *Config) Check() error {
	if c.Game == nil {
		return errors.New("no game")
	}
	info := c.Game.Info()
	seats := c.seats()
	if seats < 2 || seats < info.MinSeats || seats > info.MaxSeats {
		return fmt.Errorf("game %s takes %d-%d seats, got %d", info.Name, info.MinSeats, info.MaxSeats, seats)
	}
	if err := c.SPRT.Validate(); err != nil {
		return err
	}
	if c.MaxGames < 0 {
		return fmt.Errorf("max games %d: want 0 (no cap) or more", c.MaxGames)
	}
	if c.MaxTime < 0 {
		return fmt.Errorf("max time %v: want 0 (no budget) or more", c.MaxTime)
	}
	if c.Paired && c.MaxGames == 1 {
		return fmt.Errorf("max games 1: a pair is 2 games")
	}
	bots := c.bots()
	for _, b := range bots {
		if b.Target == nil && b.Launcher == nil {
			return fmt.Errorf("bot %q has no command", b.Name)
		}
		if err := bot.CheckName(b.Name); err != nil {
			return err
		}
	}
	return bot.CheckNames(bots)
}

func (c *Config) seats() int {
	if c.Seats == 0 && c.Game != nil {
		return max(2, c.Game.Info().MinSeats)
	}
	return c.Seats
}

// bots lists the run's bots: test, base, filler1...
func (c *Config) bots() []bot.Spec {
	out := []bot.Spec{c.Test, c.Base}
	prefix := c.Filler.Name
	if prefix == "" {
		prefix = "filler"
	}
	for i := 1; i <= c.seats()-2; i++ {
		f := c.Filler
		f.Name = fmt.Sprintf("%s%d", prefix, i)
		out = append(out, f)
	}
	return out
}

// FillerNames are the names the filler seats play under.
func (c *Config) FillerNames() []string {
	var out []string
	for _, b := range c.bots()[2:] {
		out = append(out, b.Name)
	}
	return out
}

// seatPairs lists the unordered seat pairs {i, j}, i < j, that test and
// base take in turn; for 2 seats only {0, 1}.
func seatPairs(seats int) [][2]int {
	var out [][2]int
	for i := 0; i < seats; i++ {
		for j := i + 1; j < seats; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// Layout returns the bot index per seat (0 test, 1 base, 2... fillers) of
// the game with the given unit (the pair, or unpaired the game number / 2)
// and half (0: test in the lower seat of the pair of seats, 1: swapped).
// The seats test and base share rotate over every pair of seats as the
// unit grows; fillers fill the other seats in order, and keep their seats
// between the two games of a unit.
func Layout(seats, unit, half int) []int {
	pairs := seatPairs(seats)
	sp := pairs[unit%len(pairs)]
	out := make([]int, seats)
	next := 2
	for s := range out {
		switch s {
		case sp[0]:
			out[s] = testBot
			if half == 1 {
				out[s] = baseBot
			}
		case sp[1]:
			out[s] = baseBot
			if half == 1 {
				out[s] = testBot
			}
		default:
			out[s] = next
			next++
		}
	}
	return out
}

// TestHalves is the test's score in a game in half points (2 win, 1 draw,
// 0 loss), by its rank relative to the base's.
func TestHalves(ranks []int, testSeat, baseSeat int) int {
	switch t, b := ranks[testSeat], ranks[baseSeat]; {
	case t < b:
		return 2
	case t == b:
		return 1
	}
	return 0
}

// Run plays until a bound is crossed, MaxGames are played, MaxTime is
// spent, ctx is done or the arena fails. It calls progress (if not nil)
// after every counted pair (game, unpaired), from Run's goroutine. The
// Result is never nil; its Verdict is Aborted when the error is not nil.
func Run(ctx context.Context, cfg Config, progress func(Status)) (*Result, error) {
	res := &Result{Seed: cfg.Seed, Verdict: Aborted}
	res.Paired = cfg.Paired
	if err := cfg.Check(); err != nil {
		return res, err
	}
	// The games run under runCtx, which the time budget ends too, with a
	// cause of its own that tells it from the caller's interrupt.
	runCtx := ctx
	if cfg.MaxTime > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeoutCause(ctx, cfg.MaxTime, errMaxTime)
		defer cancel()
	}
	res.Lower, res.Upper = cfg.SPRT.Bounds()
	if cfg.MatchID == "" {
		// Unique, not just per second: game ids (and so replay and log
		// file names) of two runs started together must not collide.
		cfg.MatchID = run.NewMatchID("sprt-" + cfg.Game.Info().Name)
	}
	// The hypotheses and bounds are in the directory from the start, so
	// that a report made during the run draws the LLR so far against
	// them; the caller writes the final summary over it.
	start := *res
	start.Verdict = Running
	plan, err := runplan.OpenDir(runplan.Dir{Out: cfg.OutDir, Secret: cfg.Secret, Run: "this sprt",
		// An SPRT does not resume: results there are another run's, and
		// its report would mix them with this one's.
		Held: func() error {
			if _, err := os.Stat(filepath.Join(cfg.OutDir, SummaryFile)); err == nil {
				return &run.OtherRunError{Dir: cfg.OutDir, Holds: "an earlier sprt (" + SummaryFile + "; an sprt does not resume)", Run: "this sprt"}
			}
			return nil
		},
		Line: func(t run.Table, rec ledger.Record) any {
			line := GameLine{Record: rec, TestScore: float64(testHalves(t, rec)) / 2}
			line.Index = t.Index // the game's number in the schedule
			if cfg.Paired {
				p := t.Round
				line.Pair = &p
			}
			return line
		}})
	if err != nil {
		return res, err
	}
	defer plan.Close() // held until every bot is gone (run.Run returns after)
	if cfg.OutDir != "" {
		if err := WriteSummary(cfg.OutDir, NewSummary(&cfg, &start)); err != nil {
			return res, err
		}
	}
	secret, sink := plan.Secret, plan.Sink
	maxJobs := cfg.MaxGames
	if cfg.Paired {
		maxJobs -= maxJobs % 2
	}
	specs := cfg.bots()
	// Bots the caller left unbound take their scheme's default (a
	// program unconfined); a remote one without its connection is an
	// error here.
	if err := bot.Bind(specs, nil); err != nil {
		return res, err
	}
	src := &games{cfg: &cfg, secret: secret, max: maxJobs, seats: cfg.seats()}
	test := &test{tally: NewTally(cfg.SPRT, cfg.Paired)}
	rc := run.Config{
		Settings: cfg.Settings, Game: cfg.Game, Options: cfg.Options, MatchID: cfg.MatchID, Version: cfg.Version,
		Bots: specs, Concurrency: cfg.Concurrency,
		Rotation: 2, // a pair's two games share a deal
		OnGame: func(p run.Progress) {
			// The test judged this game as it finished (run.RecordRule);
			// now it is durable, its progress line is due.
			st, counted := test.durable()
			if counted && progress != nil {
				st.Elapsed, st.InFlight = p.Elapsed, p.InFlight
				progress(st)
			}
		},
	}
	rc.OnSuspend = func(s run.Suspension) error {
		switch s.Bot {
		case testBot:
			return &SuspendedError{Role: "test", Suspension: s}
		case baseBot:
			return &SuspendedError{Role: "base", Suspension: s}
		}
		return nil // a filler: its seats are the test's and the base's alike
	}
	if cfg.Executor != nil {
		if rc.Executor, err = cfg.Executor(rc); err != nil {
			return res, err
		}
	}
	out, err := run.Run(runCtx, rc, src, test, sink)
	res.Status = test.tally.Status
	res.Played, res.Abandoned = out.Played, out.Abandoned
	res.Elapsed = out.Elapsed
	res.InFlight = 0
	switch {
	case err != nil && !errors.Is(err, run.ErrInterrupted):
		// The games the test judged may not all be durable: no verdict
		// stands on them.
		res.Reason = err.Error()
		return res, err
	case test.tally.Verdict != Running:
		res.Verdict, res.StoppedBy = test.tally.Verdict, StoppedByBound
	case errors.Is(err, run.ErrInterrupted) && errors.Is(context.Cause(runCtx), errMaxTime):
		res.Verdict, res.StoppedBy = Inconclusive, StoppedByMaxTime
	case errors.Is(err, run.ErrInterrupted):
		res.Reason = fmt.Sprintf("interrupted (%v)", context.Cause(ctx))
		return res, fmt.Errorf("sprt interrupted (%w) after %d games (%d counted)", context.Cause(ctx), res.Played, res.Games)
	default:
		res.Verdict, res.StoppedBy = Inconclusive, StoppedByMaxGames
	}
	return res, nil
}

// errMaxTime is the cause of the end of a run's context when its time
// budget (Config.MaxTime) runs out.
var errMaxTime = errors.New("the time budget ran out")

// games is the SPRT's Source: pairs of games on one deal with test and
// base swapped (or, unpaired, games on deals of their own), up to max
// games (0: no end). Table.Round is the unit: the pair, or the game.
type games struct {
	cfg    *Config
	secret *deal.Secret
	max    int
	seats  int
	next   int
}

func (g *games) Next() (run.Table, schedule.Status) {
	j := g.next
	if g.max > 0 && j >= g.max {
		return run.Table{}, schedule.Done
	}
	g.next++
	var unit, half int
	var seed uint64
	var id string
	if g.cfg.Paired {
		unit, half = j/2, j%2
		seed = g.secret.Seed(g.cfg.Seed, "sprt", uint64(unit))
		id = fmt.Sprintf("%s-p%05d%c", g.cfg.MatchID, unit, 'a'+half)
	} else {
		unit, half = j, j%2
		seed = g.secret.Seed(g.cfg.Seed, "sprt-game", uint64(j))
		id = fmt.Sprintf("%s-g%05d", g.cfg.MatchID, j)
	}
	return run.Table{Game: schedule.Game{Round: unit, Seats: Layout(g.seats, j/2, half)}, Index: j, GameID: id, Seed: seed}, schedule.Ready
}

func (g *games) Result(run.Table, ledger.Record) error { return nil }

// test is the SPRT as the run's stop rule: it counts each game with a
// Tally and stops at a bound.
type test struct {
	tally *Tally
	// judged holds, for each game judged and not yet durable, in order,
	// the tally's status after it and whether it completed a unit: its
	// progress line is due once it is durable (durable), so that a line
	// never tells of games the ledger does not hold yet.
	judged []judgedGame
}

type judgedGame struct {
	status  Status
	counted bool
}

// durable takes the oldest game judged, now durable: the status after it
// and whether it completed a unit.
func (s *test) durable() (Status, bool) {
	if len(s.judged) == 0 {
		return s.tally.Status, false // not reached: Run tells OnGame only of games the test judged
	}
	g := s.judged[0]
	s.judged = s.judged[1:]
	return g.status, g.counted
}

// testHalves is the test's score in half points in the game t recorded
// as rec.
func testHalves(t run.Table, rec ledger.Record) int {
	return TestHalves(rec.Ranks, seatOf(t.Seats, testBot), seatOf(t.Seats, baseBot))
}

// ByRecord: the test judges a game by its record alone (run.RecordRule),
// so that a short game's next need not wait for its sync.
func (s *test) ByRecord() {}

func (s *test) Stop(t run.Table, rec ledger.Record) bool {
	counted := s.tally.Add(t.Round, testHalves(t, rec))
	s.judged = append(s.judged, judgedGame{s.tally.Status, counted})
	return s.tally.Verdict != Running
}

// Tally is the SPRT's count of the games as they finish, the statistic
// and the stop rule: Run counts with one, in the order games are
// recorded, and so does whoever replays a run's results.jsonl in order
// (its lines' Pair and TestScore), to the same LLR after every unit.
type Tally struct {
	SPRT   stats.SPRT
	Paired bool
	// Status is the count so far (Elapsed and InFlight are not set).
	Status
	// Verdict is Running until a bound is crossed, then H1 or H0; games
	// added after it are not counted.
	Verdict Verdict
	pending map[int][]int // pair -> halves of its finished games
}

// NewTally starts an empty count under s.
func NewTally(s stats.SPRT, paired bool) *Tally {
	t := &Tally{SPRT: s, Paired: paired, Verdict: Running, pending: map[int][]int{}}
	t.Status.Paired = paired
	t.Lower, t.Upper = s.Bounds()
	return t
}

// Add counts a game of unit (its pair; unpaired, ignored) in which the
// test scored halves half points (TestHalves). counted is true when the
// game completed a unit (a pair, or unpaired every game), so that the LLR
// moved; once a verdict is reached nothing more is counted.
func (t *Tally) Add(unit, halves int) (counted bool) {
	if t.Verdict != Running {
		return false
	}
	if t.Paired {
		t.pending[unit] = append(t.pending[unit], halves)
		if len(t.pending[unit]) < 2 {
			return false
		}
		hs := t.pending[unit]
		delete(t.pending, unit)
		t.Penta[hs[0]+hs[1]]++
		t.Pairs++
		for _, h := range hs {
			addGame(&t.WDL, h)
		}
		t.Games += 2
		t.LLR = t.SPRT.LLRPenta(t.Penta)
		t.Estimate = stats.EstimatePenta(t.Penta, t.WDL)
	} else {
		addGame(&t.WDL, halves)
		t.Games++
		t.LLR = t.SPRT.LLRTri(t.WDL)
		t.Estimate = stats.EstimateTri(t.WDL)
	}
	switch t.SPRT.Verdict(t.LLR) {
	case 1:
		t.Verdict = H1
	case -1:
		t.Verdict = H0
	}
	return true
}

func seatOf(seats []int, bot int) int {
	for s, b := range seats {
		if b == bot {
			return s
		}
	}
	return -1
}

func addGame(r *stats.WDL, halves int) {
	switch halves {
	case 2:
		r.W++
	case 1:
		r.D++
	default:
		r.L++
	}
}
