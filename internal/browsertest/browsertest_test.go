package browsertest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/internal/browsertest"
)

// TestOpensAFileAndRunsItsScript opens a page from disk and reads back what
// its inline script wrote: the browser runs JavaScript from file:// URLs.
func TestOpensAFileAndRunsItsScript(t *testing.T) {
	ctx := browsertest.New(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	html := `<!doctype html><title>t</title><p id="out">static</p>
<script>document.getElementById("out").textContent = "from " + (40 + 2);</script>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.FileURL(t, page))); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#out")))
	if err != nil {
		t.Fatal(err)
	}
	if text != "from 42" {
		t.Fatalf("page text %q, want %q", text, "from 42")
	}
	shot := filepath.Join(dir, "p.png")
	browsertest.Screenshot(t, ctx, shot)
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Fatalf("screenshot is not a PNG (%d bytes)", len(b))
	}
}
