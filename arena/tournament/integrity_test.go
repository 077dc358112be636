package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/stats"
	_ "github.com/arena-dev/arena/engine/boon"
)

// openStandings opens the tournament directory out and computes its
// standings, failing the test on any error.
func openStandings(t *testing.T, out string) (*Dir, *Standings) {
	t.Helper()
	d, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	st, err := d.Standings()
	if err != nil {
		t.Fatal(err)
	}
	return d, st
}

// played runs testConfig's tournament of n bots (n(n-1) games) into a
// new directory.
func played(t *testing.T, n int) (string, *Config) {
	t.Helper()
	c := testConfig(t, n, 1)
	out := t.TempDir()
	if _, err := Run(context.Background(), c, out, Options{}); err != nil {
		t.Fatal(err)
	}
	return out, c
}

// TestStandingsWithoutRatings: when the ratings cannot be computed (the
// rating function fails), the standings are there all the same, in every
// form, without ratings and with a warning that says why.
func TestStandingsWithoutRatings(t *testing.T) {
	t.Parallel()
	out, _ := played(t, 3)
	d, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	failing := func(int, []stats.PairResult) ([]stats.Rating, error) {
		return nil, errors.New("stats: BradleyTerry did not converge")
	}
	st, err := d.standings(failing)
	if err != nil {
		t.Fatalf("no standings when the ratings fail: %v", err)
	}
	if len(st.Standings) != 3 || st.Games != 6 || len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "did not converge") ||
		!strings.Contains(st.Warnings[0], "without ratings") {
		t.Fatalf("standings %+v, warnings %q", st.Standings, st.Warnings)
	}
	for pos, r := range st.Standings {
		if r.Rating != nil || r.RatingErr != nil || r.Rank < 1 || (pos > 0 && r.Rank < st.Standings[pos-1].Rank) {
			t.Errorf("row %d: %+v; want no rating and ranks by score", pos, r)
		}
	}
	render := []struct {
		name  string
		write func(*bytes.Buffer) error
		check func(t *testing.T, text string)
	}{
		{"table", func(b *bytes.Buffer) error { return st.Table(b) }, func(t *testing.T, text string) {
			if strings.Contains(text, "Elo") || strings.Contains(text, "95%") || strings.Count(text, " b") < 3 {
				t.Errorf("the table should list the bots without rating columns:\n%s", text)
			}
		}},
		{"json", func(b *bytes.Buffer) error { return json.NewEncoder(b).Encode(st) }, func(t *testing.T, text string) {
			var v struct {
				Standings []map[string]any `json:"standings"`
				Warnings  []string         `json:"warnings"`
			}
			if err := json.Unmarshal([]byte(text), &v); err != nil || len(v.Standings) != 3 || len(v.Warnings) != 1 {
				t.Fatalf("JSON %v: %s", err, text)
			}
			if _, ok := v.Standings[0]["rating"]; ok {
				t.Errorf("JSON has a rating it could not compute: %v", v.Standings[0])
			}
		}},
		{"csv", func(b *bytes.Buffer) error { return st.CSV(b) }, func(t *testing.T, text string) {
			lines := strings.Split(strings.TrimSpace(text), "\n")
			if len(lines) != 4 || !strings.Contains(lines[1], ",,,") {
				t.Errorf("CSV should have its 3 bots with empty rating cells:\n%s", text)
			}
		}},
	}
	for _, tc := range render {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			tc.check(t, b.String())
		})
	}
}

// TestCSVRoundsAsTheTableDoes: no float noise in the CSV.
func TestCSVRoundsAsTheTableDoes(t *testing.T) {
	t.Parallel()
	rating, err95 := -12.345678901234, 0.04999
	st := &Standings{Standings: []Row{{Rank: 1, Name: "a", Games: 9, Score: 5.999999999999999, ScorePct: 66.66666666666667,
		MeanRank: 1.3333333333333333, Rating: &rating, RatingErr: &err95}}}
	var b bytes.Buffer
	if err := st.CSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "1,a,9,0,0,0,6,66.7,1.33,-12.3,0,0"
	if got := strings.Split(strings.TrimSpace(b.String()), "\n")[1]; got != want {
		t.Fatalf("CSV line %q, want %q", got, want)
	}
}

