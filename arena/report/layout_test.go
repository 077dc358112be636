package report_test

// The report laid out in the browser, measured by the boxes Chromium
// draws: chart labels whole or cut with "…" at their end (never clipped,
// never losing their start), tables and heat-map figures within their
// boxes at a 1280 px window, axis ticks without "-0", and names broken
// inside a word only when a word is longer than report.MaxWord.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/report"
	"github.com/arena-dev/arena/arena/tournament"
)

// overflowJS lists what does not fit the window: the page wider than
// the window, a table wider than its section, a table cell whose
// content reaches past it, a heat-map figure outside its cell.
const overflowJS = `(() => {
	const out = [];
	const px = x => Math.round(x);
	const de = document.documentElement;
	if (de.scrollWidth > window.innerWidth) out.push('the page is ' + de.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
	for (const table of document.querySelectorAll('table')) {
		if (table.getClientRects().length === 0) continue; // folded away
		const sec = table.closest('section'), t = table.getBoundingClientRect(), s = sec.getBoundingClientRect();
		const style = getComputedStyle(sec);
		if (t.right > s.right - parseFloat(style.paddingRight) + 0.5) out.push('#' + sec.id + ': the table ends at ' + px(t.right) + ' px, its section at ' + px(s.right));
		for (const cell of table.querySelectorAll('th, td')) {
			const r = document.createRange();
			r.selectNodeContents(cell);
			const c = cell.getBoundingClientRect(), b = r.getBoundingClientRect();
			if (b.width > 0 && (b.right > c.right + 0.5 || b.left < c.left - 0.5)) out.push('#' + sec.id + ': ' + JSON.stringify(cell.textContent.slice(0, 40)) + ' reaches past its cell');
		}
	}
	const cells = Array.from(document.querySelectorAll('#matrix rect.cell')).map(e => e.getBoundingClientRect());
	for (const text of document.querySelectorAll('#matrix text')) {
		if (!/^[0-9.]+\/[0-9]+$/.test(text.textContent)) continue;
		const b = text.getBoundingClientRect(), x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
		const c = cells.find(c => c.left <= x && x <= c.right && c.top <= y && y <= c.bottom);
		if (!c || b.left < c.left - 0.5 || b.right > c.right + 0.5 || b.top < c.top - 0.5 || b.bottom > c.bottom + 0.5) {
			out.push('the heat map figure ' + text.textContent + ' (' + px(b.width) + ' px) is not within its cell' + (c ? ' (' + px(c.width) + ' px)' : ''));
		}
	}
	return out;
})()`

// checkFits fails t if anything of the page does not fit a window of
// width px (overflowJS).
func checkFits(t *testing.T, ctx context.Context, width int64) {
	t.Helper()
	defer chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
		t.Fatal(err)
	}
	for _, o := range eval[[]string](t, ctx, overflowJS) {
		t.Errorf("at %d px: %s", width, o)
	}
}

// chartLabel is a bot's name as a chart shows it.
type chartLabel struct {
	// Where is "row" or "column" of the heat map, or "end" of a line of
	// the ratings chart.
	Where, Shown string
	// Hover is the name shown on hover (an SVG title).
	Hover string
	// Clipped: the label reaches outside its SVG, or over the heat map's
	// cells.
	Clipped bool
}

// chartLabelsJS reads the heat map's row and column labels and the
// ratings chart's line ends.
const chartLabelsJS = `(() => {
	const out = [];
	const inside = (b, s) => b.left >= s.left - 0.5 && b.right <= s.right + 0.5 && b.top >= s.top - 0.5 && b.bottom <= s.bottom + 0.5;
	const hover = e => { const g = e.closest('g'); const t = g && g.querySelector(':scope > title'); return t ? t.textContent : ''; };
	const svg = document.querySelector('#matrix svg');
	if (svg) {
		const s = svg.getBoundingClientRect();
		const cells = Array.from(svg.querySelectorAll('rect.cell')).map(e => e.getBoundingClientRect());
		const left = Math.min(...cells.map(c => c.left)), top = Math.min(...cells.map(c => c.top));
		for (const text of svg.querySelectorAll('text')) {
			if (/^[0-9.]+\/[0-9]+$/.test(text.textContent)) continue; // a cell's figures
			const b = text.getBoundingClientRect(), column = text.hasAttribute('transform');
			const over = column ? b.bottom > top + 0.5 : b.right > left + 0.5;
			out.push({Where: column ? 'column' : 'row', Shown: text.textContent, Hover: hover(text), Clipped: !inside(b, s) || over});
		}
	}
	for (const chart of document.querySelectorAll('#progression svg.chart')) {
		const s = chart.getBoundingClientRect();
		for (const text of chart.querySelectorAll('g.series text')) {
			out.push({Where: 'end', Shown: text.textContent, Hover: hover(text), Clipped: !inside(text.getBoundingClientRect(), s)});
		}
	}
	return out;
})()`

