package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // a ladder's bots are confined: this binary is their wrapper
	os.Exit(m.Run())
}

// TestSuspensionHidden: a bot's suspension names the game that caused it
// and that game's detail (a crash's last stderr line, where a bot may
// well have written its cards). The roster records it as that game ends,
// while the rest of its table, the same deal with the seats rotated, is
// still to play: the page must not show it before the table is whole.
func TestSuspensionHidden(t *testing.T) {
	const secret = "MYHAND-R5-G7"
	yaml := "name: cup\ngame: uno\noptions:\n  scoring: single_hand\nseats: 2\nseed: 7\nconcurrency: 1\nclock:\n  move: 2s\n" +
		"failure:\n  max_startup_failures: 1\nbots:\n  - name: rnd\n    command: mem:random\n  - name: fst\n    command: mem:first\n" +
		"  - name: crash\n    command: sh -c 'echo " + secret + " >&2; exit 3'\n"
	dir := initYAML(t, yaml)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var warn bytes.Buffer
	// Played on until a few games after the suspension, so that the
	// table that caused it ends whole (its last game a forfeit).
	suspendedAt := -1
	_, err := ladder.Run(ctx, dir, ladder.RunOptions{Warn: &warn, AbandonAfter: time.Minute, OnGame: func(p ladder.Progress) {
		r, _, err := ladder.ReadRoster(filepath.Join(dir, ladder.RosterName))
		if suspendedAt < 0 && err == nil && r.Bot("crash") != nil && r.Bot("crash").Status == ladder.StatusSuspended {
			suspendedAt = p.Done
		}
		if suspendedAt >= 0 && p.Done >= suspendedAt+4 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatalf("run: %v (warnings: %s)", err, warn.String())
	}
	lines, recs := ledgerLines(t, dir)
	roster, _, err := ladder.ReadRoster(filepath.Join(dir, ladder.RosterName))
	if err != nil || roster.Bot("crash").Status != ladder.StatusSuspended {
		t.Fatalf("the crashing bot is not suspended: %v", err)
	}
	// The game whose forfeit suspended it, and the rest of its table.
	first := slices.IndexFunc(recs, func(r ledger.Record) bool { return r.GameID == roster.Bot("crash").SuspendedBy })
	if first < 0 || first+1 >= len(recs) || recs[first+1].Round != recs[first].Round {
		t.Fatalf("the game that suspended the bot (%q) is not followed by the rest of its table: %+v", roster.Bot("crash").SuspendedBy, recs)
	}
	reason := roster.Bot("crash").Reason
	t.Logf("the roster's reason: %s", reason)
	// Between the table's two games: the first recorded, with what the
	// roster says since.
	writeLines(t, dir, lines[:first+1])
	_, hs := serve(t, dir, web.Options{})
	for _, p := range []string{"/", "/bot/crash", "/games"} {
		_, body := get(t, hs, p)
		for _, leak := range []string{secret, recs[first].GameID, reason, ">suspended<"} {
			if strings.Contains(body, leak) {
				t.Errorf("%s shows %q while the table of %s is in play", p, leak, recs[first].GameID)
			}
		}
	}
	// Once the table is whole, the suspension shows, with its reason.
	appendLines(t, dir, lines[first+1])
	_, hs = serve(t, dir, web.Options{})
	if _, body := get(t, hs, "/bot/crash"); !strings.Contains(body, reason) {
		t.Errorf("/bot/crash does not show the suspension once its table is whole:\n%s", body)
	}
}

// TestFeedsBounded: a client opening live feeds by the thousand (each a
// connection and a goroutine held as long as it likes) is refused past
// Options.MaxFeeds, and a feed closed makes room for another.
func TestFeedsBounded(t *testing.T) {
	dir := newLadder(t, "2", bots4, 0)
	s, err := web.New(dir, web.Options{MaxFeeds: 3})
	if err != nil {
		t.Fatal(err)
	}
	// served is told each feed that ends after it was served (not
	// refused): its slot is free by then.
	served := make(chan struct{}, 8)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		s.ServeHTTP(sw, r)
		if r.URL.Path == "/events" && sw.status == http.StatusOK {
			served <- struct{}{}
		}
	}))
	t.Cleanup(func() {
		s.Close()
		hs.Close()
	})
	open := func() (*http.Response, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		req, err := http.NewRequestWithContext(ctx, "GET", hs.URL+"/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); resp.Body.Close() })
		return resp, cancel
	}
	var cancels []context.CancelFunc
	for range 3 {
		resp, cancel := open()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("feed %d: status %d", len(cancels)+1, resp.StatusCode)
		}
		cancels = append(cancels, cancel)
	}
	for range 20 {
		if resp, _ := open(); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("a feed past the bound: status %d (Retry-After %q), want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	cancels[0]()
	select {
	case <-served:
	case <-time.After(time.Minute):
		t.Fatal("a feed closed did not end in a minute")
	}
	if resp, _ := open(); resp.StatusCode != http.StatusOK {
		t.Fatalf("a feed after one closed: status %d, want 200", resp.StatusCode)
	}
}

// statusWriter is a ResponseWriter that keeps the status written
// (200 if the handler wrote without one).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the feed.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
