package web_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/arena/ledger"
	_ "github.com/arena-dev/arena/engine/uno"
)

// newLadder makes a ladder of in-memory bots (names, random and first
// in turn) at seats, one game at a time, and plays games games of it.
func newLadder(t testing.TB, seats string, names []string, games int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name: cup\ngame: uno\noptions:\n  scoring: single_hand\nseats: %s\nseed: 7\nconcurrency: 1\nclock:\n  move: 2s\nbots:\n", seats)
	for i, n := range names {
		fmt.Fprintf(&b, "  - name: %q\n    command: mem:%s\n", n, []string{"random", "first"}[i%2])
	}
	dir := initYAML(t, b.String())
	if games == 0 {
		return dir
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var warn bytes.Buffer
	_, err := ladder.Run(ctx, dir, ladder.RunOptions{Warn: &warn, AbandonAfter: time.Minute, OnGame: func(p ladder.Progress) {
		if p.Done >= games {
			cancel()
		}
	}})
	if err != nil {
		t.Fatalf("run: %v (warnings: %s)", err, warn.String())
	}
	return dir
}

// initYAML makes the ladder of the ladder file text.
func initYAML(t testing.TB, text string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "ladder.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ledgerLines are the lines of dir's ledger and their records.
func ledgerLines(t testing.TB, dir string) ([][]byte, []ledger.Record) {
	t.Helper()
	path := filepath.Join(dir, ledger.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, torn, err := ledger.Read[ledger.Record](path)
	if err != nil || torn != nil {
		t.Fatalf("ledger: %v, torn %v", err, torn)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	return lines[:len(recs)], recs
}

// lastPair is the index of the first game of the last table of recs
// whose two games are recs[i] and recs[i+1], every table before it
// whole: where a ladder SIGKILLed between a duplicate pair's games stops.
func lastPair(t testing.TB, recs []ledger.Record) int {
	t.Helper()
	for i := len(recs) - 2; i >= 0; i-- {
		if recs[i].Round == recs[i+1].Round && len(recs[i].Bots) == 2 {
			return i
		}
	}
	t.Fatalf("no duplicate pair in %d games", len(recs))
	return -1
}

// writeLines replaces dir's ledger with lines.
func writeLines(t testing.TB, dir string, lines [][]byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, ledger.FileName), bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
}

// appendLines appends lines to dir's ledger, as a run does.
func appendLines(t testing.TB, dir string, lines ...[]byte) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, ledger.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.Write(l); err != nil {
			t.Fatal(err)
		}
	}
}

// serve serves dir over HTTP until the test ends.
func serve(t testing.TB, dir string, opt web.Options) (*web.Server, *httptest.Server) {
	t.Helper()
	s, err := web.New(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Close()
		hs.Close()
	})
	return s, hs
}

// get fetches path; it returns the status and the body.
func get(t testing.TB, hs *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := hs.Client().Get(hs.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// event is one server-sent event.
type event struct{ id, kind, data string }

// feed opens /events (after: the query's value, "" for none) and sends
// its events on the channel until the test ends.
func feed(t testing.TB, hs *httptest.Server, after string) <-chan event {
	t.Helper()
	return reconnect(t, hs, after, "")
}

// reconnect opens /events as a browser reconnecting does, with the id of
// the last event it saw (lastID; "" for none).
func reconnect(t testing.TB, hs *httptest.Server, after, lastID string) <-chan event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", hs.URL+"/events?after="+after, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("/events: Content-Type %q", ct)
	}
	out := make(chan event, 1000)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var e event
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ": ")
			switch k {
			case "id":
				e.id = v
			case "event":
				e.kind = v
			case "data":
				e.data = v
			case "":
				if e.kind != "" {
					out <- e
				}
				e = event{}
			}
		}
		close(out)
	}()
	return out
}

// next is the feed's next event; it fails the test after a minute (the
// bound on a broken feed, not a timing the test relies on).
func next(t testing.TB, events <-chan event) event {
	t.Helper()
	select {
	case e, ok := <-events:
		if !ok {
			t.Fatal("the feed ended")
		}
		return e
	case <-time.After(time.Minute):
		t.Fatal("no event from the feed in a minute")
	}
	return event{}
}
