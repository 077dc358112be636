package web_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/arena/ledger"
)

// hostile are bot names a contestant may choose (no space, no slash: the
// intake's rule) that are markup if not escaped.
var hostile = []string{`<script>`, `"><b>x</b>`, `<img src=x onerror=alert(1)>`}

// TestEscaped: a bot's name is text on every page, never markup, and a
// ledger line naming a replay outside replays/ is not read.
func TestEscaped(t *testing.T) {
	dir := newLadder(t, "2", bots4, 4)
	// The ladder file takes no such name, the intake does: the roster
	// says what it said of them.
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []ladder.Event{
		{Kind: ladder.Admitted, Bot: hostile[0], Version: 1, Command: "mem:random"},
		{Kind: ladder.Admitted, Bot: hostile[1], Version: 1, Command: "mem:random"},
		{Kind: ladder.Suspended, Bot: hostile[1], Reason: "<b>crashed</b>"},
		{Kind: ladder.Refused, Bot: hostile[0], Submission: "<b>sub", Report: "<b>report</b>"},
	} {
		if err := l.Roster.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	// A table of two games whose bots and replay are what no arena
	// writes: the pages must still escape them, and the viewer must not
	// follow the path.
	w, err := ledger.Open(dir + "/" + ledger.FileName)
	if err != nil {
		t.Fatal(err)
	}
	_, recs := ledgerLines(t, dir)
	bots := []string{ladder.VersionName(hostile[2], 1), ladder.VersionName(hostile[0], 1)}
	forged := []string{"forged-1", "forged-2"}
	for g, id := range forged {
		rec := ledger.Record{Index: len(recs) + g, GameID: id, Round: 999, Bots: bots, Ranks: []int{1, 2}, Scores: []float64{1, 0},
			Reason: "<i>won</i>", Replay: "../" + ladder.FileName,
			Forfeits: []ledger.SeatFailure{{Bot: bots[1]}}}
		rec.Forfeits[0].Reason, rec.Forfeits[0].Detail = "crash", "<script>alert(2)</script>"
		if err := w.Append(rec); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	_, hs := serve(t, dir, web.Options{})
	for _, tt := range []struct{ path, name string }{
		{"/", hostile[1]}, {"/games", hostile[2]},
		{"/bot/" + url.PathEscape(hostile[0]), hostile[0]}, {"/bot/" + url.PathEscape(hostile[1]), hostile[1]}, {"/bot/" + url.PathEscape(hostile[2]), hostile[2]},
	} {
		p := tt.path
		code, body := get(t, hs, p)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", p, code)
		}
		for _, bad := range []string{"<b>", "<img", "<i>won", "alert(2)</script>"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s: %q unescaped", p, bad)
			}
		}
		if n := strings.Count(body, "<script>"); n != 1 { // the page's own
			t.Errorf("%s: %d <script> tags, want the page's one", p, n)
		}
		if esc := html.EscapeString(tt.name); !strings.Contains(body, esc) {
			t.Errorf("%s: no escaped name %s", p, esc)
		}
	}
	if _, body := get(t, hs, "/bot/"+url.PathEscape(hostile[0])); !strings.Contains(body, "forged-1") || !strings.Contains(body, "&lt;script&gt;alert(2)") {
		t.Errorf("the bot's page lacks its forfeit and its detail")
	}
	code, body := get(t, hs, "/game/forged-1")
	if code != http.StatusNotFound || !strings.Contains(body, "names no replay") {
		t.Errorf("/game/forged-1 (replay ../%s): status %d, %q; want 404, refused", ladder.FileName, code, body)
	}
	// The feed's data is JSON: a name in it is a string, whatever it holds.
	events := feed(t, hs, "0-0")
	for range len(recs) + 1 {
		next(t, events)
	}
	var g struct{ Bots []string }
	if e := next(t, events); json.Unmarshal([]byte(e.data), &g) != nil || len(g.Bots) != 2 || g.Bots[0] != bots[0] {
		t.Errorf("feed event %+v: want the forged game's bots %q", e, bots)
	}
}
