package report_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/report"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// TestTournamentReadAsTheStandingsReadIt: the report's standings are
// `arena tournament standings --json`'s, figure for figure.
func TestTournamentReadAsTheStandingsReadIt(t *testing.T) {
	t.Parallel()
	dir := runTournament(t, tournament.File{Name: "rr", Format: "round-robin",
		Bots: []tournament.BotFile{botFile("g", "greedy"), botFile("r", "random"), botFile("q", "random")}})
	r, err := report.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tournament.ReadStandings(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r.Standings)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Fatalf("report standings\n%s\nwant (tournament standings)\n%s", got, exp)
	}
	if r.Kind != report.Tournament || len(r.Records) != want.Games {
		t.Fatalf("kind %s, %d records; want tournament, %d", r.Kind, len(r.Records), want.Games)
	}
	// The last point of the progression is the standings' ratings.
	p := r.Progression
	if p.Games[len(p.Games)-1] != want.Games {
		t.Fatalf("progression ends at %d games, want %d", p.Games[len(p.Games)-1], want.Games)
	}
	for _, row := range want.Standings {
		i := indexOf(p.Bots, row.Name)
		if got := p.Ratings[len(p.Ratings)-1][i]; math.Abs(got-*row.Rating) > 1e-9 {
			t.Fatalf("%s: last progression rating %v, standings %v", row.Name, got, *row.Rating)
		}
	}
}

func indexOf(xs []string, x string) int { return slices.Index(xs, x) }

// TestKinds: each kind of directory is told apart and counted whole.
func TestKinds(t *testing.T) {
	t.Parallel()
	sprtDir, _ := runSPRT(t)
	tests := []struct {
		name string
		dir  string
		kind report.Kind
		bots []string
	}{
		{"match", runMatch(t, 4), report.Match, []string{"greedy", "random"}},
		{"sprt", sprtDir, report.SPRT, []string{"new", "old"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := report.Load(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			lines, _, err := ledger.Read[ledger.Record](filepath.Join(tc.dir, ledger.FileName))
			if err != nil {
				t.Fatal(err)
			}
			if r.Kind != tc.kind || len(r.Records) != len(lines) || r.Standings.Games != len(lines) {
				t.Fatalf("kind %s, %d records, %d games in the standings; want %s, %d", r.Kind, len(r.Records), r.Standings.Games, tc.kind, len(lines))
			}
			if strings.Join(r.Standings.Bots, ",") != strings.Join(tc.bots, ",") {
				t.Fatalf("bots %v, want %v", r.Standings.Bots, tc.bots)
			}
			if r.Standings.Game != "banqi" {
				t.Fatalf("game %q, want banqi", r.Standings.Game)
			}
		})
	}
}

// TestLLRTrajectoryEndsAtTheRunsLLR: replayed through the run's own stop
// rule, the ledger ends at the LLR and the verdict the run reported,
// with one point per counted pair.
func TestLLRTrajectoryEndsAtTheRunsLLR(t *testing.T) {
	t.Parallel()
	dir, sum := runSPRT(t)
	r, err := report.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.LLR == nil {
		t.Fatalf("no LLR trajectory; warnings %v", r.Warnings)
	}
	last := r.LLR.Points[len(r.LLR.Points)-1]
	if math.Abs(last.LLR-sum.LLR) > 1e-4 || last.Pairs != sum.Pairs || len(r.LLR.Points) != sum.Pairs+1 {
		t.Fatalf("trajectory ends at LLR %v after %d pairs (%d points); the run: %v after %d", last.LLR, last.Pairs, len(r.LLR.Points), sum.LLR, sum.Pairs)
	}
	if r.LLR.Lower != sum.LowerBound && math.Abs(r.LLR.Lower-sum.LowerBound) > 1e-4 {
		t.Fatalf("lower bound %v, the run's %v", r.LLR.Lower, sum.LowerBound)
	}
	for _, w := range r.Warnings {
		t.Errorf("warning: %s", w)
	}
	// Without sprt.json (a run still going) there is no trajectory, and
	// a warning says why.
	if err := os.Remove(filepath.Join(dir, "sprt.json")); err != nil {
		t.Fatal(err)
	}
	r, err = report.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != report.SPRT || r.LLR != nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "sprt.json") {
		t.Fatalf("without sprt.json: kind %s, LLR %v, warnings %q", r.Kind, r.LLR, r.Warnings)
	}
}