// checkLabels fails t unless every chart label shows a bot's name
// whole, or its start with "…", within its chart, the whole name on
// hover; it returns the labels.
func checkLabels(t *testing.T, ctx context.Context, names []string) []chartLabel {
	t.Helper()
	labels := eval[[]chartLabel](t, ctx, chartLabelsJS)
	for _, l := range labels {
		start, cut := strings.CutSuffix(l.Shown, "…")
		switch {
		case !slices.Contains(names, l.Hover):
			t.Errorf("%s label %q: hovered, it shows %q, not a bot's name", l.Where, l.Shown, l.Hover)
		case l.Shown != l.Hover && (!cut || start == "" || !strings.HasPrefix(l.Hover, start)):
			t.Errorf("%s label %q for %q: want the name whole, or its start and …", l.Where, l.Shown, l.Hover)
		}
		if l.Clipped {
			t.Errorf("%s label %q is clipped (it reaches outside its chart, or over the cells)", l.Where, l.Shown)
		}
	}
	return labels
}

// chartLabels (items 1 and 3): a round-robin of bots named as people
// name them, a 25- and a 26-character name among them and one far
// longer: the heat map and the ratings chart show each name whole where
// it fits and its start with "…" where it does not, within the chart,
// the whole name on hover.
func chartLabels(t *testing.T, ctx context.Context) {
	const huge = "a_bot_whose_name_is_far_too_long_for_any_chart_label_at_all"
	fits := []string{"montecarlo_tree_search_v2", "GreedyWithLookahead_depth3"}
	dir := runTournament(t, tournament.File{Name: "labels", Format: "round-robin",
		Bots: []tournament.BotFile{botFile(fits[0], "greedy"), botFile(fits[1], "false"), botFile(huge, "random"), botFile("r", "random")}})
	_, r := open(t, ctx, dir)
	shoot(t, ctx, "report-chart-labels.png")
	names := r.Standings.Bots
	labels := checkLabels(t, ctx, names)
	shown := map[string]map[string]string{} // where, name: shown
	for _, l := range labels {
		if shown[l.Where] == nil {
			shown[l.Where] = map[string]string{}
		}
		shown[l.Where][l.Hover] = l.Shown
	}
	for _, where := range []string{"row", "column"} {
		if len(shown[where]) != len(names) {
			t.Errorf("heat map %s labels %q, want one per bot", where, shown[where])
		}
		for _, name := range fits {
			if got := shown[where][name]; got != name {
				t.Errorf("heat map %s label %q, want %q whole: it fits", where, got, name)
			}
		}
		if got := shown[where][huge]; !strings.HasSuffix(got, "…") {
			t.Errorf("heat map %s label %q of a %d-character name: want it cut with …", where, got, len(huge))
		}
	}
	// The lines named are the best and those apart from them: the
	// forfeiter's, far below the others, always.
	labelled := 0
	for _, name := range fits {
		if got, ok := shown["end"][name]; ok {
			labelled++
			if got != name {
				t.Errorf("ratings chart label %q, want %q whole: it fits", got, name)
			}
		}
	}
	if labelled == 0 {
		t.Errorf("the ratings chart names none of %q: labels %q", fits, shown["end"])
	}
}

// zeroTick (item 3): four bots at 4-seat tables, north first every game
// and the others placed in turn: the Plackett-Luce ordinals start at 0,
// north's climbs past 10 (the ticks 5 apart) and the lowest stays above
// -5, where the ticks' first multiple of 5 is a negative zero; the axis
// reads "0" there.
func zeroTick(t *testing.T, ctx context.Context) {
	dir := t.TempDir()
	bots := []string{"north", "east", "south", "west"}
	var recs []ledger.Record
	for i := range 8 {
		rec := ledger.Record{Index: i, GameID: fmt.Sprintf("z-g%d", i), Seed: 1, Bots: bots, Ranks: []int{1}, Reason: "out of cards", Plies: 40}
		for s := range 3 {
			rec.Ranks = append(rec.Ranks, 2+(s+i)%3)
		}
		recs = append(recs, rec)
	}
	writeLedger(t, dir, recs)
	open(t, ctx, dir)
	shoot(t, ctx, "report-zero-tick.png")
	ticks := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#progression svg.chart .axes text[dx="-6"]')).map(t => t.textContent)`)
	if !slices.Contains(ticks, "0") || slices.ContainsFunc(ticks, negZero.MatchString) {
		t.Errorf("the ratings chart's y ticks %q: want a tick \"0\", none \"-0\"", ticks)
	}
}

