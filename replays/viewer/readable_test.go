package viewer_test

// What a person sees in the viewer, checked in the browser: a link to a
// ply keeps the title in sight, and the outcome waits for the end.

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/replays"
)

// titleInSight fails t unless the page's title is wholly in the window,
// above the toolbar (not under it, nor scrolled away).
func titleInSight(b browser, when string) {
	b.t.Helper()
	box := eval[[]float64](b, `(() => { const t = document.getElementById('title').getBoundingClientRect(),
		c = document.getElementById('controls').getBoundingClientRect();
		return [t.top, t.bottom, c.top, c.bottom, window.scrollY]; })()`)
	if box[0] < 0 || box[1] > box[2] {
		b.t.Errorf("%s: the title spans y %.0f to %.0f, the toolbar %.0f to %.0f (page scrolled by %.0f): the title is not in sight",
			when, box[0], box[1], box[2], box[3], box[4])
	}
}

// linkToPly opens the page at path by a link to ply 60, then moves by
// another link and by keys: the position is the link's, and the title
// stays in sight above the toolbar.
func linkToPly(t *testing.T, ctx context.Context, path string, positions int) {
	b := browser{t, ctx}
	if positions <= 90 {
		t.Fatalf("the game has %d positions, the test links to ply 90", positions)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	b.open(path + "#ply=60")
	if got := b.pos(); got != 60 {
		t.Fatalf("the link to ply 60 shows position %d", got)
	}
	if dir := screenshotDir(); dir != "" {
		browsertest.WindowScreenshot(t, ctx, filepath.Join(dir, "viewer-ply60.png"))
	}
	titleInSight(b, "opened at #ply=60")
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`location.hash = "#ply=90"`),
		chromedp.Poll[chromedp.Void](`document.body.dataset.pos === "90"`)); err != nil {
		t.Fatalf("the link to ply 90: %v (at %d)", err, b.pos())
	}
	titleInSight(b, "moved to #ply=90")
	b.keys(kb.End)
	titleInSight(b, "at the end")
	b.keys(kb.Home)
	titleInSight(b, "back at the start")
}

// outcomeAtTheEnd: the outcome (who won, and why) is out of sight until
// the last ply, where it shows with the bot of each seat the reason
// names; before it, a line says where it is.
func outcomeAtTheEnd(t *testing.T, ctx context.Context, r *replays.Replay, positions int) {
	b := browser{t, ctx}
	shown := func() []bool {
		return eval[[]bool](b, `['reason', 'outcome-later'].map(id => { const e = document.getElementById(id);
			return !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'; })`)
	}
	for _, p := range []int{0, 1, positions / 2, positions - 2} {
		b.jump(p)
		if got := shown(); got[0] || !got[1] {
			t.Errorf("position %d of %d: outcome shown %v, the line saying where it is %v; want it out of sight", p, positions-1, got[0], got[1])
		}
	}
	b.jump(0)
	b.screenshot("viewer-start.png")
	if later := b.text("#outcome-later"); !strings.Contains(later, fmt.Sprint(positions-1)) {
		t.Errorf("before the end the outcome panel says %q, want the last ply, %d", later, positions-1)
	}
	b.keys(kb.End)
	if got := shown(); !got[0] || got[1] {
		t.Errorf("at the last ply: outcome shown %v, the line saying where it is %v", got[0], got[1])
	}
	b.screenshot("viewer-end.png")
	if got := b.text("#reason"); got != r.Result.Reason {
		t.Errorf("outcome reason %q, want %q", got, r.Result.Reason)
	}
}
