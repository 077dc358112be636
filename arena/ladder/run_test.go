package ladder_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	_ "github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/protocol"
)

// initMem makes a ladder of n in-memory bots (random and first in
// turn) at seats, playing concurrency tables' games at once.
func initMem(t testing.TB, seats string, n, concurrency int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name: cup\ngame: uno\nseats: %s\nseed: 7\nconcurrency: %d\nclock:\n  move: 2s\nbots:\n", seats, concurrency)
	for i := range n {
		fmt.Fprintf(&b, "  - name: b%d\n    command: mem:%s\n", i, []string{"random", "first"}[i%2])
	}
	return initFile(t, b.String())
}

// initFile makes the ladder of the ladder file text.
func initFile(t testing.TB, text string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "ladder.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runFor runs the ladder in dir until it has counted games games, then
// ends its context, as SIGINT does.
func runFor(t testing.TB, dir string, games int) *ladder.Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var warn bytes.Buffer
	res, err := ladder.Run(ctx, dir, ladder.RunOptions{Warn: &warn, OnGame: func(p ladder.Progress) {
		if p.Done >= games {
			cancel()
		}
	}})
	if err != nil {
		t.Fatalf("run: %v (warnings: %s)", err, warn.String())
	}
	return res
}

func readLedger(t testing.TB, dir string) []ledger.Record {
	t.Helper()
	recs, torn, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil || torn != nil {
		t.Fatalf("ledger: %v, torn %v", err, torn)
	}
	return recs
}

// checkLedger checks what every ladder ledger must hold: each game once,
// its index its place, the ratings the run ended with equal to a fold of
// it, bit for bit.
func checkLedger(t *testing.T, dir string, res *ladder.Result) []ledger.Record {
	t.Helper()
	recs := readLedger(t, dir)
	ids := map[string]bool{}
	for i, r := range recs {
		if ids[r.GameID] {
			t.Errorf("game %s recorded twice", r.GameID)
		}
		ids[r.GameID] = true
		if r.Index != i {
			t.Errorf("line %d: index %d", i+1, r.Index)
		}
	}
	checkFold(t, dir, recs, res)
	return recs
}

// checkFold: the ratings a run ended with equal a fold of recs, bit for
// bit.
func checkFold(t *testing.T, dir string, recs []ledger.Record, res *ladder.Result) {
	t.Helper()
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Config
	l.Close()
	if !ladder.Fold(c.Rating, c.Initial, recs).Equal(res.Ratings) {
		t.Errorf("live ratings differ from a recomputation from the %d games of the ledger", len(recs))
	}
}

