package tournament

import (
	"cmp"
	"math"
	"slices"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/arena/stoprule"
)

// DefaultUntilRounds is the budget of a round-robin played until its
// standings are decided (until) when no rounds are given: the most
// cycles it plays.
const DefaultUntilRounds = 10

// resolveUntil reads a file's until (src names the file in errors): a
// stop rule of a round-robin's only, whose cycles repeat the same games.
func resolveUntil(src, format, until string) (stoprule.Rule, error) {
	rule, err := stoprule.Parse(until)
	if err != nil {
		return rule, fieldErr(src, "until", "%w", err)
	}
	if !rule.IsZero() && format != DefaultFormat { // the round-robin
		return rule, fieldErr(src, "until", "%s is for a round-robin, whose cycles it repeats until the standings are decided; this tournament is a %s", until, format)
	}
	return rule, nil
}

// Separated decides rule on the standings' ratings: with 2 seats the
// Bradley-Terry ratings, each difference's sd from the fit's covariance
// (stats.BTFit.DiffSD); with k seats the Plackett-Luce skills (mu and
// sigma, independent). Without games, or ratings that cannot be
// computed, nothing is separated.
func (st *Standings) Separated(rule stoprule.Rule) stoprule.Verdict {
	est := make([]stoprule.Estimate, len(st.Bots))
	if st.Seats > 2 {
		for _, row := range st.Standings {
			est[slices.Index(st.Bots, row.Name)] = stoprule.Estimate{Name: row.Name, Mean: row.Mu, SD: row.Sigma}
		}
		return rule.Decide(est)
	}
	for i, name := range st.Bots {
		est[i] = stoprule.Estimate{Name: name, SD: math.Inf(1)}
	}
	unknown := func(a, b int) float64 { return math.Inf(1) }
	if len(st.pairs) == 0 {
		return rule.DecideWith(est, unknown)
	}
	fit, err := stats.BradleyTerryFit(len(st.Bots), st.pairs, stats.BTOptions{})
	if err != nil {
		return rule.DecideWith(est, unknown)
	}
	for i, r := range fit.Ratings {
		est[i].Mean, est[i].SD = r.Elo, r.SD()
	}
	return rule.DecideWith(est, fit.DiffSD)
}

// cycles is a round-robin Source's side of its stop rule (until): the
// rule is decided only where a cycle ends, on the games of the cycles
// played, so that every bot has played the same games (as far as the
// format allows). The first game of the next cycle is held until every
// game handed out is counted: at concurrency above 1 the last games of
// a cycle then run without the next ones beside them, so that a
// decided tournament stops with no game cut short and its ledger ends
// where the cycle does.
type cycles struct {
	c     *Config
	cycle int            // the cycle being handed out (from 0)
	out   int            // games handed out, not counted
	held  *schedule.Game // the next cycle's first game, waiting
	// line is each game's place in the ledger: those recorded before
	// the run by their lines (by game id), then this run's as they
	// count (the order their lines are written in).
	line    map[string]int
	lines   int
	counted []counted
	verdict stoprule.Verdict
}

// counted is a game counted, with its place in the ledger.
type counted struct {
	line int
	rec  ledger.Record
}

// newCycles is the stop rule's side of a run of c whose ledger holds
// recorded (in its order).
func newCycles(c *Config, recorded []ledger.Record) *cycles {
	u := &cycles{c: c, line: make(map[string]int, len(recorded)), lines: len(recorded)}
	for i, r := range recorded {
		u.line[r.GameID] = i
	}
	return u
}

// next is the Source's next game from sched: the held one, or the
// scheduler's; Wait while a cycle's games are out and the next cycle's
// first is held; Done where a cycle ends decided.
func (u *cycles) next(sched schedule.Scheduler) (schedule.Game, schedule.Status) {
	var g schedule.Game
	if u.held != nil {
		g, u.held = *u.held, nil
	} else {
		var st schedule.Status
		if g, st = sched.Next(); st != schedule.Ready {
			return g, st
		}
	}
	if c := schedule.RoundRobinCycle(u.c.Schedule, g); c > u.cycle {
		if u.out > 0 {
			u.held = &g
			return schedule.Game{}, schedule.Wait
		}
		if u.decided() {
			return schedule.Game{}, schedule.Done
		}
		u.cycle = c
	}
	u.out++
	return g, schedule.Ready
}

// result counts a game handed out (recorded: before the run).
func (u *cycles) result(rec ledger.Record, recorded bool) {
	u.out--
	line, ok := u.line[rec.GameID]
	if !recorded || !ok {
		line = u.lines
		u.lines++
	}
	u.counted = append(u.counted, counted{line, rec})
}

// decided decides the rule on the standings of the games counted, in
// the ledger's order (a resumed run counts the recorded games in the
// schedule's): the standings computed afterwards from the ledger are
// the same, and decide the same.
func (u *cycles) decided() bool {
	slices.SortFunc(u.counted, func(a, b counted) int { return cmp.Compare(a.line, b.line) })
	records := make([]ledger.Record, len(u.counted))
	for i, g := range u.counted {
		records[i] = g.rec
	}
	c := u.c
	names := make([]string, len(c.File.Bots))
	for i, b := range c.File.Bots {
		names[i] = b.Name
	}
	st, err := compute(standingsInput{name: c.Name, game: c.Game.Info().Name, format: c.Format, seats: c.Seats,
		bots: names, records: records}, stats.BradleyTerry)
	if err != nil {
		return false // a record of a bot not in the tournament: the ledger's reader refuses it first
	}
	u.verdict = st.Separated(c.Until)
	return u.verdict.Decided
}
