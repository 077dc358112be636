package web_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ladder/web"
)

// TestStart: Start serves the leaderboard on the address it listens on
// until its context ends, then stops (done closes); an address already
// taken is its error, before anything is served.
func TestStart(t *testing.T) {
	dir := newLadder(t, "2", []string{"random", "first"}, 4)
	s, err := web.New(dir, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, done, err := web.Start(ctx, "127.0.0.1:0", s)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "random") {
		t.Errorf("GET %s: %d, %d bytes without the bots' names", url, resp.StatusCode, len(body))
	}

	s2, err := web.New(dir, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, _, err := web.Start(ctx, strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"), s2); err == nil {
		t.Errorf("a second Start on %s: no error", url)
	}

	cancel()
	<-done
	if _, err := http.Get(url); err == nil {
		t.Errorf("GET %s after the context ended: still served", url)
	}
}
