package report_test

// What a person sees in the report, checked in the browser: names laid
// out whole, each forfeit's detail, every column explained, a bracket's
// unplayed reset, how many games there are, and who "seat N" is.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/report"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/internal/testkit"
)

// brokenWordsJS lists the words (runs of the text between spaces) of the
// elements selected by %q that the page lays out over more than one
// line: a name broken inside a word ("cras" / "h5").
const brokenWordsJS = `Array.from(document.querySelectorAll(%q)).flatMap(e => {
	const out = [];
	const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
	for (let n; (n = walk.nextNode()); ) {
		for (const m of n.data.matchAll(/\S+/g)) {
			const r = document.createRange();
			r.setStart(n, m.index);
			r.setEnd(n, m.index + m[0].length);
			const lines = new Set(Array.from(r.getClientRects()).map(b => Math.round(b.top)));
			if (lines.size > 1) out.push(m[0]);
		}
	}
	return out;
})`

// nameCells are the page's elements that show bot names.
const nameCells = `#standings td.name, #failures td.bot, #games td.seats, .slot .who`

// checkNamesWhole fails t if a name cell of the page breaks a word, at
// the window's width and at a narrow one, where the tables are squeezed.
func checkNamesWhole(t *testing.T, ctx context.Context) {
	t.Helper()
	defer chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
	for _, width := range []int64{1280, 700} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		if n := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll(%q).length`, nameCells)); n == 0 {
			t.Fatal("no name cells in the page")
		}
		if broken := eval[[]string](t, ctx, fmt.Sprintf(brokenWordsJS, nameCells)); len(broken) > 0 {
			t.Errorf("at %d px, words of names broken over lines: %q", width, broken)
		}
	}
}

// shoot saves a screenshot of the page as name in ARENA_SCREENSHOTS, if
// set (relative to the module root).
func shoot(t *testing.T, ctx context.Context, name string) {
	if shots := os.Getenv(envScreenshots); shots != "" {
		browsertest.Screenshot(t, ctx, filepath.Join(testkit.ModuleRoot(t), shots, name))
	}
}

// seatRef is how an engine's reason names a seat.
var seatRef = regexp.MustCompile(`\bseat (\d+)\b`)

// fourSeats: a 4-seat Bounce round-robin with two bots that never start
// (as in an organiser's cup of bots of mixed quality): names whole, each
// forfeit's detail, the k-seat columns explained, and the reasons naming
// the bot of the seat they mention.
func fourSeats(t *testing.T, ctx context.Context) {
	dir := runTournament(t, tournament.File{Name: "cup", Game: "bounce", Seats: 4, GamesPerEncounter: 4,
		Bots: []tournament.BotFile{botFile("greedy", "greedy"), botFile("random1", "random"), botFile("random2", "random"),
			botFile("crash5", "false"), botFile("crash6", "false")}})
	_, r := open(t, ctx, dir)
	shoot(t, ctx, "report-four-seats.png")
	checkNamesWhole(t, ctx)

	// Each forfeit row shows the detail the bot's games give most often,
	// clipped, and the whole of it on hover.
	type key struct{ bot, reason string }
	count := map[key]map[string]int{}
	for _, rec := range r.Records {
		for _, f := range rec.Forfeits {
			k := key{f.Bot, string(f.Reason)}
			if count[k] == nil {
				count[k] = map[string]int{}
			}
			count[k][f.Detail]++
		}
	}
	rows := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll('#failures tr[data-kind="forfeit"]')).map(tr =>
		[tr.dataset.bot, tr.dataset.reason, tr.querySelector('.detail .text').textContent, tr.querySelector('.detail .text').title,
		 (tr.querySelector('.detail .others') || {textContent: ''}).textContent])`)
	if len(rows) != len(count) || len(rows) < 2 {
		t.Fatalf("forfeit rows %q, want one per bot and reason of %v", rows, count)
	}
	for _, row := range rows {
		details := count[key{row[0], row[1]}]
		if details[row[3]] == 0 || slices.Max(slices.Collect(maps.Values(details))) > details[row[3]] {
			t.Errorf("%s %s: the title %q is not the most frequent detail of %v", row[0], row[1], row[3], details)
		}
		if shown := strings.TrimSuffix(row[2], "…"); shown == "" || !strings.HasPrefix(row[3], shown) || len([]rune(row[2])) > report.MaxDetail {
			t.Errorf("%s %s: detail shown %q, want at most %d characters of %q", row[0], row[1], row[2], report.MaxDetail, row[3])
		}
		if others := len(details) - 1; (others > 0) != (row[4] != "") {
			t.Errorf("%s %s: %d other details, the row says %q", row[0], row[1], others, row[4])
		}
	}

	// Every column says what it is; the note under the table says what
	// placements, score and the Plackett-Luce ordinal are.
	titles := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#standings thead th')).map(th => th.textContent + ': ' + th.title)`)
	for _, title := range titles {
		if strings.HasSuffix(title, ": ") {
			t.Errorf("column %q has no explanation", title)
		}
	}
	note := strings.ToLower(eval[string](t, ctx, `document.getElementById('standings-note').textContent`))
	for _, want := range []string{"placements", "plackett-luce", "μ − 3σ", "can order"} {
		if !strings.Contains(note, want) {
			t.Errorf("the standings note does not explain %q: %q", want, note)
		}
	}
	checkRankNote(t, ctx, r.Standings)

	// "ended by" names the bot of each seat a reason mentions.
	reasons := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#games tbody td.reason')).map(td => td.textContent)`)
	if len(reasons) != len(r.Records) {
		t.Fatalf("%d reasons in the games table, %d games", len(reasons), len(r.Records))
	}
	named := 0
	for i, rec := range r.Records {
		for _, m := range seatRef.FindAllStringSubmatch(rec.Reason, -1) {
			var s int
			fmt.Sscan(m[1], &s)
			if want := fmt.Sprintf("seat %d (%s)", s, rec.Bots[s]); !strings.Contains(reasons[i], want) {
				t.Errorf("game %s ended by %q, want %q in it", rec.GameID, reasons[i], want)
			}
			named++
		}
	}
	if named == 0 {
		t.Fatal("no reason names a seat: the test checks nothing")
	}
}