// TestWideFieldSaysWhereTheMatrixIs: above MaxMatrixBots the table says
// the head-to-head matrix is left out and where to find it.
func TestWideFieldSaysWhereTheMatrixIs(t *testing.T) {
	t.Parallel()
	for _, n := range []int{MaxMatrixBots, MaxMatrixBots + 1} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("bot%02d", i)
		}
		recs := []ledger.Record{{GameID: "x-1", Bots: names[:2], Ranks: []int{1, 2}, Scores: []float64{1, 0}}}
		st, err := Compute("x", "banqi", "round-robin", 2, -1, names, recs)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		st.Table(&b)
		text := b.String()
		matrix := strings.Contains(text, "head to head (row's score")
		note := strings.Contains(text, fmt.Sprintf("not shown for %d bots", n)) && strings.Contains(text, "--json") && strings.Contains(text, "--csv --head-to-head")
		if matrix != (n <= MaxMatrixBots) || note != (n > MaxMatrixBots) {
			t.Errorf("%d bots: matrix %v, note %v:\n%s", n, matrix, note, text)
		}
	}
}

// knockout is a tournament file for an elimination of n bots; the bots'
// programs are never run.
func knockout(t *testing.T, format string, n, seats, gpe int) *Config {
	t.Helper()
	seed := uint64(3)
	f := File{Name: "ko", Game: "banqi", Format: format, GamesPerEncounter: gpe, Settings: options.Settings{Seed: &seed}}
	if seats > 2 {
		f.Game, f.Seats, f.Advance = "boon", seats, 2
	}
	for i := range n {
		f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("b%d", i), Command: os.Args[0]})
	}
	return resolve(t, f)
}

// outcome gives the ranks by seat of game g, the k-th (from 1) of its
// encounter.
type outcome func(g schedule.Game, k int) []int

