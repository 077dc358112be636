// Package sprt runs a sequential probability ratio test between two bots: a
// base (the bot as it is) and a test (the bot with a change), playing until
// the log-likelihood ratio of "the change is worth at least Elo1" against
// "the change is worth at most Elo0" crosses a bound, or a game cap is hit.
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
	"path/filepath"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/referee"
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
	// Filler.Name plus 1, 2... ("filler1", "filler2" when Name is "").
	Test, Base, Filler match.Bot
	Limits             clock.Limits
	Policy             referee.Policy // "" is referee.Forfeit
	MaxStrikes         int
	SPRT               stats.SPRT
	// MaxGames caps the games played (0: no cap). Paired, it is rounded
	// down to whole pairs.
	MaxGames    int
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
	// OutDir receives results.jsonl, replays/ and logs/; "" keeps nothing.
	OutDir    string
	MatchID   string // sent to bots (default: match.NewMatchID("sprt-GAME"))
	MaxLine   int
	StderrCap int64
	Version   string        // arena version, written into replays
	ByeGrace  time.Duration // how long bots may take to exit after bye (default 1s)
}

// Verdict is how a run ended.
type Verdict string

// Verdicts.
const (
	H1           Verdict = "H1"           // accepted H1: the test is at least Elo1 better
	H0           Verdict = "H0"           // accepted H0: the test is at most Elo0 better
	Inconclusive Verdict = "inconclusive" // MaxGames played, no bound crossed
	Aborted      Verdict = "aborted"      // an arena error or an interrupt
	Running      Verdict = ""             // in a Status while the run goes on
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
	// Played is every game that finished, counted or not; Abandoned the
	// games cut short when the run stopped.
	Played, Abandoned int
	Seed              uint64
}

// GameLine is one line of results.jsonl: the game record plus what the
// SPRT made of it.
type GameLine struct {
	match.GameRecord
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
	if c.Paired && c.MaxGames == 1 {
		return fmt.Errorf("max games 1: a pair is 2 games")
	}
	seen := map[string]string{}
	for _, b := range c.bots() {
		if len(b.Argv) == 0 {
			return fmt.Errorf("bot %q has no command", b.Name)
		}
		if err := match.CheckName(b.Name); err != nil {
			return err
		}
		if _, dup := seen[b.Name]; dup {
			return fmt.Errorf("bot name %q is used twice", b.Name)
		}
		seen[b.Name] = b.Name
	}
	return nil
}

func (c *Config) seats() int {
	if c.Seats == 0 && c.Game != nil {
		return max(2, c.Game.Info().MinSeats)
	}
	return c.Seats
}

