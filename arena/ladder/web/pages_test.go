package web_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/arena/ledger"
)

// TestPages fetches each page of a played ladder and what a URL must not
// reach: a page or a file the server does not serve.
func TestPages(t *testing.T) {
	dir := newLadder(t, "2", bots4, 8)
	_, recs := ledgerLines(t, dir)
	_, hs := serve(t, dir, web.Options{})
	game := recs[0].GameID
	secret, err := os.ReadFile(filepath.Join(dir, deal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		code int
		has  []string
	}{
		{"/", http.StatusOK, []string{`id="standings"`, `href="/bot/b0"`, "b0.v1", "b3.v1", "<polyline"}},
		{"/games", http.StatusOK, []string{`href="/game/` + game + `"`, game}},
		{"/bot/b1", http.StatusOK, []string{`id="versions"`, "b1.v1", `id="h2h"`, `href="/bot/b0"`, `id="bot-games"`}},
		{"/game/" + game, http.StatusOK, []string{`id="replay-data"`}},
		{"/events/../", http.StatusOK, []string{`id="standings"`}}, // cleaned to /
		{"/bot/nobody", http.StatusNotFound, nil},
		{"/game/nope", http.StatusNotFound, nil},
		{"/nothing", http.StatusNotFound, nil},
		{"/bot/b1/extra", http.StatusNotFound, nil},
		// What is outside the pages: files of the directory, by any path.
		{"/" + deal.FileName, http.StatusNotFound, nil},
		{"/" + ledger.FileName, http.StatusNotFound, nil},
		{"/replays/", http.StatusNotFound, nil},
		{"/game/..%2F" + deal.FileName, http.StatusNotFound, nil},
		{"/game/..%2F..%2F" + ladder.FileName, http.StatusNotFound, nil},
		{"/bot/..%2F" + deal.FileName, http.StatusNotFound, nil},
		{"/bot/%2e%2e", http.StatusNotFound, nil},
		{"/game/%2e%2e%2f%2e%2e%2fetc%2fpasswd", http.StatusNotFound, nil},
		{"/bot/../../" + deal.FileName, http.StatusNotFound, nil},
	} {
		t.Run(url.PathEscape(tt.path), func(t *testing.T) {
			code, body := get(t, hs, tt.path)
			if code != tt.code {
				t.Fatalf("status %d, want %d", code, tt.code)
			}
			for _, s := range tt.has {
				if !strings.Contains(body, s) {
					t.Errorf("no %q in the page", s)
				}
			}
			if len(secret) > 0 && strings.Contains(body, strings.TrimSpace(string(secret))) {
				t.Error("the page holds the deal secret")
			}
		})
	}
}