// simulate plays c's schedule on paper with outcome (stop games, or all
// of them for stop < 0), writes the ledger and tournament.json into a new directory
// and returns it.
func simulate(t *testing.T, c *Config, decide outcome, stop int) string {
	t.Helper()
	out := t.TempDir()
	if err := saveConfig(c, out); err != nil {
		t.Fatal(err)
	}
	w, err := ledger.Open(filepath.Join(out, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s, _ := c.NewScheduler()
	for done := 0; stop < 0 || done < stop; done++ {
		g, st := s.Next()
		if st != schedule.Ready {
			break
		}
		k, _ := strconv.Atoi(g.ID[strings.LastIndex(g.ID, "-g")+2:])
		ranks := decide(g, k)
		rec := ledger.Record{Index: done, GameID: c.Name + "-" + g.ID, Round: g.Round, Ranks: ranks, Reason: "on paper", Forfeits: []ledger.SeatFailure{}}
		for _, b := range g.Seats {
			rec.Bots = append(rec.Bots, c.Bots[b].Name)
		}
		for _, r := range ranks {
			rec.Scores = append(rec.Scores, float64(len(ranks)-r))
		}
		if err := w.Append(rec); err != nil {
			t.Fatal(err)
		}
		s.Result(g, ranks)
	}
	return out
}

// lowerWins: the bot with the lower index ranks better.
func lowerWins(g schedule.Game, _ int) []int {
	ranks := make([]int, len(g.Seats))
	for s, b := range g.Seats {
		for _, o := range g.Seats {
			if o < b {
				ranks[s]++
			}
		}
		ranks[s]++
	}
	return ranks
}

// drawishFavourites: bots 0 and 1 win every encounter only after a tie
// (draw, draw, win, draw: 2.5-1.5), bot 0 over bot 1; the others win by
// index, 2-0. So the champion (0) and the finalist (1) score less per game
// than the semi-final losers (2, 3), who win their first match 2-0.
func drawishFavourites(g schedule.Game, k int) []int {
	fav := -1
	for s, b := range g.Seats {
		if b <= 1 && (fav < 0 || b < g.Seats[fav]) {
			fav = s
		}
	}
	if fav < 0 {
		return lowerWins(g, k)
	}
	if k == 3 {
		return []int{1 + fav, 2 - fav} // the favourite's seat ranks 1
	}
	return []int{1, 1}
}

// TestEliminationRanksByTheBracket: an elimination's standings rank by
// how far each bot went (then score), not by score: the champion first,
// the finalist second, the semi-final losers sharing third, and so on.
func TestEliminationRanksByTheBracket(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		c       func(t *testing.T) *Config
		decide  outcome
		ranks   map[string]int
		out     map[string]string
		rankKey string
	}{
		{"single elimination, favourites that draw a lot", func(t *testing.T) *Config { return knockout(t, "single-elimination", 8, 2, 2) }, drawishFavourites,
			map[string]int{"b0": 1, "b1": 2, "b2": 3, "b3": 3, "b4": 5, "b5": 5, "b6": 5, "b7": 5},
			map[string]string{"b0": "", "b1": "w3", "b2": "w2", "b4": "w1"}, "bracket"},
		{"double elimination", func(t *testing.T) *Config { return knockout(t, "double-elimination", 4, 2, 2) }, lowerWins,
			map[string]int{"b0": 1, "b1": 2, "b2": 3, "b3": 4},
			map[string]string{"b0": "", "b1": "gf1", "b2": "l2", "b3": "l1"}, "bracket"},
		{"table elimination", func(t *testing.T) *Config { return knockout(t, "table-elimination", 8, 4, 4) }, lowerWins,
			map[string]int{"b0": 1, "b1": 2, "b2": 3, "b3": 4, "b4": 5, "b5": 5, "b6": 7, "b7": 7},
			map[string]string{"b0": "", "b1": "final table", "b4": "round 1", "b7": "round 1"}, "tables"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := simulate(t, tc.c(t), tc.decide, -1)
			_, st := openStandings(t, out)
			got := map[string]int{}
			for _, r := range st.Standings {
				got[r.Name] = r.Rank
				if want, ok := tc.out[r.Name]; ok && r.Out != want {
					t.Errorf("%s out in %q, want %q", r.Name, r.Out, want)
				}
			}
			for name, want := range tc.ranks {
				if got[name] != want {
					t.Errorf("%s ranks %d, want %d (all: %v)", name, got[name], want, got)
				}
			}
			if st.RankedBy != tc.rankKey {
				t.Errorf("ranked by %q, want %q", st.RankedBy, tc.rankKey)
			}
			var b bytes.Buffer
			st.Table(&b)
			if !strings.Contains(b.String(), "OUT IN") || !strings.Contains(b.String(), ": b0\n") {
				t.Errorf("the table has no out-in column, or no bracket naming the winner:\n%s", b.String())
			}
		})
	}
}

