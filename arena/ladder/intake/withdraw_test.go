package intake_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
	"github.com/arena-dev/arena/arena/ledger"
)

// TestWithdraw: only a bot's owner, or the organiser, may withdraw it;
// the run is told of a withdrawal logged.
func TestWithdraw(t *testing.T) {
	t.Parallel()
	needRoot(t)
	dir := newLadder(t)
	submitAs(t, dir, uidAlice, "alice", map[string]string{"bot.py": goodBot(t)})
	process(t, dir)
	tests := []struct {
		uid           int // -1: the organiser
		name          string
		verdict, says string
	}{
		{uidMal, "alice", intake.VerdictRefused, "bot alice belongs to another user"},
		{uidAlice, "random", intake.VerdictRefused, "bot random belongs to another user"}, // bundled: the organiser's
		{uidAlice, "nobody", intake.VerdictRefused, "no bot nobody"},
		{uidAlice, "alice", intake.VerdictWithdrawn, "enough"},
		{uidAlice, "alice", intake.VerdictRefused, "withdrawn already"},
		{-1, "random", intake.VerdictWithdrawn, "enough"},
	}
	for _, tt := range tests {
		id, err := intake.Withdraw(dir, tt.name, "enough")
		if err != nil {
			t.Fatal(err)
		}
		if tt.uid >= 0 {
			as(t, dir, id, tt.uid)
		}
		l, err := ladder.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		var told []ladder.Event
		reps, err := intake.Process(context.Background(), l, intake.Options{Withdrawn: func(e ladder.Event) { told = append(told, e) }})
		l.Close()
		if err != nil || len(reps) != 1 || reps[0].Verdict != tt.verdict || !strings.Contains(reps[0].Text, tt.says) {
			t.Fatalf("uid %d withdraws %s: %+v, %v; want %s saying %q", tt.uid, tt.name, reps, err, tt.verdict, tt.says)
		}
		if rep, err := intake.Status(dir, id); err != nil || rep != reps[0] {
			t.Errorf("Status: %+v, %v; want %+v", rep, err, reps[0])
		}
		if withdrawn := tt.verdict == intake.VerdictWithdrawn; withdrawn != (len(told) == 1) {
			t.Errorf("uid %d withdraws %s: the run told %+v", tt.uid, tt.name, told)
		}
	}
	r := roster(t, dir)
	for _, name := range []string{"alice", "random"} {
		if b := r.Bot(name); b.Status != ladder.StatusWithdrawn || b.Reason != "enough" {
			t.Errorf("%s: %s (%s), want withdrawn (enough)", name, b.Status, b.Reason)
		}
	}
}

// TestRunWithdraw: a bot withdrawn while the ladder runs plays no
// further table: every game it plays is of a table chosen before the
// first of a bot submitted after the withdrawal, which then plays many.
func TestRunWithdraw(t *testing.T) {
	t.Parallel()
	dir := memLadder(t)
	r := startRun(t, dir)
	submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
	r.await(t, "alice.v1")
	id, err := intake.Withdraw(dir, "alice", "a bug")
	if err != nil {
		t.Fatal(err)
	}
	submit(t, dir, "carol", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
	r.awaitGames(t, "carol.v1", 40) // alice, still in, would have played her by then
	r.stop(t)

	if rep, err := intake.Status(dir, id); err != nil || rep.Verdict != intake.VerdictWithdrawn {
		t.Errorf("the withdrawal: %+v, %v", rep, err)
	}
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	lastAlice, firstCarol := -1, -1
	for _, rec := range recs {
		if slices.Contains(rec.Bots, "alice.v1") {
			lastAlice = max(lastAlice, rec.Round)
		}
		if slices.Contains(rec.Bots, "carol.v1") && firstCarol < 0 {
			firstCarol = rec.Round
		}
	}
	if lastAlice < 0 || lastAlice >= firstCarol {
		t.Errorf("alice.v1 played table %d, carol.v1 (submitted after alice's withdrawal) first played table %d", lastAlice, firstCarol)
	}
	if b := roster(t, dir).Bot("alice"); b.Status != ladder.StatusWithdrawn || b.Reason != "a bug" {
		t.Errorf("alice: %+v", b)
	}

	// The next run starts without her.
	r = startRun(t, dir)
	r.await(t, "carol.v1")
	r.stop(t)
	after, _, _ := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	for _, rec := range after[len(recs):] {
		if slices.Contains(rec.Bots, "alice.v1") {
			t.Errorf("game %s of the next run seats the withdrawn alice.v1", rec.GameID)
		}
	}
}

// TestWithdrawWhileStopped: a bot withdrawn while the ladder is down
// plays no table of the next run, not even the first: the run takes in
// what waited before it chooses a table.
func TestWithdrawWhileStopped(t *testing.T) {
	t.Parallel()
	dir := memLadder(t)
	r := startRun(t, dir)
	submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
	submit(t, dir, "carol", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
	r.await(t, "alice.v1")
	r.await(t, "carol.v1")
	r.stop(t)
	before, _, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := intake.Withdraw(dir, "alice", "down"); err != nil {
		t.Fatal(err)
	}
	r = startRunEvery(t, dir, time.Hour) // its first pass only
	r.awaitGames(t, "carol.v1", 10)
	r.stop(t)
	after, _, _ := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	cut := map[int]bool{} // tables the stop cut short, which the next run completes
	for _, rec := range before {
		cut[rec.Round] = true
	}
	for _, rec := range after[len(before):] {
		if slices.Contains(rec.Bots, "alice.v1") && !cut[rec.Round] {
			t.Errorf("game %s of the run after her withdrawal seats alice.v1 at a new table", rec.GameID)
		}
	}
}