// TestBadDirectories: what is not a results directory is an error
// naming it.
func TestBadDirectories(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	file := filepath.Join(empty, "notes.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	tests := []struct {
		name, dir string
		is        error
	}{
		{"missing", filepath.Join(empty, "nope"), os.ErrNotExist},
		{"empty", empty, report.ErrNotResults},
		{"a file", file, report.ErrNotResults},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := report.Write(tc.dir, "", report.Options{})
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.dir) {
				t.Fatalf("error %v; want one naming %s, wrapping %v", err, tc.dir, tc.is)
			}
		})
	}
}

// snapshot is every file under dir with its size and modification time
// (dir itself aside: a file added changes its time).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			out[p] = fmt.Sprint(fi.ModTime(), fi.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWriteTouchesNothingButItself: a report written into the results
// directory adds report.html (and, with a viewer, viewer/) and changes
// nothing else; no temporary file is left; the viewer is asked once per
// game, and not again for pages newer than their replays.
func TestWriteTouchesNothingButItself(t *testing.T) {
	t.Parallel()
	dir := runMatch(t, 4)
	before := snapshot(t, dir)
	if _, err := report.Write(dir, "", report.Options{}); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, dir)
	html := filepath.Join(dir, report.DefaultName)
	if _, ok := after[html]; !ok {
		t.Fatalf("no %s", html)
	}
	delete(after, html)
	if d := diff(before, after); d != "" {
		t.Fatalf("the report changed the directory: %s", d)
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), `href="replays/`) {
		t.Fatalf("without a viewer the games link to their replays; the page has no href=\"replays/")
	}

	var asked []string
	viewer := func(replay replays.Source, htmlPath string) error {
		asked = append(asked, replay.String())
		return os.WriteFile(htmlPath, []byte("<!doctype html><title>game</title>"), 0o644)
	}
	out := filepath.Join(t.TempDir(), "site", "cup.html")
	os.MkdirAll(filepath.Dir(out), 0o755)
	r, err := report.Write(dir, out, report.Options{WriteViewer: viewer})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != len(r.Records) {
		t.Fatalf("viewer asked for %d pages, want %d (one per game)", len(asked), len(r.Records))
	}
	page, _ = os.ReadFile(out)
	for _, rec := range r.Records {
		if !strings.Contains(string(page), `href="viewer/`+rec.GameID+`.html"`) {
			t.Fatalf("no link to viewer/%s.html", rec.GameID)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(out), "viewer", rec.GameID+".html")); err != nil {
			t.Fatal(err)
		}
	}
	asked = nil
	if _, err := report.Write(dir, out, report.Options{WriteViewer: viewer}); err != nil || len(asked) != 0 {
		t.Fatalf("second write: %v, viewer asked again for %d pages", err, len(asked))
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func diff(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, "changed or removed "+k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "added "+k)
		}
	}
	return strings.Join(out, ", ")
}

// hostile are bot names that would be markup if written unescaped.
var hostile = []string{`</script><script>window.pwned=1;alert(1)</script>`, `<img src=x onerror="window.pwned=2">`}

// hostileMatch is a match directory written by hand whose bots have
// hostile names, one of them forfeiting with a hostile detail.
func hostileMatch(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var recs []ledger.Record
	for i := range 4 {
		r := ledger.Record{Index: i, GameID: "evil-g" + string(rune('0'+i)), Seed: 1, Bots: []string{hostile[i%2], hostile[(i+1)%2]},
			Ranks: []int{1, 2}, Reason: "checkmate", Plies: 10}
		if i == 3 {
			r.Reason = "forfeit"
			r.Forfeits = []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: protocol.ReasonCrash, Detail: `<script>window.pwned=3</script>`}, Bot: r.Bots[1]}}
		}
		recs = append(recs, r)
	}
	writeLedger(t, dir, recs)
	return dir
}

// TestHostileNamesAreText: the page holds no hostile name as markup.
func TestHostileNamesAreText(t *testing.T) {
	t.Parallel()
	dir := hostileMatch(t)
	if _, err := report.Write(dir, "", report.Options{}); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, report.DefaultName))
	for _, bad := range append(hostile, "<script>window.pwned", "<img src=x") {
		if strings.Contains(string(page), bad) {
			t.Fatalf("the page holds %q unescaped", bad)
		}
	}
}

// TestPath: the report goes where -o says, else into its directory.
func TestPath(t *testing.T) {
	cases := []struct{ dir, out, want string }{
		{"out/cup", "", filepath.Join("out/cup", report.DefaultName)},
		{"out/cup", "cup.html", "cup.html"},
	}
	for _, tc := range cases {
		if got := report.Path(tc.dir, tc.out); got != tc.want {
			t.Errorf("Path(%q, %q) = %q, want %q", tc.dir, tc.out, got, tc.want)
		}
	}
}
