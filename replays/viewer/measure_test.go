package viewer_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

// longest is the longest game the engines allow in practice: Uno with 10
// seats to 500 points under random play, which draws voluntarily and
// forgets the call (seed 30 is the longest of the first 40 seeds: 4,894
// plies). baseline is a short Banqi game, measured in the same run.
var (
	longest  = game{name: "uno", seats: 10, seed: 30, options: map[string]string{"target": "500"}}
	baseline = game{name: "banqi", seats: 2, seed: 11}
)

// BenchmarkWriteHTML is the time to re-simulate a replay and write its
// page, for the longest game against the Banqi baseline.
func BenchmarkWriteHTML(b *testing.B) {
	long, short := play(b, longest), play(b, baseline)
	per := func(r *replays.Replay, opts viewer.Options) (float64, int) {
		var buf bytes.Buffer
		const runs = 3
		start := time.Now()
		for range runs {
			buf.Reset()
			if err := viewer.WriteHTML(&buf, r, opts); err != nil {
				b.Fatal(err)
			}
		}
		return float64(time.Since(start).Microseconds()) / runs / 1000, buf.Len()
	}
	for b.Loop() {
		longMs, longSize := per(long, viewer.Options{})
		seatMs, seatSize := per(long, viewer.ForSeat(0))
		shortMs, shortSize := per(short, viewer.Options{})
		b.ReportMetric(longMs, "ms/long-page")
		b.ReportMetric(seatMs, "ms/long-seat-page")
		b.ReportMetric(shortMs, "ms/banqi-page")
		b.ReportMetric(longMs/shortMs, "long/banqi")
		b.Logf("long game: %d plies, page %d bytes (seat 0's: %d); banqi: %d plies, %d bytes",
			long.Result.Plies, longSize, seatSize, short.Result.Plies, shortSize)
	}
}

// BenchmarkFirstPaint opens the longest game's page in Chromium and
// reports the time to the first contentful paint and until the viewer has
// drawn its first position, against the Banqi baseline; then the time to
// jump to the end and to step back once (both in the page's own clock).
func BenchmarkFirstPaint(b *testing.B) {
	ctx := browsertest.New(b)
	dir := b.TempDir()
	pages := map[string]string{}
	for name, g := range map[string]game{"long": longest, "banqi": baseline} {
		var buf bytes.Buffer
		if err := viewer.WriteHTML(&buf, play(b, g), viewer.Options{}); err != nil {
			b.Fatal(err)
		}
		pages[name] = filepath.Join(dir, name+".html")
		writeFile(b, pages[name], buf.Bytes())
	}
	type timing struct {
		FCP, Ready, End, Back, Parse, Script float64
	}
	measure := func(path string) timing {
		if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.FileURL(b, path)),
			chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
			b.Fatal(err)
		}
		t, err := chromedp.Run(ctx, chromedp.Poll[timing](`(() => {
			const p = performance.getEntriesByName("first-contentful-paint")[0];
			if (!p) return null;
			const nav = performance.getEntriesByType("navigation")[0];
			const t0 = performance.now(); document.querySelector("#last").click();
			const end = performance.now() - t0;
			const t1 = performance.now(); document.querySelector("#prev").click();
			const v = window.viewerTimings;
			return {FCP: p.startTime, Ready: nav.domContentLoadedEventEnd, End: end, Back: performance.now() - t1, Parse: v.parseMs, Script: v.readyMs};
		})()`))
		if err != nil {
			b.Fatal(err)
		}
		return t
	}
	for b.Loop() {
		long, short := measure(pages["long"]), measure(pages["banqi"])
		b.ReportMetric(long.FCP, "ms/long-first-paint")
		b.ReportMetric(short.FCP, "ms/banqi-first-paint")
		b.ReportMetric(long.FCP/short.FCP, "long/banqi")
		b.ReportMetric(long.Ready, "ms/long-loaded")
		b.ReportMetric(long.Parse, "ms/long-parse")
		b.ReportMetric(long.Script, "ms/long-script")
		b.ReportMetric(short.Script, "ms/banqi-script")
		b.ReportMetric(long.End, "ms/long-jump-to-end")
		b.ReportMetric(long.Back, "ms/long-step-back")
	}
}

func writeFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	if err := writeBytes(path, data); err != nil {
		tb.Fatal(fmt.Errorf("writing %s: %w", path, err))
	}
}