// checkRankNote fails t unless the page says, under the standings,
// which bots rank above one with a higher rating (next to each other in
// the table; the first three such), and says nothing of it when none do.
func checkRankNote(t *testing.T, ctx context.Context, st *tournament.Standings) {
	t.Helper()
	var want []string
	rows := st.Standings
	for i := 0; i+1 < len(rows) && len(want) < 3; i++ {
		a, b := rows[i], rows[i+1]
		if a.Rank < b.Rank && a.Rating != nil && b.Rating != nil && *a.Rating < *b.Rating {
			want = append(want, a.Name+" ranks above "+b.Name)
		}
	}
	said := eval[string](t, ctx, `(document.getElementById('rank-vs-rating') || {textContent: ''}).textContent`)
	for _, w := range want {
		if !strings.Contains(said, w) {
			t.Errorf("the page does not say %q: %q", w, said)
		}
	}
	if len(want) == 0 && said != "" {
		t.Errorf("no bot ranks above a higher rating, the page says %q", said)
	}
}

// rankAndRating: in a gauntlet, steady scores 4 of 6 against upset and
// two weak bots, upset 2 of 4, beating steady twice but losing to
// strong; steady ranks above upset, which rates higher for whom it beat,
// and the page says so.
func rankAndRating(t *testing.T, ctx context.Context) {
	seed := uint64(1)
	f := tournament.File{Name: "gauntlet", Game: "banqi", Format: "gauntlet", Gauntlet: []string{"strong", "steady"}, GamesPerEncounter: 2, Settings: options.Settings{Seed: &seed}}
	for _, name := range []string{"strong", "steady", "upset", "weak1", "weak2"} {
		f.Bots = append(f.Bots, tournament.BotFile{Name: name, Command: "true"})
	}
	dir := syntheticTournament(t, f, func(seats []int) bool {
		if slices.Contains(seats, 1) && slices.Contains(seats, 2) { // steady and upset: upset wins
			return seats[0] == 2
		}
		return seats[0] < seats[1] // else the bot listed first
	})
	st := openStandings(t, ctx, dir)
	steady, upset := st.Standings[indexOfRow(st, "steady")], st.Standings[indexOfRow(st, "upset")]
	if steady.Rank+1 != upset.Rank || *steady.Rating >= *upset.Rating {
		t.Fatalf("the fixture: steady rank %d rating %.1f, upset rank %d rating %.1f; want steady just above upset, with a lower rating",
			steady.Rank, *steady.Rating, upset.Rank, *upset.Rating)
	}
	checkRankNote(t, ctx, st)
	note := strings.ToLower(eval[string](t, ctx, `document.getElementById('standings-note').textContent`))
	for _, want := range []string{"score per game", "bradley-terry", "whom", "can order", "steady ranks above upset"} {
		if !strings.Contains(note, want) {
			t.Errorf("the standings note does not say %q: %q", want, note)
		}
	}
	shoot(t, ctx, "report-rank-and-rating.png")
}

