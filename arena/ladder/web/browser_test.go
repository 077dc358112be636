package web_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/internal/browsertest"
)

// TestLiveInBrowser opens the standings in headless Chromium, checks the
// table shows the bots, then appends a whole table's games to the ledger
// (as the running ladder does) and checks the open page shows them
// without a reload, from the feed.
func TestLiveInBrowser(t *testing.T) {
	ctx := browsertest.New(t)
	dir := newLadder(t, "2", bots4, 8)
	lines, recs := ledgerLines(t, dir)
	i := lastPair(t, recs)
	writeLines(t, dir, lines[:i])
	s, hs := serve(t, dir, web.Options{})

	if err := chromedp.Do(ctx, chromedp.Navigate(hs.URL+"/")); err != nil {
		t.Fatal(err)
	}
	bots, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#standings tbody tr .name')).map(td => td.textContent).sort()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(bots) != len(bots4) || bots[0] != "b0" || bots[3] != "b3" {
		t.Fatalf("standings show bots %q, want %q", bots, bots4)
	}
	wait := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(time.Minute))); err != nil {
			t.Fatalf("waiting for %s: %v", js, err)
		}
	}
	wait(`document.getElementById('live').textContent === 'live'`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded = true`)); err != nil {
		t.Fatal(err)
	}
	games := `Array.from(document.querySelectorAll('#standings td.games')).reduce((n, td) => n + Number(td.textContent), 0)`
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](games)); err != nil || n != 2*i {
		t.Fatalf("standings count %d games (%v), want %d", n, err, 2*i)
	}

	appendLines(t, dir, lines[i], lines[i+1])
	s.Changed()
	wait(`document.getElementById('visible').textContent === '` + strconv.Itoa(i+2) + `'`)
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](games)); err != nil || n != 2*(i+2) {
		t.Errorf("standings count %d games (%v) after the table, want %d", n, err, 2*(i+2))
	}
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true && document.getElementById('live').textContent === 'live'`)); err != nil || !ok {
		t.Errorf("the page was reloaded, or its feed is down (%v)", err)
	}

	// A game's link opens its replay viewer, which draws under the
	// page's content policy (inline script only).
	if err := chromedp.Do(ctx, chromedp.Navigate(hs.URL+"/game/"+recs[i].GameID)); err != nil {
		t.Fatal(err)
	}
	wait(`document.querySelectorAll('#moves li.move').length === ` + strconv.Itoa(recs[i].Plies+1)) // the start and every move
}
