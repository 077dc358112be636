package ladder

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/stoprule"
)

// A final is a run given RunOptions.Until or MaxGames: the organiser
// has closed submissions and plays until the top K are decided
// (arena/stoprule) or the budget is spent. It is a run.StopRule over
// the live ratings: after each counted game it counts the budget, and
// after each game that completes its table (a unit of one deal, seats
// rotated) it decides the rule on the Weng-Lin skills (mu, sigma) of the
// versions in play, so that no decision rests on half a duplicate deal.
// Once it stops, no table starts, and the games running are abandoned as
// on any stop: a table cut short is completed by the next run, as after
// an interrupt.

// Ending says why a ladder's run ended.
type Ending int

const (
	// Interrupted: its context ended, how a ladder that is not a final
	// stops (and a final stopped early).
	Interrupted Ending = iota
	// Decided: the final's rule (RunOptions.Until) is met.
	Decided
	// BudgetSpent: the final counted RunOptions.MaxGames games first.
	BudgetSpent
)

func (e Ending) String() string {
	switch e {
	case Decided:
		return "decided"
	case BudgetSpent:
		return "budget spent"
	}
	return "interrupted"
}

// ErrFinalIntake: a final (RunOptions.Until or MaxGames) takes no
// submissions: its field is closed, or a version joining would restart
// the race it decides.
var ErrFinalIntake = errors.New("a final takes no submissions: run it without an intake")

// final is a final's run.StopRule.
type final struct {
	rule    stoprule.Rule
	budget  int // 0: none
	src     *tables
	counted int
	verdict stoprule.Verdict
	ending  Ending
}

// checkFinal checks a final's options: no intake, a budget of games
// or none.
func (opt RunOptions) checkFinal() error {
	if (!opt.Until.IsZero() || opt.MaxGames > 0) && opt.Intake != nil {
		return ErrFinalIntake
	}
	if opt.MaxGames < 0 {
		return fmt.Errorf("ladder: a final's game budget is %d games: want a positive number, or 0 for none", opt.MaxGames)
	}
	return nil
}

// newFinal is the final opt asks for over src, or nil: a run that is
// not a final. The methods below take a nil final as no final.
func newFinal(opt RunOptions, src *tables) *final {
	if opt.Until.IsZero() && opt.MaxGames == 0 {
		return nil
	}
	return &final{rule: opt.Until, budget: opt.MaxGames, src: src}
}

// decided decides the rule on the ratings of the versions in play now
// (false without a rule).
func (f *final) decided() bool {
	if f == nil || f.rule.IsZero() {
		return false
	}
	f.verdict = f.rule.DecideRanked(f.src.estimates())
	if f.verdict.Decided {
		f.ending = Decided
	}
	return f.verdict.Decided
}

// stopRule is f as the runner's StopRule (nil: none).
func (f *final) stopRule() run.StopRule {
	if f == nil {
		return nil
	}
	return f
}

// last is the final's last verdict.
func (f *final) last() stoprule.Verdict {
	if f == nil {
		return stoprule.Verdict{}
	}
	return f.verdict
}

// report adds how the final ended to out.
func (f *final) report(out *Result) *Result {
	if f != nil {
		out.Ending, out.Verdict = f.ending, f.verdict
	}
	return out
}

// Stop is the run's StopRule: after t, counted, whether the final is
// over.
func (f *final) Stop(t run.Table, _ ledger.Record) bool {
	f.counted++
	if f.src.tableDone(t) && f.decided() {
		return true
	}
	if f.budget > 0 && f.counted >= f.budget {
		f.ending = BudgetSpent
		if !f.rule.IsZero() {
			f.verdict = f.rule.DecideRanked(f.src.estimates())
		}
		return true
	}
	return false
}

// estimates are the skills of the versions in play (the matchmaker may
// seat them: not retired, not suspended), ranked as the standings rank
// them.
func (s *tables) estimates() []stoprule.Estimate {
	var in []int // roster indices
	for i, b := range s.bots {
		if b.Available {
			in = append(in, i)
		}
	}
	// Ranked as the standings rank them (Rating.Display), so that the
	// final's order is theirs.
	slices.SortStableFunc(in, func(a, b int) int { return cmp.Compare(s.bots[b].Skill.Ordinal(), s.bots[a].Skill.Ordinal()) })
	est := make([]stoprule.Estimate, len(in))
	for k, i := range in {
		est[k] = stoprule.Estimate{Name: s.names[i], Mean: s.bots[i].Skill.Mu, SD: s.bots[i].Skill.Sigma}
	}
	return est
}

// tableDone says whether t was the last game of its table to count
// (Result closed it).
func (s *tables) tableDone(t run.Table) bool {
	_, open := s.open[int64(t.Round)]
	return !open
}
