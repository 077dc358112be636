package run

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/schedule"
)

// listed is a Source's Next over games named by id: "r:ID" is a game
// already recorded, "wait" says schedule.Wait once; then schedule.Done.
func listed(ids ...string) func() (Table, schedule.Status) {
	return func() (Table, schedule.Status) {
		if len(ids) == 0 {
			return Table{}, schedule.Done
		}
		id := ids[0]
		ids = ids[1:]
		if id == "wait" {
			return Table{}, schedule.Wait
		}
		if rec, ok := strings.CutPrefix(id, "r:"); ok {
			return Table{GameID: rec, Recorded: &ledger.Record{GameID: rec}}, schedule.Ready
		}
		return Table{GameID: id}, schedule.Ready
	}
}

// TestWindow: the claim window starts the first game whose processes are
// waiting, a game passed over size times next without asking, and a
// game already recorded at once; it hands out every game once, and says
// why it has none.
func TestWindow(t *testing.T) {
	for _, tc := range []struct {
		name    string
		size    int
		games   []string
		waiting string // the games whose processes are waiting
		// want is what each pick gives until the Source is done: a game's
		// id, "recorded ID", or "none STATUS" (the window is empty).
		want string
		// asked is the times claim was asked about each game, where it
		// matters: at every pick, about each game up to the one taken.
		asked map[string]int
	}{
		{name: "empty", size: 3, want: "none done"},
		{name: "nothing waiting: the Source's order", size: 3, games: []string{"a", "b", "c", "d"},
			want: "a b c d none done", asked: map[string]int{"a": 1, "b": 2, "c": 3, "d": 3}},
		{name: "the first whose processes wait", size: 3, games: []string{"a", "b", "c", "d", "e"}, waiting: "c d e",
			want: "c d e a b none done", asked: map[string]int{"a": 3, "b": 3, "c": 1, "d": 1, "e": 1}},
		{name: "passed over size times: next, unasked", size: 2, games: []string{"a", "b", "c", "d"}, waiting: "b c d",
			want: "b c a d none done", asked: map[string]int{"a": 2, "b": 1, "c": 1, "d": 1}},
		{name: "a recorded game at once, the window kept", size: 2, games: []string{"a", "r:b", "c"},
			want: "recorded b a c none done", asked: map[string]int{"a": 1, "c": 2}},
		{name: "the Source waits", size: 3, games: []string{"wait", "a"}, want: "none wait a none done"},
		{name: "the Source waits with games in the window", size: 3, games: []string{"a", "b", "wait", "c"}, waiting: "b",
			want: "b a c none done"},
		{name: "a window of one: the Source's order", size: 1, games: []string{"a", "b"}, waiting: "b",
			want: "a b none done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &window{size: tc.size}
			next := listed(tc.games...)
			waiting := map[string]bool{}
			for _, id := range strings.Fields(tc.waiting) {
				waiting[id] = true
			}
			asked := map[string]int{}
			claim := func(t Table) bool {
				asked[t.GameID]++
				return waiting[t.GameID]
			}
			var got []string
			for range 2 * (len(tc.games) + 2) {
				if rec, st := w.fill(next); rec != nil {
					got = append(got, "recorded "+rec.GameID)
				} else if t, ok := w.take(nil, claim); ok {
					got = append(got, t.GameID)
				} else {
					got = append(got, "none "+statusName[st])
					if st == schedule.Done {
						break
					}
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("picked %q, want %q", g, tc.want)
			}
			if tc.asked != nil && fmt.Sprint(asked) != fmt.Sprint(tc.asked) {
				t.Errorf("asked %v, want %v", asked, tc.asked)
			}
		})
	}
}

// TestWindowMarksBeforeClaiming: every game of the window is marked
// before claim is asked about any, so the processes claimed are those of
// the bots marked as taking part now, and the game taken comes marked.
func TestWindowMarksBeforeClaiming(t *testing.T) {
	w := &window{size: 3}
	w.fill(listed("a", "b", "c"))
	marks := 0
	mark := func(t *Table) {
		marks++
		t.Absent = []string{fmt.Sprint("mark ", marks)}
	}
	var claimedAt []int // marks made when claim was asked
	claim := func(t Table) bool {
		claimedAt = append(claimedAt, marks)
		return t.GameID == "b"
	}
	got, ok := w.take(mark, claim)
	if !ok || got.GameID != "b" || fmt.Sprint(got.Absent) != "[mark 2]" {
		t.Fatalf("took %q marked %v (%v), want b marked [mark 2]", got.GameID, got.Absent, ok)
	}
	if fmt.Sprint(claimedAt) != "[3 3]" {
		t.Errorf("claim asked after %v marks, want [3 3]: every game marked first", claimedAt)
	}
}

// statusName is how the want strings of TestWindow say a status.
var statusName = map[schedule.Status]string{schedule.Ready: "ready", schedule.Wait: "wait", schedule.Done: "done"}