// bots lists the pool's bots: test, base, filler1...
func (c *Config) bots() []match.Bot {
	out := []match.Bot{c.Test, c.Base}
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

type job struct {
	index int // game number in the schedule
	unit  int // pair (paired) or game (unpaired)
	table match.Table
}

type done struct {
	job
	rec match.GameRecord
	err error
}

// Run plays until a bound is crossed, MaxGames are played, ctx is done or
// the arena fails. It calls progress (if not nil) after every counted
// pair (game, unpaired), from Run's goroutine. The Result is never nil;
// its Verdict is Aborted when the error is not nil.
func Run(ctx context.Context, cfg Config, progress func(Status)) (*Result, error) {
	start := time.Now()
	res := &Result{Seed: cfg.Seed, Verdict: Aborted}
	res.Paired = cfg.Paired
	if err := cfg.Check(); err != nil {
		return res, err
	}
	res.Lower, res.Upper = cfg.SPRT.Bounds()
	seats := cfg.seats()
	if cfg.Policy == "" {
		cfg.Policy = referee.Forfeit
	}
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	if cfg.ByeGrace <= 0 {
		cfg.ByeGrace = time.Second
	}
	if cfg.MatchID == "" {
		// Unique, not just per second: game ids (and so replay and log
		// file names) of two runs started together must not collide.
		cfg.MatchID = match.NewMatchID("sprt-" + cfg.Game.Info().Name)
	}
	maxJobs := cfg.MaxGames
	if cfg.Paired {
		maxJobs -= maxJobs % 2
	}
	bots := cfg.bots()
	var results *ledger.Writer
	if cfg.OutDir != "" {
		lock, err := match.PrepareOut(cfg.OutDir, nil) // held until every bot is gone (deferred before the pool's KillAll)
		if err != nil {
			return res, err
		}
		defer lock.Unlock()
		w, err := ledger.Open(filepath.Join(cfg.OutDir, ledger.FileName))
		if err != nil {
			return res, err
		}
		defer w.Close()
		results = w
	}
	secret, err := match.DealSecret(cfg.Secret, cfg.OutDir) // stored before the first game
	if err != nil {
		return res, err
	}
	pool := match.NewPool(bots, cfg.MaxLine, cfg.StderrCap)
	pool.KeepIdle = 2 // a pair's two games share a deal: one process for each
	defer pool.KillAll()
	env := &match.Env{Game: cfg.Game, Options: cfg.Options, Match: cfg.MatchID, Limits: cfg.Limits, Policy: cfg.Policy,
		MaxStrikes: cfg.MaxStrikes, OutDir: cfg.OutDir, Version: cfg.Version, Bots: bots, Pool: pool}

	// gctx ends when the run stops early (a verdict, an error, an
	// interrupt): running games are abandoned and their bots killed.
	gctx, stopGames := context.WithCancel(ctx)
	defer stopGames()
	stopWatch := context.AfterFunc(gctx, pool.KillAll)
	defer stopWatch()

	newJob := func(j int) job {
		var unit, half int
		var seed uint64
		var id string
		if cfg.Paired {
			unit, half = j/2, j%2
			seed = secret.Seed(cfg.Seed, "sprt", uint64(unit))
			id = fmt.Sprintf("%s-p%05d%c", cfg.MatchID, unit, 'a'+half)
		} else {
			unit, half = j, j%2
			seed = secret.Seed(cfg.Seed, "sprt-game", uint64(j))
			id = fmt.Sprintf("%s-g%05d", cfg.MatchID, j)
		}
		return job{index: j, unit: unit, table: match.Table{Index: j, GameID: id, Round: unit, Seed: seed, Seats: Layout(seats, j/2, half)}}
	}

	out := make(chan done)
	pending := map[int][]int{} // pair -> halves of its finished games
	launched, inFlight := 0, 0
	stopping := false
	var runErr error
	verdict := Running
	stop := func() {
		if !stopping {
			stopping = true
			stopGames()
		}
	}
	for {
		for !stopping && ctx.Err() == nil && inFlight < cfg.Concurrency && (maxJobs == 0 || launched < maxJobs) {
			jb := newJob(launched)
			launched++
			inFlight++
			go func() {
				if gctx.Err() != nil {
					out <- done{job: jb, err: gctx.Err()}
					return
				}
				rec, err := env.Play(gctx, jb.table)
				if gctx.Err() != nil && err == nil {
					err = gctx.Err()
				}
				out <- done{job: jb, rec: rec, err: err}
			}()
		}
		if inFlight == 0 {
			break
		}
		d := <-out
		inFlight--
		if d.err != nil {
			switch {
			case stopping || ctx.Err() != nil:
				res.Abandoned++
			default:
				runErr = fmt.Errorf("game %s: %w", d.table.GameID, d.err)
			}
			stop()
			continue
		}
		// A finished game is recorded even when the run is stopping; it
		// counts only if the run is not.
		res.Played++
		testSeat, baseSeat := seatOf(d.table.Seats, testBot), seatOf(d.table.Seats, baseBot)
		halves := TestHalves(d.rec.Ranks, testSeat, baseSeat)
		if results != nil {
			line := GameLine{GameRecord: d.rec, TestScore: float64(halves) / 2}
			if cfg.Paired {
				p := d.unit
				line.Pair = &p
			}
			if err := results.Append(line); err != nil && !stopping {
				runErr = err
				stop()
				continue
			}
		}
		if stopping {
			continue
		}
		if cfg.Paired {
			pending[d.unit] = append(pending[d.unit], halves)
			if len(pending[d.unit]) < 2 {
				continue
			}
			hs := pending[d.unit]
			delete(pending, d.unit)
			res.Penta[hs[0]+hs[1]]++
			res.Pairs++
			for _, h := range hs {
				addGame(&res.WDL, h)
			}
			res.Games += 2
			res.LLR = cfg.SPRT.LLRPenta(res.Penta)
			res.Estimate = stats.EstimatePenta(res.Penta)
		} else {
			addGame(&res.WDL, halves)
			res.Games++
			res.LLR = cfg.SPRT.LLRTri(res.WDL)
			res.Estimate = stats.EstimateTri(res.WDL)
		}
		res.Elapsed = time.Since(start)
		res.InFlight = inFlight
		switch cfg.SPRT.Verdict(res.LLR) {
		case 1:
			verdict = H1
		case -1:
			verdict = H0
		}
		if progress != nil {
			progress(res.Status)
		}
		if verdict != Running {
			stop()
		}
	}
	res.Elapsed = time.Since(start)
	res.InFlight = 0
	switch {
	case verdict != Running:
		res.Verdict = verdict
	case runErr != nil:
		return res, runErr
	case ctx.Err() != nil:
		return res, fmt.Errorf("sprt interrupted after %d games (%d counted): %w", res.Played, res.Games, ctx.Err())
	default:
		res.Verdict = Inconclusive
	}
	if !stopping {
		pool.Shutdown(cfg.ByeGrace)
	}
	return res, nil
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