// doubleElimination: a finished bracket whose winners' champion won the
// grand final: the reset is shown unplayed, with no winner and no
// points, and the summary counts the games without a "?".
func doubleElimination(t *testing.T, ctx context.Context) {
	dir := runTournament(t, tournament.File{Name: "de", Format: "double-elimination", MaxGames: 4,
		Bots: []tournament.BotFile{botFile("g", "greedy"), botFile("r1", "random"), botFile("r2", "random"), botFile("r3", "random")}})
	st := openStandings(t, ctx, dir)
	shoot(t, ctx, "report-double-elimination.png")
	br := st.Details.Bracket
	var reset *schedule.BracketMatch
	for i, round := range br.Rounds {
		if round.Name == "gf2" {
			reset = &br.Rounds[i].Matches[0]
		}
	}
	if reset == nil || reset.Status != "not needed" || st.Total >= 0 || br.Champion < 0 {
		t.Fatalf("the fixture's bracket: reset %+v, total %d, champion %d; want a finished bracket with its reset not needed", reset, st.Total, br.Champion)
	}
	got := eval[[]string](t, ctx, `(() => { const m = document.querySelector('[data-match="gf2"]');
		return [m.className, String(m.querySelectorAll('.slot.won').length), Array.from(m.querySelectorAll('.pts')).map(p => p.textContent).join(''), m.textContent]; })()`)
	if !strings.Contains(got[0], "status-not-needed") || got[1] != "0" || got[2] != "" || !strings.Contains(got[3], "not played") {
		t.Errorf("the unplayed reset is drawn as class %q, %s winners, points %q, text %q; want no winner, no points, and \"not played\"", got[0], got[1], got[2], got[3])
	}
	if gf1 := eval[string](t, ctx, `document.querySelector('[data-match="gf1"] .slot.won .who').textContent`); gf1 != st.Bots[br.Champion] {
		t.Errorf("the grand final's winner is drawn as %q, the champion is %s", gf1, st.Bots[br.Champion])
	}
	note := strings.ToLower(eval[string](t, ctx, `document.getElementById('standings-note').textContent`))
	for _, want := range []string{"bracket", "bradley-terry", "whom", "can order"} {
		if !strings.Contains(note, want) {
			t.Errorf("the standings note does not explain %q: %q", want, note)
		}
	}
	checkRankNote(t, ctx, st)
	summary := eval[string](t, ctx, `document.getElementById('summary').textContent`)
	if want := fmt.Sprintf(": %d games.", st.Games); !strings.Contains(summary, want) || strings.Contains(summary, "?") {
		t.Errorf("summary %q, want %q and no \"?\"", summary, want)
	}
}
