package ladder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	_ "github.com/arena-dev/arena/engine/uno"
)

// A ladder's standings are read from its files alone, while it runs or
// not: here a ladder of three bundled bots whose ledger holds five games
// (written by hand, as a run writes them).
func ExampleReadStandings() {
	tmp, _ := os.MkdirTemp("", "ladder")
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "ladder.yaml")
	os.WriteFile(file, []byte(`name: cup
game: uno
seats: 2
bots:
  - name: alice
    command: mem:random
  - name: bob
    command: mem:random
  - name: carol
    command: mem:random
`), 0o644)
	dir := filepath.Join(tmp, "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		fmt.Println(err)
		return
	}
	w, _ := ledger.Open(filepath.Join(dir, ledger.FileName))
	for i, g := range [][2]string{{"alice.v1", "bob.v1"}, {"alice.v1", "carol.v1"}, {"carol.v1", "bob.v1"}, {"carol.v1", "bob.v1"}, {"bob.v1", "alice.v1"}} {
		w.Append(ledger.Record{Index: i, GameID: fmt.Sprintf("cup-t%06d-g1", i+1), Bots: g[:], Ranks: []int{1, 2}, Scores: []float64{1, 0}})
	}
	w.Close()

	st, err := ladder.ReadStandings(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Name, st.Game, st.Games, "games; cross-check:", st.CrossCheck)
	for _, r := range st.Rows {
		lo, hi := r.Low, r.High
		fmt.Printf("%d %s %s %.1f [%.1f, %.1f] %d games, BT %+.0f\n", r.Rank, r.Version, r.Status, r.Rating, lo, hi, r.Games, *r.CrossCheck)
	}
	// Output:
	// cup uno 5 games; cross-check: bradley-terry
	// 1 carol.v1 active 4.3 [4.3, 49.8] 3 games, BT +53
	// 2 alice.v1 active 3.4 [3.4, 49.2] 3 games, BT +53
	// 3 bob.v1 active -0.9 [-0.9, 43.5] 4 games, BT -105
}

// TestStandingsStatuses: a replaced version is retired and unranked, a
// suspended bot's version says why, and the ranks go to active versions
// only, in rating order.
func TestStandingsStatuses(t *testing.T) {
	dir := initMem(t, "2", 3, 1)
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []ladder.Event{
		{Kind: ladder.Admitted, Bot: "b0", Version: 2, Command: "mem:random"},
		{Kind: ladder.Suspended, Bot: "b2", Reason: "crashed 3 times"},
	} {
		if err := l.Roster.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	w, err := ledger.Open(filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range [][2]string{{"b0.v1", "b1.v1"}, {"b0.v2", "b1.v1"}, {"b2.v1", "b0.v2"}} {
		w.Append(ledger.Record{Index: i, GameID: fmt.Sprint("g", i), Bots: g[:], Ranks: []int{1, 2}, Scores: []float64{1, 0}})
	}
	w.Close()

	st, err := ladder.ReadStandings(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		rank            int
		version, status string
	}{{1, "b0.v2", "active"}, {2, "b1.v1", "active"}, {0, "b2.v1", "suspended"}, {0, "b0.v1", "retired"}}
	if len(st.Rows) != len(want) {
		t.Fatalf("rows %+v, want %d", st.Rows, len(want))
	}
	for i, w := range want {
		r := st.Rows[i]
		if r.Rank != w.rank || r.Version != w.version || r.Status != w.status {
			t.Errorf("row %d: %d %s %s, want %d %s %s", i, r.Rank, r.Version, r.Status, w.rank, w.version, w.status)
		}
	}
	if r := st.Rows[2]; r.Reason != "crashed 3 times" {
		t.Errorf("suspended row's reason %q", r.Reason)
	}
	c, err := ladder.ReadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, _ := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if !st.Ratings.Equal(ladder.Fold(c.Rating, c.Initial, recs)) || st.Games != 3 {
		t.Errorf("standings of %d games: ratings differ from a fold of the ledger", st.Games)
	}
}

// TestReadRatings: without the cross-check, the same games, rows and
// ratings (bit for bit) as ReadStandings.
func TestReadRatings(t *testing.T) {
	dir := initMem(t, "2", 3, 1)
	runFor(t, dir, 10)
	full, err := ladder.ReadStandings(dir)
	if err != nil {
		t.Fatal(err)
	}
	lite, err := ladder.ReadRatings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if lite.Games != full.Games || !lite.Ratings.Equal(full.Ratings) || len(lite.Rows) != len(full.Rows) || lite.Active() != full.Active() {
		t.Errorf("ReadRatings: %d games, %d rows, %d active; ReadStandings: %d, %d, %d (or the ratings differ)",
			lite.Games, len(lite.Rows), lite.Active(), full.Games, len(full.Rows), full.Active())
	}
	for _, r := range lite.Rows {
		if r.CrossCheck != nil {
			t.Errorf("%s: a cross-check without one asked for", r.Version)
		}
	}
}
