// Package browsertest opens the arena's HTML files in a real headless
// Chromium (Debian's, found on PATH: nothing here downloads a browser),
// driven over the DevTools protocol with chromedp. A test that needs a
// browser skips with a message when none is installed, and fails under CI
// (testkit.Tool), where .ci/run installs Chromium.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/internal/testkit"
)

// browserNames are the names Chromium goes by on PATH, Debian's first.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome"}

// pageTimeout bounds everything one test does in the browser, so a page
// that never finishes loading fails the test instead of hanging it.
const pageTimeout = 2 * time.Minute

// New starts a headless Chromium for tb and returns a chromedp context for
// one tab in it; the browser is closed when the test ends. It never touches
// the network: pages are opened from file:// URLs (FileURL).
func New(tb testing.TB) context.Context {
	tb.Helper()
	exe := find(tb)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(tb.TempDir()),
		// As root (CI containers are) Chromium refuses to start sandboxed.
		chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, pageTimeout)
	tb.Cleanup(func() {
		cancelTimeout()
		cancelTab()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		tb.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

// find is the first browser on PATH; with none, the test is skipped (or,
// under CI, failed) naming Debian's package.
func find(tb testing.TB) string {
	tb.Helper()
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return testkit.Tool(tb, browserNames[0])
}

// FileURL is the file:// URL of path, made absolute.
func FileURL(tb testing.TB, path string) string {
	tb.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		tb.Fatal(err)
	}
	return "file://" + filepath.ToSlash(abs)
}

// Screenshot saves a PNG of the whole page to path (for docs/), or fails tb.
func Screenshot(tb testing.TB, ctx context.Context, path string) {
	tb.Helper()
	// Quality 100 is chromedp's way of asking for PNG rather than JPEG.
	save(tb, ctx, chromedp.FullScreenshot(100), path)
}

// WindowScreenshot saves a PNG of what the window shows (the page as
// scrolled, not the whole of it) to path, or fails tb.
func WindowScreenshot(tb testing.TB, ctx context.Context, path string) {
	tb.Helper()
	save(tb, ctx, chromedp.CaptureScreenshot(), path)
}

func save(tb testing.TB, ctx context.Context, shot chromedp.Action[[]byte], path string) {
	tb.Helper()
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		tb.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Fatal(err)
	}
}