// TestStandingsTableSaysWhatItShows: the table's first line says how many
// games an elimination has played (all of them once it has its winner,
// where its total could not be known, and that more may come before),
// and under the table a legend says what the columns are and, where the
// ranks and the ratings order two bots otherwise, which two and why.
func TestStandingsTableSaysWhatItShows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		c      func(t *testing.T) *Config
		decide outcome
		stop   int
		want   []string
		not    []string
	}{
		{"a finished bracket", func(t *testing.T) *Config { return knockout(t, "double-elimination", 4, 2, 2) }, lowerWins, -1,
			[]string{"ko: banqi double-elimination, 12 games, all played\n", "Elo (BT): the Bradley-Terry rating", "rank: how far the bot went"},
			[]string{"?", "placements:"}},
		{"a bracket half played", func(t *testing.T) *Config { return knockout(t, "single-elimination", 8, 2, 2) }, lowerWins, 5,
			[]string{"5 games so far; how many more depends on the results (a tied encounter adds games)"}, []string{"?"}},
		{"ranks against ratings", func(t *testing.T) *Config { return knockout(t, "single-elimination", 8, 2, 2) }, drawishFavourites, -1,
			[]string{"ranks above", "whose rating is higher: the rank follows the bracket, the rating every game"}, nil},
		{"tables of four", func(t *testing.T) *Config { return knockout(t, "table-elimination", 8, 4, 4) }, lowerWins, -1,
			[]string{"placements: games finished 1st/2nd/.../4th", "PL ordinal: the Plackett-Luce (Weng-Lin) rating"}, []string{"Elo (BT):"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, st := openStandings(t, simulate(t, tc.c(t), tc.decide, tc.stop))
			var b bytes.Buffer
			if err := st.Table(&b); err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(b.String(), "\n", " ")
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) && !strings.Contains(text, strings.ReplaceAll(w, "\n", " ")) {
					t.Errorf("the table lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tc.not {
				if strings.Contains(b.String(), w) {
					t.Errorf("the table holds %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// TestProgressLineNamesTheReasonsSeats: the last game's reason, which the
// engine words in seats, names their bots in a progress line.
func TestProgressLineNamesTheReasonsSeats(t *testing.T) {
	p := Progress{Done: 3, Total: 8}
	p.Last.GameID, p.Last.Bots, p.Last.Reason = "cup-g3", []string{"alice", "crash5"}, "seat 1 reached 248 points after 1 hand"
	if line := p.Line(); !strings.Contains(line, "last cup-g3: seat 1 (crash5) reached 248 points after 1 hand") {
		t.Errorf("progress line %q does not name seat 1's bot", line)
	}
}

// TestProgressOfAKnockout: progress names the round in play and an
// estimate of the games in all, where a knockout's total is unknown.
func TestProgressOfAKnockout(t *testing.T) {
	t.Parallel()
	c := knockout(t, "single-elimination", 8, 2, 2)
	cases := []struct {
		stop      int // games recorded
		wantStage string
		estimate  int
	}{
		{0, "round 1 (w1) 0 of 4 matches decided", 14},
		{5, "round 1 (w1) 2 of 4 matches decided", 14},
		{8, "round 2 (w2) 0 of 2 matches decided", 14},
		{12, "round 3 (w3) 0 of 1 matches decided", 14},
	}
	for _, tc := range cases {
		out := simulate(t, c, lowerWins, tc.stop)
		d, err := Open(out)
		if err != nil {
			t.Fatal(err)
		}
		p := Progress{Done: tc.stop, Total: d.Ledger.Sched.Total()}
		p.Stage, p.Estimate = schedule.StageOf(d.Ledger.Sched, tc.stop)
		if p.Stage != tc.wantStage || p.Estimate != tc.estimate || !strings.Contains(p.Line(), fmt.Sprintf("[%d/~%d]", tc.stop, tc.estimate)) ||
			strings.Contains(p.Line(), "leader") {
			t.Errorf("after %d games: stage %q, estimate %d, line %q; want %q and ~%d", tc.stop, p.Stage, p.Estimate, p.Line(), tc.wantStage, tc.estimate)
		}
	}
}

// TestLedgerLinesThatDoNotCount: a duplicated line, an unknown game id
// and a record whose seats the schedule does not have are not counted, by
// standings and resume alike, and each is reported with its line and
// game; the resume plays the game whose record did not count.
func TestLedgerLinesThatDoNotCount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		damage  func(lines []string) []string
		want    error
		line    int
		replays int // games the resume plays
	}{
		{"duplicated line", func(l []string) []string { return append(l, l[0]) }, ErrDuplicate, 7, 0},
		{"unknown game id", func(l []string) []string {
			return append(l, strings.Replace(l[0], `"game_id":"cup-`, `"game_id":"cup-zz`, 1))
		}, ErrUnknownGame, 7, 0},
		{"seats swapped", func(l []string) []string {
			var r ledger.Record
			json.Unmarshal([]byte(l[2]), &r)
			r.Bots[0], r.Bots[1] = r.Bots[1], r.Bots[0]
			b, _ := json.Marshal(r)
			l[2] = string(b)
			return l
		}, ErrNotAsScheduled, 3, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, _ := played(t, 3)
			path := filepath.Join(out, ledger.FileName)
			data, _ := os.ReadFile(path)
			lines := tc.damage(strings.Split(strings.TrimSpace(string(data)), "\n"))
			os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)

			d, st := openStandings(t, out)
			if st.Games != 6-tc.replays || len(d.Ledger.Problems) != 1 {
				t.Fatalf("standings count %d games, problems %v; want %d and one problem", st.Games, d.Ledger.Problems, 6-tc.replays)
			}
			p := d.Ledger.Problems[0]
			if !errors.Is(p, tc.want) || p.Line != tc.line || p.File != path || p.GameID == "" ||
				!strings.Contains(strings.Join(st.Warnings, "\n"), fmt.Sprintf("%s: line %d: game %s: ", path, tc.line, p.GameID)) {
				t.Fatalf("problem %v (line %d), warnings %q; want %v on line %d", p, p.Line, st.Warnings, tc.want, tc.line)
			}
			var warn bytes.Buffer
			fresh := 0
			c := testConfig(t, 3, 1)
			if _, err := Run(context.Background(), c, out, Options{Warn: &warn, OnGame: func(p Progress) { fresh = p.Done - p.Resumed }}); err != nil {
				t.Fatal(err)
			}
			if fresh != tc.replays || !strings.Contains(warn.String(), p.Error()) {
				t.Fatalf("the resume played %d games (want %d) and warned:\n%s", fresh, tc.replays, warn.String())
			}
			d, _ = Open(out)
			if len(d.Ledger.Records) != 6 {
				t.Fatalf("after the resume %d games count, want 6", len(d.Ledger.Records))
			}
		})
	}
}

// TestSavedTournamentIsSealed: tournament.json carries a checksum; an
// edited seed (or anything but concurrency) is refused on resume and
// reported by standings and verify; concurrency is saved and may change.
func TestSavedTournamentIsSealed(t *testing.T) {
	t.Parallel()
	out, _ := played(t, 2)
	path := filepath.Join(out, SavedConfig)
	f, err := LoadSaved(out)
	if err != nil || f.Checksum == "" || f.Concurrency != 1 {
		t.Fatalf("saved: %+v, %v; want a checksum and concurrency 1", f, err)
	}
	// Another concurrency (and another limit on startup failures) is
	// saved, the checksum still holds.
	c := testConfig(t, 2, 3)
	five := 5
	c.File.Failure.MaxStartupFailures = &five
	if _, err := Run(context.Background(), c, out, Options{}); err != nil {
		t.Fatal(err)
	}
	if f, err := LoadSaved(out); err != nil || f.Concurrency != 3 {
		t.Fatalf("after a run at concurrency 3: %+v, %v", f, err)
	}
	data, _ := os.ReadFile(path)
	edited := bytes.Replace(data, []byte(`"seed": 7`), []byte(`"seed": 8`), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("no seed to edit")
	}
	os.WriteFile(path, edited, 0o644)
	if _, err := LoadSaved(out); !errors.Is(err, ErrEdited) || !strings.Contains(err.Error(), path) {
		t.Fatalf("LoadSaved of an edited file: %v; want ErrEdited naming %s", err, path)
	}
	seed := uint64(8)
	c = testConfig(t, 2, 1)
	c.File.Seed, c.Seed = &seed, 8
	if _, err := Run(context.Background(), c, out, Options{}); !errors.Is(err, ErrEdited) {
		t.Fatalf("resume with the edited seed: %v, want ErrEdited", err)
	}
	d, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := d.Standings()
	if !strings.Contains(strings.Join(st.Warnings, "\n"), "edited after the tournament began") {
		t.Errorf("standings do not warn of the edit: %q", st.Warnings)
	}
	v, err := Verify(out)
	if err != nil || len(v.Problems) == 0 || !errors.Is(v.Problems[0], ErrEdited) || v.Problems[0].File != path {
		t.Fatalf("verify: %+v, %v; want ErrEdited first, on %s", v, err, path)
	}
}

// TestEditedLedgerLineIsSaid: a ledger line edited to other valid ranks
// (its checksum left as it was) still counts, but standings, a resume and
// verify each say which line was edited, and that verify checks it; an
// intact ledger draws no such word.
func TestEditedLedgerLineIsSaid(t *testing.T) {
	t.Parallel()
	out, _ := played(t, 2)
	path := filepath.Join(out, ledger.FileName)
	if _, st := openStandings(t, out); slices.ContainsFunc(st.Warnings, func(w string) bool { return strings.Contains(w, "edited") }) {
		t.Fatalf("an intact ledger: warnings %q", st.Warnings)
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	var r ledger.Record
	if err := json.Unmarshal([]byte(lines[1]), &r); err != nil {
		t.Fatal(err)
	}
	from, to := `"ranks":[1,2]`, `"ranks":[2,1]`
	if r.Ranks[0] != 1 || r.Ranks[1] != 2 {
		from, to = fmt.Sprintf(`"ranks":[%d,%d]`, r.Ranks[0], r.Ranks[1]), `"ranks":[1,2]`
	}
	lines[1] = strings.Replace(lines[1], from, to, 1)
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	want := fmt.Sprintf("%s: line 2: game %s: edited after the arena wrote it", path, r.GameID)

	d, st := openStandings(t, out)
	if st.Games != 2 || len(d.Ledger.Edited) != 1 || !errors.Is(d.Ledger.Edited[0], ledger.ErrEdited) ||
		!strings.Contains(strings.Join(st.Warnings, "\n"), want) || !strings.Contains(strings.Join(st.Warnings, "\n"), "arena tournament verify") {
		t.Fatalf("standings of %d games, edited %v, warnings %q; want both games counted and %q", st.Games, d.Ledger.Edited, st.Warnings, want)
	}
	var warn bytes.Buffer
	if _, err := Run(context.Background(), testConfig(t, 2, 1), out, Options{Warn: &warn}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), want) {
		t.Fatalf("the resume did not warn of the edit:\n%s", warn.String())
	}
	v, err := Verify(out)
	if err != nil {
		t.Fatal(err)
	}
	var edited, replay bool
	for _, p := range v.Problems {
		edited = edited || (errors.Is(p, ledger.ErrEdited) && p.Line == 2)
		replay = replay || (errors.Is(p, ErrReplay) && p.Line == 2)
	}
	if !edited || !replay {
		t.Fatalf("verify: %v; want the edit and the replay's other ranks, on line 2", v.Problems)
	}
}

// TestResumeRemovesUnfinishedReplays: the hidden temporary files of
// replays a killed run was writing are gone after the resume.
func TestResumeRemovesUnfinishedReplays(t *testing.T) {
	t.Parallel()
	out, _ := played(t, 2)
	tmp := filepath.Join(out, "replays", ".cup-r1-m1-g1.jsonl.zst.tmp-4242-1-99")
	os.WriteFile(tmp, []byte("half a replay"), 0o644)
	var warn bytes.Buffer
	if _, err := Run(context.Background(), testConfig(t, 2, 1), out, Options{Warn: &warn}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s survived the resume (%v)", tmp, err)
	}
	if !strings.Contains(warn.String(), "removed 1 unfinished replay") {
		t.Errorf("the resume did not say what it removed:\n%s", warn.String())
	}
}

// TestVerify: a directory as the run left it verifies; each kind of
// damage is a problem naming the file, the line and the game.
func TestVerify(t *testing.T) {
	t.Parallel()
	edit := func(field string, value any) func(t *testing.T, out string) {
		return func(t *testing.T, out string) {
			path := filepath.Join(out, ledger.FileName)
			data, _ := os.ReadFile(path)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			var m map[string]any
			json.Unmarshal([]byte(lines[1]), &m)
			m[field] = value
			b, _ := json.Marshal(m)
			lines[1] = string(b)
			os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		}
	}
	cases := []struct {
		name   string
		damage func(t *testing.T, out string)
		want   error
		says   string
	}{
		{"intact", func(*testing.T, string) {}, nil, ""},
		{"ranks edited", func(t *testing.T, out string) {
			recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
			r := recs[1]
			edit("ranks", []int{r.Ranks[1], r.Ranks[0]})(t, out)
			if r.Ranks[0] == r.Ranks[1] {
				edit("ranks", []int{1, 2})(t, out)
			}
		}, ErrReplay, "ranks"},
		{"seed edited", edit("seed", 12345), ErrReplay, "seed"},
		{"replay deleted", func(t *testing.T, out string) {
			recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
			os.Remove(filepath.Join(out, recs[1].Replay))
		}, ErrReplay, "is missing"},
		{"replay named elsewhere", edit("replay", "../../etc/passwd"), ErrReplay, "names replay"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, _ := played(t, 2)
			tc.damage(t, out)
			v, err := Verify(out)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if len(v.Problems) != 0 || v.Games != 2 {
					t.Fatalf("an intact directory: %d games, problems %v", v.Games, v.Problems)
				}
				return
			}
			recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
			found := false
			for _, p := range v.Problems {
				if errors.Is(p, tc.want) && p.Line == 2 && p.GameID == recs[1].GameID && p.File == filepath.Join(out, ledger.FileName) && strings.Contains(p.Error(), tc.says) {
					found = true
				}
			}
			if !found {
				t.Fatalf("problems %v; want %v on line 2 (game %s) saying %q", v.Problems, tc.want, recs[1].GameID, tc.says)
			}
		})
	}
}

