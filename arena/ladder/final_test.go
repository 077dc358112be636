package ladder_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/stoprule"
	"github.com/arena-dev/arena/protocol"
)

// An in-memory bot of a known strength for finals: it answers every
// turn with a line that is no action, and forfeits every game at its
// first turn (the ladder's failure policy is forfeit). Registered before
// any test runs: Policies is read as bots are parsed.
func init() {
	membot.Policies["nonsense"] = func(*protocol.Turn, *rand.Rand) []byte { return []byte("nonsense") }
}

// initFinal makes a 2-seat uno ladder of a mem:random bot and n bots
// that forfeit every game (mem:nonsense): random is clearly first.
func initFinal(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name: cup\ngame: uno\nseats: 2\nseed: 7\nconcurrency: 2\nclock:\n  move: 2s\nbots:\n  - name: best\n    command: mem:random\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: weak%d\n    command: mem:nonsense\n", i)
	}
	return initFile(t, b.String())
}

// TestFinal: a final of a bot clearly above the others stops by itself,
// decided, with the best on top and its last table complete; resumed, it
// plays nothing more. With a budget too small to decide it, it stops
// when the budget is spent, undecided.
func TestFinal(t *testing.T) {
	rule := stoprule.Rule{K: 1, Confidence: 0.95}
	t.Run("decided", func(t *testing.T) {
		dir := initFinal(t, 2)
		var checks int
		res, err := ladder.Run(context.Background(), dir, ladder.RunOptions{Until: rule, MaxGames: 1000,
			OnGame: func(p ladder.Progress) {
				if p.Verdict.K > 0 {
					checks++
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Ending != ladder.Decided || !res.Verdict.Decided || res.Verdict.Order[0] != ladder.VersionName("best", 1) {
			t.Fatalf("ending %v, verdict %v; want decided with best first", res.Ending, res.Verdict)
		}
		recs := checkLedger(t, dir, res)
		if checks == 0 || len(recs) >= 1000 {
			t.Errorf("%d games, %d verdicts seen: want a verdict before the budget", len(recs), checks)
		}
		t.Logf("decided after %d games: %v", len(recs), res.Verdict)
		again, err := ladder.Run(context.Background(), dir, ladder.RunOptions{Until: rule})
		if err != nil || again.Ending != ladder.Decided || again.Played != 0 || again.Resumed != len(recs) {
			t.Errorf("resumed: %v, ending %v, played %d, resumed %d; want decided at once, none played, %d resumed",
				err, again.Ending, again.Played, again.Resumed, len(recs))
		}
	})
	t.Run("budget", func(t *testing.T) {
		dir := initFinal(t, 2)
		res, err := ladder.Run(context.Background(), dir, ladder.RunOptions{Until: rule, MaxGames: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Ending != ladder.BudgetSpent || res.Verdict.Decided || res.Verdict.K != 1 {
			t.Fatalf("ending %v, verdict %+v; want the budget spent, undecided", res.Ending, res.Verdict)
		}
		// Games that finish after the stop are recorded, not counted.
		if recs := checkLedger(t, dir, res); len(recs) < 2 {
			t.Errorf("%d games recorded, want the 2 counted at least", len(recs))
		}
	})
	t.Run("no intake", func(t *testing.T) {
		dir := initFinal(t, 1)
		intake := func(context.Context, *ladder.Ladder, func(ladder.Event)) error { return nil }
		if _, err := ladder.Run(context.Background(), dir, ladder.RunOptions{Until: rule, Intake: intake}); !errors.Is(err, ladder.ErrFinalIntake) {
			t.Errorf("a final with an intake: %v, want ErrFinalIntake", err)
		}
		if _, err := ladder.Run(context.Background(), dir, ladder.RunOptions{MaxGames: -1}); err == nil {
			t.Error("a negative budget was taken")
		}
	})
}
