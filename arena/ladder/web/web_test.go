package web_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/arena/ledger"
)

var bots4 = []string{"b0", "b1", "b2", "b3"}

// ratingsOf folds recs as the ladder in dir rates them.
func ratingsOf(t *testing.T, dir string, recs []ledger.Record) *ladder.Ratings {
	t.Helper()
	f, err := ladder.LoadFile(dir + "/" + ladder.FileName)
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Resolve(dir+"/"+ladder.FileName, dir)
	if err != nil {
		t.Fatal(err)
	}
	return ladder.Fold(c.Rating, c.Initial, recs)
}

var rowRE = regexp.MustCompile(`(?s)<tr data-bot="([^"]*)">.*?<td class="version">([^<]*)</td>.*?<td class="rating">([^<]*)</td>.*?<td class="games">(\d+)</td>`)

// checkStandings: the standings page shows, per bot, the rating and
// games a fold of recs gives its version.
func checkStandings(t *testing.T, page string, want *ladder.Ratings) {
	t.Helper()
	rows := rowRE.FindAllStringSubmatch(page, -1)
	if len(rows) != len(bots4) {
		t.Fatalf("%d standings rows, want %d:\n%s", len(rows), len(bots4), page)
	}
	for _, r := range rows {
		rt := want.Get(r[2])
		if r[3] != strconv.FormatFloat(rt.Display(), 'f', 1, 64) || r[4] != strconv.Itoa(rt.Games) {
			t.Errorf("%s (%s): rating %s, %s games; want %.1f, %d", r[1], r[2], r[3], r[4], rt.Display(), rt.Games)
		}
	}
}

// TestHiddenDeal plays a ladder of duplicate pairs, then leaves its
// ledger as a ladder SIGKILLed between the two games of its last table
// does: the first game's line written, the second's not. Nothing of
// that game may show (pages, ratings, counts, replay, feed) until the
// second game's line is appended; then both do, and the feed says so.
func TestHiddenDeal(t *testing.T) {
	for _, tt := range []struct {
		name    string
		changed bool // told by Changed, or finding out by itself
	}{{"Changed", true}, {"polling", false}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := newLadder(t, "2", bots4, 12)
			lines, recs := ledgerLines(t, dir)
			i := lastPair(t, recs)
			g1, g2 := recs[i], recs[i+1]
			writeLines(t, dir, lines[:i+1])
			opt := web.Options{}
			if !tt.changed {
				opt.PollEvery = 5 * 1e6 // 5 ms: the test waits on the feed, not on a clock
			}
			s, hs := serve(t, dir, opt)
			events := feed(t, hs, "0-0")

			// Between the pair's games.
			for n := range i {
				if e := next(t, events); e.id != fmt.Sprintf("0-%d", n+1) || !strings.Contains(e.data, `"id":"`+recs[n].GameID+`"`) {
					t.Fatalf("event %d: %+v, want game %s", n+1, e, recs[n].GameID)
				}
			}
			_, page := get(t, hs, "/")
			checkStandings(t, page, ratingsOf(t, dir, recs[:i]))
			hidden := []string{g1.GameID, g2.GameID}
			paths := []string{"/", "/games", "/bot/" + botOf(g1.Bots[0]), "/bot/" + botOf(g1.Bots[1])}
			for _, p := range paths {
				code, body := get(t, hs, p)
				if code != http.StatusOK {
					t.Fatalf("%s: status %d", p, code)
				}
				for _, id := range hidden {
					if strings.Contains(body, id) {
						t.Errorf("%s shows %s, a game of a table still in play", p, id)
					}
				}
			}
			if code, _ := get(t, hs, "/game/"+g1.GameID); code != http.StatusNotFound {
				t.Errorf("/game/%s: status %d, want 404 while its table is in play", g1.GameID, code)
			}
			select {
			case e := <-events:
				t.Fatalf("the feed sent %+v between the pair's games", e)
			default:
			}

			// The second game's line is written.
			appendLines(t, dir, lines[i+1])
			if tt.changed {
				s.Changed()
			}
			for n, g := range []ledger.Record{g1, g2} {
				e := next(t, events)
				if e.kind != "game" || e.id != fmt.Sprintf("0-%d", i+n+1) || !strings.Contains(e.data, `"id":"`+g.GameID+`"`) {
					t.Fatalf("event after the pair: %+v, want game %s", e, g.GameID)
				}
			}
			_, page = get(t, hs, "/")
			checkStandings(t, page, ratingsOf(t, dir, recs[:i+2]))
			for _, p := range paths[1:] {
				if _, body := get(t, hs, p); !strings.Contains(body, g1.GameID) || !strings.Contains(body, g2.GameID) {
					t.Errorf("%s does not show the pair's games once both are recorded", p)
				}
			}
			if code, body := get(t, hs, "/game/"+g1.GameID); code != http.StatusOK || !strings.Contains(body, `id="replay-data"`) {
				t.Errorf("/game/%s: status %d, want its viewer", g1.GameID, code)
			}
		})
	}
}

func botOf(version string) string {
	b, _, _ := ladder.SplitVersion(version)
	return b
}

// TestRewritten: a ledger rewritten shorter (by hand) is read again from
// its start; the feed says "reset" (a page redraws itself whole), its id
// the games visible now, and goes on from there.
func TestRewritten(t *testing.T) {
	dir := newLadder(t, "2", bots4, 6)
	lines, recs := ledgerLines(t, dir)
	s, hs := serve(t, dir, web.Options{})
	events := feed(t, hs, "")
	writeLines(t, dir, lines[:2])
	s.Changed()
	if e := next(t, events); e.kind != "reset" || e.id != "1-2" {
		t.Fatalf("event %+v, want a reset to 2 games", e)
	}
	if _, page := get(t, hs, "/"); !strings.Contains(page, `<span id="visible">2</span>`) {
		t.Errorf("the standings do not count the 2 games left")
	}
	appendLines(t, dir, lines[2:4]...)
	s.Changed()
	for n := 2; n < 4; n++ {
		if e := next(t, events); e.kind != "game" || e.id != fmt.Sprintf("1-%d", n+1) || !strings.Contains(e.data, recs[n].GameID) {
			t.Fatalf("event %+v, want game %s", e, recs[n].GameID)
		}
	}
}

// TestFeedResumes: a browser reconnecting with the last event id it saw
// (Last-Event-ID) gets the games after it, and none before.
func TestFeedResumes(t *testing.T) {
	dir := newLadder(t, "2", bots4, 6)
	_, recs := ledgerLines(t, dir)
	_, hs := serve(t, dir, web.Options{})
	now := "0-" + strconv.Itoa(len(recs))
	for _, tt := range []struct{ lastID, after, kind, id string }{
		{"0-2", "", "game", "0-3"},
		{"0-4", "0-1", "game", "0-5"}, // the browser's latest wins
		{"", "0-0", "game", "0-1"},
		{"9-1", "", "reset", now}, // of another generation: redraw, from now
		{"0-99", "", "reset", now},
	} {
		e := next(t, reconnect(t, hs, tt.after, tt.lastID))
		if e.kind != tt.kind || e.id != tt.id {
			t.Errorf("Last-Event-ID %q, after %q: first event %+v, want %s %s", tt.lastID, tt.after, e, tt.kind, tt.id)
		}
	}
}