// TestSavedWithoutShareDealsResumesByCycle: a directory saved before
// share_deals existed (no such field, its checksum without it) was dealt
// by cycle, and a resume from it (or from the same file again, which
// does not say) deals the rest alike: the recorded games' seeds check
// out, the games played again get the seeds they had, and verify finds
// nothing wrong. A resume that asks for dealing by encounter is another
// tournament, and refused.
func TestSavedWithoutShareDealsResumesByCycle(t *testing.T) {
	t.Parallel()
	c := testConfig(t, 3, 1)
	c.File.ShareDeals = ShareCycle
	out, full := runRecords(t, c)
	// As an earlier arena saved it: no share_deals, its checksum over the rest.
	path := filepath.Join(out, SavedConfig)
	saved, err := LoadSaved(out)
	if err != nil {
		t.Fatal(err)
	}
	saved.ShareDeals = ""
	saved.Checksum = checksum(*saved)
	data, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("share_deals")) {
		t.Fatal("the old file still names share_deals")
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Half the games lost: they are played again on resume.
	led := filepath.Join(out, ledger.FileName)
	lines := bytes.SplitAfter(must(os.ReadFile(led)), []byte("\n"))
	if err := os.WriteFile(led, bytes.Join(lines[:len(full)/2], nil), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name  string
		share string // the resume's file (or flag); "" says nothing
		ok    bool
	}{
		{"by encounter: another tournament", ShareEncounter, false},
		{"not said: as it began", "", true},
	} {
		f, err := LoadSaved(out)
		if err != nil {
			t.Fatal(err)
		}
		if f.ShareDeals != ShareCycle {
			t.Fatalf("%s: the old file reads as share_deals %q, want %q", tc.name, f.ShareDeals, ShareCycle)
		}
		again := c.File // the same file, as given to the first run
		again.ShareDeals = tc.share
		again.InheritDeals(f)
		rc, err := again.Resolve("test", ".")
		if err != nil {
			t.Fatal(err)
		}
		rc.Secret = testSecret
		_, err = Run(context.Background(), rc, out, Options{})
		if !tc.ok {
			if err == nil || !strings.Contains(err.Error(), "share_deals") {
				t.Fatalf("%s: resume %v; want it refused, naming share_deals", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
	recs, _, _ := ledger.Read[ledger.Record](led)
	seeds := map[string]uint64{}
	for _, r := range full {
		seeds[r.GameID] = r.Seed
	}
	if len(recs) != len(full) {
		t.Fatalf("%d games after the resume, want %d", len(recs), len(full))
	}
	for _, r := range recs {
		if r.Seed != seeds[r.GameID] {
			t.Errorf("%s: dealt %d on resume, %d at first", r.GameID, r.Seed, seeds[r.GameID])
		}
	}
	if v, err := Verify(out); err != nil || len(v.Problems) != 0 {
		t.Fatalf("verify: %+v, %v", v, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
