package report_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/report"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/internal/testkit"
)

// envScreenshots names a directory (relative to the module root) to save
// the report's screenshot in as report.png: ARENA_SCREENSHOTS=docs makes
// docs/report.png.
const envScreenshots = "ARENA_SCREENSHOTS"

// open writes dir's report and opens it in the browser.
func open(t *testing.T, ctx context.Context, dir string) (string, *report.Report) {
	t.Helper()
	r, err := report.Write(dir, "", report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, report.DefaultName)
	if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.FileURL(t, page))); err != nil {
		t.Fatal(err)
	}
	return page, r
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// standingsJS reads the standings table: per row the bot, rank, score
// and rating cells.
const standingsJS = `Array.from(document.querySelectorAll('#standings tbody tr')).map(tr =>
	[tr.querySelector('.name').textContent, tr.querySelector('.rank').textContent, tr.querySelector('.score').textContent,
	 (tr.querySelector('.rating') || {textContent: ''}).textContent])`

// wantRows is what the standings table should show for st.
func wantRows(st *tournament.Standings) [][]string {
	var out [][]string
	for _, r := range st.Standings {
		rating := ""
		if r.Rating != nil {
			rating = strconv.FormatFloat(*r.Rating, 'f', 1, 64)
			if rating == "-0.0" {
				rating = "0.0"
			}
		}
		out = append(out, []string{r.Name, strconv.Itoa(r.Rank), strconv.FormatFloat(r.Score, 'f', 1, 64), rating})
	}
	return out
}

func checkStandings(t *testing.T, ctx context.Context, st *tournament.Standings) {
	t.Helper()
	got := eval[[][]string](t, ctx, standingsJS)
	if want := wantRows(st); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("standings in the page\n%v\nwant\n%v", got, want)
	}
}