// cutGame removes game id's line from dir's ledger, as if a stop had
// cut its table short, and returns the records before the cut and the
// one removed.
func cutGame(t *testing.T, dir, id string) ([]ledger.Record, ledger.Record) {
	t.Helper()
	path := filepath.Join(dir, ledger.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	recs := readLedger(t, dir)
	cut := slices.IndexFunc(recs, func(r ledger.Record) bool { return r.GameID == id })
	if cut < 0 {
		t.Fatalf("no game %s in %d games", id, len(recs))
	}
	if err := os.WriteFile(path, bytes.Join(append(slices.Clone(lines[:cut]), lines[cut+1:]...), nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return recs, recs[cut]
}

// seatSpread is, over the complete units of recs, the largest
// difference between two seats' game counts of one bot, per table size.
func seatSpread(recs []ledger.Record) int {
	units := map[int][]ledger.Record{}
	for _, r := range recs {
		units[r.Round] = append(units[r.Round], r)
	}
	counts := map[string][]int{} // bot and table size: games by seat
	for _, u := range units {
		k := len(u[0].Bots)
		if len(u) != k {
			continue
		}
		for _, r := range u {
			for seat, name := range r.Bots {
				key := fmt.Sprint(name, k)
				if counts[key] == nil {
					counts[key] = make([]int, k)
				}
				counts[key][seat]++
			}
		}
	}
	spread := 0
	for _, c := range counts {
		spread = max(spread, slices.Max(c)-slices.Min(c))
	}
	return spread
}

func TestRunResume(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		seats       string
		concurrency int
	}{
		{"2 seats", "2", 2},
		{"4 seats", "4", 3},
		{"2-4 seats", "2-4", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := initMem(t, tt.seats, 4, tt.concurrency)
			first := runFor(t, dir, 24)
			recs := checkLedger(t, dir, first)
			if first.Resumed != 0 || first.Played != len(recs) || len(recs) < 24 {
				t.Fatalf("first run: resumed %d, played %d, ledger %d games", first.Resumed, first.Played, len(recs))
			}
			second := runFor(t, dir, 24)
			if second.Resumed != len(recs) {
				t.Errorf("second run resumed %d games, the ledger held %d", second.Resumed, len(recs))
			}
			if second.Tables < first.Tables {
				t.Errorf("tables went back from %d to %d", first.Tables, second.Tables)
			}
			recs = checkLedger(t, dir, second)
			if len(recs) != first.Played+second.Played {
				t.Errorf("ledger: %d games, the runs played %d and %d", len(recs), first.Played, second.Played)
			}
			for i := range 4 {
				name := ladder.VersionName(fmt.Sprintf("b%d", i), 1)
				if g := second.Ratings.Get(name).Games; g == 0 {
					t.Errorf("%s played no game", name)
				}
			}
			if s := seatSpread(recs); s > 1 {
				t.Errorf("seat counts of a bot over complete units differ by %d", s)
			}
		})
	}
}

// TestRunCompletesUnit: a unit the ledger holds in part (a run stopped
// between its games) has its missing game played by the next run, with
// its id, deal and seats, and nothing else of it again.
func TestRunCompletesUnit(t *testing.T) {
	dir := initMem(t, "4", 4, 2)
	first := runFor(t, dir, 12)
	checkLedger(t, dir, first)
	// Drop the first game of table 1: as if it had been cut short. The
	// indexes after it shift: the test rewrites none, and checks only the
	// game ids and the deal of the game played again.
	recs, lost := cutGame(t, dir, "cup-t000001-g1")
	second := runFor(t, dir, 1)
	after := readLedger(t, dir)
	if second.Resumed != len(recs)-1 {
		t.Fatalf("resumed %d, want %d", second.Resumed, len(recs)-1)
	}
	again := after[len(recs)-1]
	if again.GameID != lost.GameID || again.Seed != lost.Seed || !slices.Equal(again.Bots, lost.Bots) {
		t.Errorf("first game of the resumed run: %s seed %d bots %v; want the lost %s seed %d bots %v",
			again.GameID, again.Seed, again.Bots, lost.GameID, lost.Seed, lost.Bots)
	}
	ids := map[string]bool{}
	for _, r := range after {
		if ids[r.GameID] {
			t.Errorf("game %s recorded twice", r.GameID)
		}
		ids[r.GameID] = true
	}
	checkFold(t, dir, after, second)
}

// TestRunFewBots: a ladder with fewer active bots than a table seats
// has nothing to play: it waits (for submissions) until its context
// ends, and stops as a ladder stops.
func TestRunFewBots(t *testing.T) {
	dir := initMem(t, "4", 3, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := ladder.Run(ctx, dir, ladder.RunOptions{})
	if err != nil || res.Played != 0 {
		t.Fatalf("got %v, played %d; want nil after waiting, no game", err, res.Played)
	}
	if ctx.Err() == nil {
		t.Error("Run returned before its context ended")
	}
}

// TestRunCompletesUnitWithoutRetiredVersion: a table cut short whose
// version was replaced while the ladder was down still ends whole: the
// resumed run plays its missing game with that version absent (a
// forfeit recorded without starting it), so the leaderboard, which
// shows a table only once all its games are in, is never held up.
func TestRunCompletesUnitWithoutRetiredVersion(t *testing.T) {
	t.Parallel()
	dir := initMem(t, "2", 3, 1)
	first := runFor(t, dir, 6)
	checkLedger(t, dir, first)
	// Drop the second game of table 1, then replace one of its bots.
	_, lost := cutGame(t, dir, "cup-t000001-g2")
	gone, _, _ := ladder.SplitVersion(lost.Bots[0])
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Roster.Append(ladder.Event{Kind: ladder.Admitted, Bot: gone, Version: 2, Command: "mem:random"}); err != nil {
		t.Fatal(err)
	}
	l.Close()

	second := runFor(t, dir, 1)
	after := readLedger(t, dir)
	i := slices.IndexFunc(after, func(r ledger.Record) bool { return r.GameID == lost.GameID })
	if i < 0 {
		t.Fatalf("the resumed run did not play %s, the game its table lacked", lost.GameID)
	}
	again := after[i]
	if !slices.Equal(again.Bots, lost.Bots) || again.Seed != lost.Seed {
		t.Errorf("%s played again with bots %v seed %d, want %v seed %d", lost.GameID, again.Bots, again.Seed, lost.Bots, lost.Seed)
	}
	seat := slices.Index(again.Bots, lost.Bots[0])
	if f := slices.IndexFunc(again.Forfeits, func(f ledger.SeatFailure) bool {
		return f.Seat == seat && f.Reason == protocol.ReasonStartup && f.Ply == 0
	}); f < 0 || len(again.Forfeits) != 1 {
		t.Errorf("%s: the replaced version %s should forfeit at the start, alone; forfeits %+v", lost.GameID, lost.Bots[0], again.Forfeits)
	}
	checkFold(t, dir, after, second)
}

// TestRunSuspendsForfeiter: a version that forfeits every game (here it
// answers nonsense) is suspended after submissions.suspend_after games
// in a row, with the reason logged in the roster, and is seated at no
// table after that beyond the one it was in.
func TestRunSuspendsForfeiter(t *testing.T) {
	t.Parallel()
	dir := initFile(t, "name: cup\ngame: uno\nseats: 2\nseed: 7\nconcurrency: 1\nclock:\n  move: 2s\nsubmissions:\n  suspend_after: 3\n"+
		"bots:\n  - name: a\n    command: mem:random\n  - name: b\n    command: mem:first\n  - name: broken\n    command: mem:nonsense\n")
	res := runFor(t, dir, 40)
	recs := checkLedger(t, dir, res)
	rr, _, err := ladder.ReadRoster(filepath.Join(dir, ladder.RosterName))
	if err != nil {
		t.Fatal(err)
	}
	b := rr.Bot("broken")
	if b.Status != ladder.StatusSuspended || !strings.Contains(b.Reason, "3 games in a row") {
		t.Fatalf("broken: status %q reason %q, want suspended after 3 forfeits", b.Status, b.Reason)
	}
	var played, lastTable, suspendedAt int
	for _, r := range recs {
		if slices.Contains(r.Bots, "broken.v1") {
			played++
			lastTable = r.Round
			if played == 3 {
				suspendedAt = r.Round
			}
		}
	}
	if lastTable != suspendedAt {
		t.Errorf("broken.v1 played table %d after being suspended at table %d (%d games in all)", lastTable, suspendedAt, played)
	}
	if len(recs) < 20 {
		t.Errorf("the ladder played %d games: the others should go on", len(recs))
	}
}
