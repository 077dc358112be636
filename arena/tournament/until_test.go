package tournament

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/stoprule"
	_ "github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/protocol"
)

// An in-memory bot that forfeits every game at its first turn (no
// action is "nonsense"): mem:random is clearly above it. Registered
// before any test runs.
func init() {
	membot.Policies["nonsense"] = func(*protocol.Turn, *rand.Rand) []byte { return []byte("nonsense") }
}

// untilConfig is a round-robin of mem:random and weak bots that forfeit
// every game, played until until, rounds cycles at most.
func untilConfig(t *testing.T, game string, seats, weak, rounds int, until string) *Config {
	t.Helper()
	seed := uint64(7)
	f := File{Name: "cup", Game: game, Seats: seats, Rounds: rounds, Until: until, Settings: options.Settings{Seed: &seed, Concurrency: 3}}
	f.Bots = append(f.Bots, BotFile{Name: "best", Command: "mem:random"})
	for i := range weak {
		f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("weak%d", i), Command: "mem:nonsense"})
	}
	c := resolve(t, f)
	c.Secret = testSecret
	return c
}

// TestUntil: a round-robin with a stop rule stops where a cycle ends
// once its standings decide the rule, before its budget; its ledger
// holds whole cycles; resumed, it plays nothing more. A rule its games
// cannot decide (two bots that draw every pair) plays the whole budget.
func TestUntil(t *testing.T) {
	for _, tc := range []struct {
		name        string
		game        string
		seats, weak int
		rounds      int
		until       string
		perCycle    int
		decided     bool
	}{
		// 3 pairs of 2 games a cycle.
		{"decided, 2 seats", "banqi", 2, 2, 20, "separated:1", 6, true},
		// weak0 and weak1 draw every pair (the one to move first
		// forfeits, seats swapped): their order is never decided.
		{"budget, 2 seats", "banqi", 2, 2, 3, "separated:2@0.9", 6, false},
		// 4 bots at tables of 3 (one sits out), 3 games a table: a
		// cycle is ceil(3/2) = 2 table rounds.
		{"decided, 3 seats", "uno", 3, 3, 20, "separated:1", 6, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := untilConfig(t, tc.game, tc.seats, tc.weak, tc.rounds, tc.until)
			out := t.TempDir()
			if _, err := Run(context.Background(), c, out, Options{}); err != nil {
				t.Fatal(err)
			}
			recs := ledgerOf(t, out)
			sched, _ := c.NewScheduler()
			total := sched.Total()
			if len(recs)%tc.perCycle != 0 && len(recs) != total {
				t.Errorf("%d games: not whole cycles of %d", len(recs), tc.perCycle)
			}
			st, err := ReadStandings(out)
			if err != nil {
				t.Fatal(err)
			}
			v := st.Separated(c.Until)
			if v.Decided != tc.decided || (len(recs) < total) != tc.decided {
				t.Fatalf("%d of %d games, %v; want decided %v, and the budget played iff not", len(recs), total, v, tc.decided)
			}
			if tc.decided && v.Order[0] != "best" {
				t.Errorf("order %v, want best first", v.Order)
			}
			t.Logf("%d of %d games: %v", len(recs), total, v)
			if _, err := Run(context.Background(), c, out, Options{}); err != nil {
				t.Fatal(err)
			}
			if again := ledgerOf(t, out); len(again) != len(recs) {
				t.Errorf("resumed: %d games, want the %d recorded and none more", len(again), len(recs))
			}
		})
	}
}

// TestUntilFile: until is checked as the file is resolved, named in the
// error with the value and what is wanted; it sets the default budget,
// saved; and a resume may change it (it is not sealed).
func TestUntilFile(t *testing.T) {
	seed := uint64(1)
	base := File{Name: "cup", Game: "banqi", Settings: options.Settings{Seed: &seed},
		Bots: []BotFile{{Name: "a", Command: "mem:random"}, {Name: "b", Command: "mem:random"}}}
	for _, tc := range []struct {
		format, until string
		want          error
	}{
		{"round-robin", "separated:two", stoprule.ErrSyntax},
		{"swiss", "separated:1", nil},
	} {
		f := base
		f.Format, f.Until = tc.format, tc.until
		_, err := f.Resolve("cup.yaml", ".")
		var fe *options.FieldError
		if !errors.As(err, &fe) || fe.Field != "until" || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s until %q: %v, want an error of the field until", tc.format, tc.until, err)
		}
	}
	f := base
	f.Until = "separated:1@0.99"
	c := resolve(t, f)
	if c.Schedule.Rounds != DefaultUntilRounds || c.File.Rounds != DefaultUntilRounds || c.Until != (stoprule.Rule{K: 1, Confidence: 0.99}) {
		t.Errorf("rounds %d (saved %d), rule %v; want the default budget %d, saved", c.Schedule.Rounds, c.File.Rounds, c.Until, DefaultUntilRounds)
	}
	other := c.File
	other.Until = "separated:1@0.9"
	if !sameTournament(c.File, other) || checksum(c.File) != checksum(other) {
		t.Error("a changed until makes another tournament: it must not be sealed")
	}
	without := c.File
	without.Until = ""
	if checksum(without) != checksum(c.File) {
		t.Error("until is in the checksum")
	}
}