// openStandings opens dir's report and checks its standings table
// against the standings command's, which it returns.
func openStandings(t *testing.T, ctx context.Context, dir string) *tournament.Standings {
	t.Helper()
	open(t, ctx, dir)
	st, err := tournament.ReadStandings(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkStandings(t, ctx, st)
	return st
}

// cellTip is the matrix cell's text for row bot a against column bot b.
func cellTip(st *tournament.Standings, a, b string) string {
	i, j := indexOf(st.Bots, a), indexOf(st.Bots, b)
	s, g := st.HeadToHead[i][j], st.HeadToHeadGames[i][j]
	if g == 0 {
		return a + " vs " + b + ": never met"
	}
	return fmt.Sprintf("%s vs %s: %s/%d (%d%%)", a, b, strconv.FormatFloat(math.Round(s*10)/10, 'f', -1, 64), g, int(math.Round(100*s/float64(g))))
}

// TestReportInBrowser opens reports of real runs in headless Chromium
// (one browser for all) and reads back what a reader sees.
func TestReportInBrowser(t *testing.T) {
	ctx := browsertest.New(t)

	t.Run("round-robin", func(t *testing.T) {
		dir := runTournament(t, tournament.File{Name: "cup", Format: "round-robin",
			Bots: []tournament.BotFile{botFile("greedy", "greedy"), botFile("random", "random"), botFile("striker", "striker"), botFile("quitter", "false")}, Settings: options.Settings{Failure: options.Failure{Policy: "random", MaxStrikes: 3}}})
		_, r := open(t, ctx, dir)
		st, err := tournament.ReadStandings(dir)
		if err != nil {
			t.Fatal(err)
		}
		checkStandings(t, ctx, st)

		// A cell of the heat map, clicked: the first against the second.
		a, b := st.Standings[0].Name, st.Standings[1].Name
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#matrix rect[data-r="0"][data-c="1"]`))); err != nil {
			t.Fatal(err)
		}
		if got, want := eval[string](t, ctx, `document.getElementById('cell-info').textContent`), cellTip(st, a, b); got != want {
			t.Fatalf("clicked cell says %q, want %q", got, want)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#matrix rect.cell').length`); n != 16 {
			t.Fatalf("%d matrix cells, want 16", n)
		}

		// Forfeits and strikes by reason per bot, each game linked to its
		// replay, as the ledger has them.
		type key struct{ bot, kind, reason string }
		want := map[key][]string{}
		for _, rec := range r.Records {
			for _, f := range rec.Forfeits {
				k := key{f.Bot, "forfeit", string(f.Reason)}
				want[k] = append(want[k], rec.GameID)
			}
			for _, f := range rec.Strikes { // a game linked once per bot and reason
				k := key{f.Bot, "strike", string(f.Reason)}
				if ids := want[k]; len(ids) == 0 || ids[len(ids)-1] != rec.GameID {
					want[k] = append(want[k], rec.GameID)
				}
			}
		}
		if len(want[key{"quitter", "forfeit", "startup"}])+len(want[key{"quitter", "forfeit", "crash"}]) != st.Standings[indexOfRow(st, "quitter")].Games {
			t.Fatalf("quitter did not forfeit every game: %v", want)
		}
		if len(want[key{"striker", "strike", "illegal_action"}]) == 0 {
			t.Fatalf("striker was never struck: %v", want)
		}
		strikes := 0
		for _, rec := range r.Records {
			strikes += len(rec.Strikes)
		}
		if got := eval[string](t, ctx, `document.querySelector('#failures tr[data-kind="strike"] .count').textContent`); got != strconv.Itoa(strikes) {
			t.Fatalf("strike count %s in the page, %d in the ledger", got, strikes)
		}
		rows := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll('#failures tbody tr')).map(tr =>
			[tr.dataset.bot, tr.dataset.kind, tr.dataset.reason].concat(Array.from(tr.querySelectorAll('a')).map(a => a.textContent + '=' + a.getAttribute('href'))))`)
		if len(rows) != len(want) {
			t.Fatalf("%d failure rows in the page, want %d: %v", len(rows), len(want), rows)
		}
		replayOf := map[string]string{}
		for _, rec := range r.Records {
			replayOf[rec.GameID] = filepath.ToSlash(rec.Replay)
		}
		for _, row := range rows {
			ids := want[key{row[0], row[1], row[2]}]
			if len(row)-3 != len(ids) {
				t.Fatalf("row %v: want the games %v", row, ids)
			}
			for i, link := range row[3:] {
				id, href, _ := strings.Cut(link, "=")
				// Without a viewer a game links to its replay's file: its
				// pack (replays/pack-NNNNNN.pack.zst).
				if id != ids[i] || href != replayOf[id] || !strings.HasPrefix(href, "replays/pack-") {
					t.Fatalf("link %q, want game %s to %s", link, ids[i], replayOf[ids[i]])
				}
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(href))); err != nil {
					t.Fatalf("link %s: %v", href, err)
				}
			}
		}
		// The progression has a line per bot.
		if n := eval[int](t, ctx, `document.querySelectorAll('#progression g.series').length`); n != 4 {
			t.Fatalf("%d progression lines, want 4", n)
		}
		if shots := os.Getenv(envScreenshots); shots != "" {
			browsertest.Screenshot(t, ctx, filepath.Join(testkit.ModuleRoot(t), shots, "report.png"))
		}
	})

	t.Run("single-elimination", func(t *testing.T) {
		dir := runTournament(t, tournament.File{Name: "ko", Format: "single-elimination", MaxGames: 4,
			Bots: []tournament.BotFile{botFile("a", "greedy"), botFile("b", "random"), botFile("c", "random"), botFile("d", "random"), botFile("e", "random")}})
		st := openStandings(t, ctx, dir) // in bracket order
		br := st.Details.Bracket
		if st.RankedBy != "bracket" || br == nil || br.Champion < 0 {
			t.Fatalf("ranked by %s, bracket %+v", st.RankedBy, br)
		}
		var rounds []string
		for _, r := range br.Rounds {
			rounds = append(rounds, r.Name)
		}
		if got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#bracket .round')).map(r => r.dataset.round)`); fmt.Sprint(got) != fmt.Sprint(rounds) {
			t.Fatalf("bracket rounds %v, want %v", got, rounds)
		}
		champion := st.Bots[br.Champion]
		if got := eval[string](t, ctx, `document.getElementById('champion').textContent`); got != champion || st.Standings[0].Name != champion {
			t.Fatalf("champion %q in the page, %q in the bracket, %q first in the standings", got, champion, st.Standings[0].Name)
		}
		final := br.Rounds[len(br.Rounds)-1].Matches[0]
		if got := eval[string](t, ctx, `document.querySelector('#bracket .round:last-child .slot.won .who').textContent`); got != champion {
			t.Fatalf("the final's winner in the page is %q, want %q (%+v)", got, champion, final)
		}
	})

	t.Run("table-elimination", func(t *testing.T) {
		// 8 bots at tables of 4 seats, 2 of each through: two tables in
		// round 1, then the final table of the 4 who went through.
		var bots []tournament.BotFile
		for i := range 8 {
			kind := "random"
			if i%3 == 0 {
				kind = "greedy"
			}
			bots = append(bots, botFile(fmt.Sprintf("p%d", i), kind))
		}
		dir := runTournament(t, tournament.File{Name: "tables", Game: "boon", Seats: 4, Format: "table-elimination", Advance: 2,
			GamesPerEncounter: 4, Bots: bots})
		st := openStandings(t, ctx, dir) // in tables order
		tv := st.Details.Tables
		if st.RankedBy != "tables" || tv == nil || tv.Winner < 0 || len(tv.Rounds) != 2 {
			t.Fatalf("ranked by %s, tables %+v", st.RankedBy, tv)
		}
		// Every round, every table with its bots (best seed first) and,
		// before the final, the ones that went through marked.
		var want [][]string
		for _, r := range tv.Rounds {
			for _, tb := range r.Tables {
				row := []string{strconv.Itoa(r.Round), tb.ID}
				for _, b := range tb.Bots {
					through := !r.Final && slices.Contains(tb.Order[:tb.Advance], b)
					row = append(row, fmt.Sprintf("%s:%t", st.Bots[b], through))
				}
				want = append(want, row)
			}
		}
		got := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll('#tables .round')).flatMap(r =>
			Array.from(r.querySelectorAll('.match')).map(m => [r.dataset.round, m.dataset.match].concat(
				Array.from(m.querySelectorAll('.slot')).map(s => s.querySelector('.who').textContent + ':' + s.classList.contains('won')))))`)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("tables in the page\n%v\nwant\n%v", got, want)
		}
		// Those marked through in round 1 are the final table.
		through := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#tables .round[data-round="1"] .slot.won .who')).map(w => w.textContent).sort()`)
		final := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#tables .round:last-child .slot .who')).map(w => w.textContent).sort()`)
		if len(final) != 4 || fmt.Sprint(through) != fmt.Sprint(final) {
			t.Fatalf("through from round 1: %v; at the final table: %v", through, final)
		}
		champion := st.Bots[tv.Winner]
		if got := eval[string](t, ctx, `document.getElementById('champion').textContent`); got != champion || st.Standings[0].Name != champion || !slices.Contains(final, champion) {
			t.Fatalf("champion %q in the page, %q by the tables, %q first in the standings, final table %v", got, champion, st.Standings[0].Name, final)
		}
	})

	t.Run("sprt", func(t *testing.T) {
		dir, sum := runSPRT(t)
		open(t, ctx, dir)
		if got := eval[string](t, ctx, `document.getElementById('verdict').textContent`); got != string(sum.Verdict) {
			t.Fatalf("verdict %q, want %q", got, sum.Verdict)
		}
		// A finished test counts its games without a "?".
		summary := eval[string](t, ctx, `document.getElementById('summary').textContent`)
		if want := fmt.Sprintf(": %d games.", sum.Played); !strings.Contains(summary, want) || strings.Contains(summary, "?") {
			t.Errorf("summary %q, want %q and no \"?\"", summary, want)
		}
		bounds := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#llr text.bound')).map(t => t.textContent)`)
		want := []string{fmt.Sprintf("H1 %.2f (nElo ≥ 10)", sum.UpperBound), fmt.Sprintf("H0 %.2f (nElo ≤ 0)", sum.LowerBound)}
		if fmt.Sprint(bounds) != fmt.Sprint(want) {
			t.Fatalf("bounds %q, want %q", bounds, want)
		}
		if n := eval[int](t, ctx, `document.querySelector('#llr polyline').getAttribute('points').trim().split(' ').length`); n != sum.Pairs+1 {
			t.Fatalf("%d LLR points, want %d (0 and every pair)", n, sum.Pairs+1)
		}
		// The curve ends beyond the bound the verdict names.
		y := eval[[]float64](t, ctx, `(() => { const p = document.querySelector('#llr polyline').getAttribute('points').trim().split(' ');
			return [parseFloat(p[p.length-1].split(',')[1]), parseFloat(document.querySelector('#llr line.bound.upper').getAttribute('y1')),
			        parseFloat(document.querySelector('#llr line.bound.lower').getAttribute('y1'))]; })()`)
		if sum.Verdict == "H1" && y[0] > y[1] || sum.Verdict == "H0" && y[0] < y[2] {
			t.Fatalf("verdict %s, but the curve ends at y %v, bounds at %v and %v", sum.Verdict, y[0], y[1], y[2])
		}
		// The heat map's figures (hundreds of games) fit their cells.
		shoot(t, ctx, "report-sprt.png")
		checkFits(t, ctx, 1280)
	})

	t.Run("sprt running", func(t *testing.T) {
		// The report of a directory an SPRT is playing into: the LLR so
		// far against the bounds of the sprt.json the run wrote as it
		// started, and word that the test goes on.
		const pairs = 3
		dir, cfg, at := reportDuringSPRT(t, pairs)
		if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.FileURL(t, filepath.Join(dir, report.DefaultName)))); err != nil {
			t.Fatal(err)
		}
		if got := eval[string](t, ctx, `document.getElementById('verdict').textContent`); got != string(sprt.Running) {
			t.Fatalf("verdict %q during the run, want %q", got, sprt.Running)
		}
		if got := eval[string](t, ctx, `(document.getElementById('running') || {textContent: ''}).textContent`); !strings.Contains(got, "still running") {
			t.Fatalf("the page does not say the test is running: %q", got)
		}
		// The summary says in words that more games may come.
		if summary := eval[string](t, ctx, `document.getElementById('summary').textContent`); !strings.Contains(summary, "games so far") ||
			!strings.Contains(summary, "still running") || strings.Contains(summary, "?") {
			t.Errorf("summary %q, want \"games so far\", \"still running\" and no \"?\"", summary)
		}
		lo, hi := cfg.SPRT.Bounds()
		bounds := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#llr text.bound')).map(t => t.textContent)`)
		if want := []string{fmt.Sprintf("H1 %.2f (nElo ≥ 5)", hi), fmt.Sprintf("H0 %.2f (nElo ≤ -5)", lo)}; fmt.Sprint(bounds) != fmt.Sprint(want) {
			t.Fatalf("bounds %q, want %q", bounds, want)
		}
		// The trajectory as the page drew it: the ledger may already hold
		// pairs the run had not counted when the report was made, so it
		// has the counted pairs at least, and at pair 3 the run's LLR.
		r, err := report.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if r.LLR == nil || len(r.LLR.Points) < pairs+1 {
			t.Fatalf("trajectory %+v, want %d points at least; warnings %q", r.LLR, pairs+1, r.Warnings)
		}
		if p := r.LLR.Points[pairs]; p.Pairs != pairs || math.Abs(p.LLR-at.LLR) > 1e-9 {
			t.Fatalf("trajectory at pair %d: %+v; the run's LLR then was %v", pairs, p, at.LLR)
		}
		n := eval[int](t, ctx, `document.querySelector('#llr polyline').getAttribute('points').trim().split(' ').length`)
		if n < pairs+1 || n > len(r.LLR.Points) {
			t.Fatalf("%d LLR points in the page, want %d to %d", n, pairs+1, len(r.LLR.Points))
		}
		for _, w := range r.Warnings {
			t.Errorf("warning: %s", w)
		}
	})

	t.Run("four seats", func(t *testing.T) { fourSeats(t, ctx) })
	t.Run("rank and rating", func(t *testing.T) { rankAndRating(t, ctx) })
	t.Run("double-elimination", func(t *testing.T) { doubleElimination(t, ctx) })
	t.Run("chart labels", func(t *testing.T) { chartLabels(t, ctx) })
	t.Run("uno cup", func(t *testing.T) { unoCup(t, ctx) })
	t.Run("zero tick", func(t *testing.T) { zeroTick(t, ctx) })
	t.Run("word limit", func(t *testing.T) { wordLimit(t, ctx) })

	t.Run("10 kB bot name", func(t *testing.T) {
		// A name the ledger allows but no layout plans for: shown in
		// full, as text, without widening the page past the window.
		long := strings.Repeat("verylongname", 10240/12)
		dir := t.TempDir()
		var recs []ledger.Record
		for i := range 4 {
			recs = append(recs, ledger.Record{Index: i, GameID: fmt.Sprintf("long-g%d", i), Seed: 1, Bots: []string{long, "short"},
				Ranks: []int{1 + i%2, 2 - i%2}, Reason: "checkmate", Plies: 10})
		}
		writeLedger(t, dir, recs)
		open(t, ctx, dir)
		names := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#standings tbody .name')).map(n => n.textContent)`)
		if len(names) != 2 || !slices.Contains(names, long) {
			t.Fatalf("standings names: %d of them, the long one in full: %v", len(names), slices.Contains(names, long))
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#matrix rect.cell').length`); n != 4 {
			t.Fatalf("%d matrix cells, want 4", n)
		}
		if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
			wide := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
				.slice(0, 6).map(e => e.tagName + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))`)
			t.Fatalf("the page is %d px wide in a %d px window: %q", w[0], w[1], wide)
		}
	})

	t.Run("hostile names", func(t *testing.T) {
		dir := hostileMatch(t)
		open(t, ctx, dir)
		if got := eval[string](t, ctx, `typeof window.pwned`); got != "undefined" {
			t.Fatalf("a bot name ran as script: window.pwned is %s", got)
		}
		names := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#standings tbody .name')).map(n => n.textContent)`)
		sorted := append([]string(nil), names...)
		sort.Strings(sorted)
		want := append([]string(nil), hostile...)
		sort.Strings(want)
		if fmt.Sprint(sorted) != fmt.Sprint(want) {
			t.Fatalf("names shown %q, want %q as text", names, hostile)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('img, #standings script').length`); n != 0 {
			t.Fatalf("%d elements made of a bot's name", n)
		}
	})
}

// TestReportOf200BotsInBrowser: the heat map has no bound on the field
// (the text crosstable stops at 16 bots): a 200-bot round-robin's report
// renders every cell, within a file size a browser opens at once.
func TestReportOf200BotsInBrowser(t *testing.T) {
	ctx := browsertest.New(t)
	{
		dir := syntheticRoundRobin(t, 200)
		page, r := open(t, ctx, dir)
		fi, err := os.Stat(page)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("200 bots, %d games: report %.1f MiB", len(r.Records), float64(fi.Size())/(1<<20))
		if fi.Size() > 16<<20 {
			t.Fatalf("report of 200 bots is %d bytes, over 16 MiB", fi.Size())
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#matrix rect.cell').length`); n != 200*200 {
			t.Fatalf("%d matrix cells, want %d", n, 200*200)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#standings tbody tr').length`); n != 200 {
			t.Fatalf("%d standings rows, want 200", n)
		}
		st := r.Standings
		last, first := st.Standings[199].Name, st.Standings[0].Name
		tip := eval[string](t, ctx, `document.querySelector('#matrix rect[data-r="199"][data-c="0"]').getAttribute('data-tip')`)
		if want := cellTip(st, last, first); tip != want {
			t.Fatalf("cell (199, 0) says %q, want %q", tip, want)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#games tbody tr').length`); n != len(r.Records) || n != len(mustRead(t, dir)) {
			t.Fatalf("%d game rows, want %d", n, len(r.Records))
		}
	}
}

func indexOfRow(st *tournament.Standings, name string) int {
	for i, r := range st.Standings {
		if r.Name == name {
			return i
		}
	}
	return -1
}

func mustRead(t *testing.T, dir string) []ledger.Record {
	t.Helper()
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