// negZero is zero written with a sign.
var negZero = regexp.MustCompile(`^[-−]0(\.0*)?$`)

// unoCup (items 1 and 2): a 4-seat Uno cup of 8 bots, as a table
// elimination with a bot struck and one that never starts, so that the
// standings have every column they can have (placements, out in,
// rating, forfeits, strikes), and a name of report.MaxWord characters:
// at a 1280 px window the standings, forfeits and games tables fit
// without scrolling, the heat map's figures fit their cells, and the
// labels their charts.
func unoCup(t *testing.T, ctx context.Context) {
	bots := []tournament.BotFile{botFile("montecarlo_tree_search_with_rollouts_v2a", "random"), botFile("GreedyWithLookahead_depth3", "greedy"),
		botFile("random_baseline", "striker"), botFile("crashes_at_start", "false"), botFile("greedy2", "greedy")}
	for _, name := range []string{"rnd3", "rnd4", "rnd5"} {
		bots = append(bots, botFile(name, "random"))
	}
	dir := runTournament(t, tournament.File{Name: "uno-cup", Game: "uno", Seats: 4, GamesPerEncounter: 4, Format: "table-elimination", Advance: 2, Bots: bots, Settings: options.Settings{Failure: options.Failure{Policy: "random", MaxStrikes: 3}}})
	_, r := open(t, ctx, dir)
	shoot(t, ctx, "report-uno-cup.png")
	columns := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#standings thead th')).map(th => th.textContent)`)
	if r.Standings.Seats != 4 || len(r.Standings.Standings) != len(bots) || !slices.Contains(columns, "out in") || !slices.Contains(columns, "strikes") {
		t.Fatalf("the fixture: %d seats, %d bots, columns %q; want a 4-seat cup of %d with out in and strikes", r.Standings.Seats,
			len(r.Standings.Standings), columns, len(bots))
	}
	checkFits(t, ctx, 1280)
	checkLabels(t, ctx, r.Standings.Bots)
	checkNamesWhole(t, ctx)
}

// wordLimit (item 4): names of report.MaxWord and MaxWord+1 characters,
// one with hyphens, one of two words the second long: at a 1280 px
// window every name fits whole and so is never broken; squeezed into a
// 700 px one, a name breaks inside a word only where the word is longer
// than MaxWord, in every table that shows it, and a long word breaks
// without making a shorter one beside it break. Names with hyphens
// alone, squeezed into 400 px, do not break at a hyphen.
func wordLimit(t *testing.T, ctx context.Context) {
	w40 := strings.Repeat("abcdefghij", report.MaxWord/10)
	w41 := w40 + "k"
	open(t, ctx, matchOf(t, w40, w41, "mcts-tree-search-v2-fast", "greedy_player", "alpha "+w41))
	shoot(t, ctx, "report-word-limit.png")
	checkFits(t, ctx, 1280)
	checkWords(t, ctx, 1280, 0)
	checkWords(t, ctx, 700, report.MaxWord)
	open(t, ctx, matchOf(t, "mcts-tree-search-v2-fast", "alpha-beta-v7", "x"))
	checkWords(t, ctx, 400, report.MaxWord)
}

// matchOf is a match directory written by hand whose games pair the
// bots in turn, each pair twice, each winning once.
func matchOf(t *testing.T, bots ...string) string {
	t.Helper()
	dir := t.TempDir()
	var recs []ledger.Record
	for i, a := range bots {
		for _, b := range bots[i+1:] {
			for k := range 2 {
				recs = append(recs, ledger.Record{Index: len(recs), GameID: fmt.Sprintf("m-g%d", len(recs)), Seed: 1, Bots: []string{a, b},
					Ranks: []int{1 + k, 2 - k}, Reason: "checkmate", Plies: 10})
			}
		}
	}
	writeLedger(t, dir, recs)
	return dir
}

// checkWords fails t if, at a window of width px, a name cell of the
// page breaks a word of at most maxWord characters over lines (any word,
// for maxWord 0).
func checkWords(t *testing.T, ctx context.Context, width int64, maxWord int) {
	t.Helper()
	defer chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
		t.Fatal(err)
	}
	for _, w := range eval[[]string](t, ctx, fmt.Sprintf(brokenWordsJS, nameCells)) {
		if n := len([]rune(w)); n <= maxWord || maxWord == 0 {
			t.Errorf("at %d px, the word %q (%d characters) is broken over lines", width, w, n)
		}
	}
}
