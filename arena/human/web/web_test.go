package web_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/human/web"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// A banqi turn as the referee sends it: three legal actions.
const (
	hello = `{"type":"hello","protocol":1,"game":"banqi","options":{},"seat":0,"seats":2,"players":["you","g"],"match":"m1","game_id":"g0","seed":987654321987,"clock":{"move_ms":1000}}`
	turn  = `{"type":"turn","id":7,"view":{"board":["XXXX"]},"legal":[{"type":"flip","square":"a8"},{"type":"flip","square":"b8"},{"type":"flip","square":"c8"}],"clock":{"move_ms":1000}}`
)

// table is a seat with one session under way and its page's server.
type table struct {
	seat *web.Seat
	conn transport.Conn
	srv  *httptest.Server
	url  string // the page
}

func newTable(t *testing.T, timed bool) *table {
	t.Helper()
	seat := web.NewSeat()
	seat.Timed = timed
	s := web.NewServer(seat)
	hs := httptest.NewServer(s)
	t.Cleanup(func() { seat.Close(); hs.Close() })
	ep, err := seat.Launch("you", bot.LaunchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conn := ep.(bot.ConnSession).Conn
	t.Cleanup(func() { conn.Close() })
	tb := &table{seat: seat, conn: conn, srv: hs, url: hs.URL + s.Path()}
	tb.send(t, hello)
	if line, err := conn.Receive(time.Now().Add(time.Minute)); err != nil || !strings.Contains(string(line), `"ready"`) {
		t.Fatalf("hello answered %s, %v", line, err)
	}
	return tb
}

func (tb *table) send(t *testing.T, line string) {
	t.Helper()
	if err := tb.conn.Send([]byte(line+"\n"), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
}

func post(t *testing.T, url, contentType, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A move posted by the page is taken only for the turn waiting, as one
// of its legal actions, as JSON, under the page's key; the one taken is
// the session's reply to the referee, by index.
func TestMoves(t *testing.T) {
	tb := newTable(t, false)
	tb.send(t, turn)
	for _, tc := range []struct {
		name, path, contentType, body string
		want                          int
	}{
		{"another key", "/0123/act", "application/json", `{"id":7,"index":1}`, http.StatusNotFound},
		{"a form", "act", "application/x-www-form-urlencoded", `id=7&index=1`, http.StatusUnsupportedMediaType},
		{"no index", "act", "application/json", `{"id":7}`, http.StatusBadRequest},
		{"a turn passed", "act", "application/json", `{"id":6,"index":1}`, http.StatusConflict},
		{"no such action", "act", "application/json", `{"id":7,"index":3}`, http.StatusBadRequest},
		{"the move", "act", "application/json", `{"id":7,"index":1}`, http.StatusNoContent},
		{"twice", "act", "application/json", `{"id":7,"index":2}`, http.StatusConflict},
	} {
		url := tb.url + tc.path
		if strings.HasPrefix(tc.path, "/") {
			url = tb.srv.URL + tc.path
		}
		if code, body := post(t, url, tc.contentType, tc.body); code != tc.want {
			t.Errorf("%s: %d %q, want %d", tc.name, code, body, tc.want)
		}
	}
	line, err := tb.conn.Receive(time.Now().Add(time.Minute))
	if want := string(protocol.AppendIndexAction(nil, 7, 1)); err != nil || string(line) != want {
		t.Fatalf("reply %q, %v; want %q", line, err, want)
	}
}

// The page's feed tells the seat's messages, each with its number; a
// page that reconnects (Last-Event-ID) gets only those after it. Nothing
// of hello but what the page shows is passed on: not the seat's seed.
func TestFeed(t *testing.T) {
	tb := newTable(t, false)
	tb.send(t, turn)
	events := func(last string, n int) string {
		t.Helper()
		req, _ := http.NewRequest("GET", tb.url+"events", nil)
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("feed's Content-Type %q", ct)
		}
		var got []string
		sc := bufio.NewScanner(resp.Body)
		for len(got) < n && sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") || strings.HasPrefix(sc.Text(), "id: ") || strings.HasPrefix(sc.Text(), "event: ") {
				got = append(got, sc.Text())
			}
		}
		return strings.Join(got, "\n")
	}
	all := events("", 6)
	for _, want := range []string{"event: reset", "id: 1", `data: {"type":"hello","game":"banqi","game_id":"g0"`, "id: 2", `data: {"type":"turn","id":7,"view":{"board":["XXXX"]}`} {
		if !strings.Contains(all, want) {
			t.Errorf("feed lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "987654321987") || strings.Contains(all, "m1") {
		t.Errorf("feed passes on hello's seed or match:\n%s", all)
	}
	if rest := events("1", 2); !strings.HasPrefix(rest, "id: 2\n") || strings.Contains(rest, "reset") {
		t.Errorf("after event 1 the feed sent:\n%s", rest)
	}
}

// The page is served with a content policy that runs its one inline
// script, by hash, and loads nothing.
func TestPagePolicy(t *testing.T) {
	tb := newTable(t, false)
	resp, err := http.Get(tb.url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllSubmatch(page, -1)
	if len(scripts) != 1 {
		t.Fatalf("%d inline scripts, want 1", len(scripts))
	}
	sum := sha256.Sum256(scripts[0][1])
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") || !strings.HasPrefix(csp, "default-src 'none'") {
		t.Errorf("policy %q does not name the script's hash", csp)
	}
	if !strings.Contains(string(page), "function arenaDraw(bots)") {
		t.Error("the page does not draw with the replay viewer's draw.js")
	}
}

// Leaving from the page ends the session as the person leaving; a timed
// seat's turn not answered by its deadline is a timeout.
func TestLeaveAndTimeout(t *testing.T) {
	tb := newTable(t, false)
	tb.send(t, turn)
	if code, _ := post(t, tb.url+"leave", "application/json", "{}"); code != http.StatusNoContent {
		t.Fatalf("leave: %d", code)
	}
	if _, err := tb.conn.Receive(time.Now().Add(time.Minute)); !errors.Is(err, transport.ErrLeft) {
		t.Errorf("after leaving, Receive: %v, want %v", err, transport.ErrLeft)
	}

	timed := newTable(t, true)
	timed.send(t, turn)
	if _, err := timed.conn.Receive(time.Now()); !errors.Is(err, transport.ErrTimeout) {
		t.Errorf("a timed turn past its deadline: %v, want %v", err, transport.ErrTimeout)
	}
	if code, _ := post(t, timed.url+"act", "application/json", `{"id":7,"index":0}`); code != http.StatusConflict {
		t.Errorf("a move after the timeout: %d, want %d", code, http.StatusConflict)
	}
}

// The page is served on loopback unless the person says otherwise.
func TestListen(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		beyond bool
		want   error // nil: listens
	}{
		{"", false, nil},
		{"127.0.0.1:0", false, nil},
		{"localhost:0", false, nil},
		{"0.0.0.0:0", false, web.ErrNotLoopback},
		{"192.0.2.1:0", false, web.ErrNotLoopback},
		{"example.com:0", false, web.ErrNotLoopback},
		{"0.0.0.0:0", true, nil},
	} {
		ln, err := web.Listen(tc.addr, tc.beyond)
		if ln != nil {
			ln.Close()
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("Listen(%q, %v): %v, want %v", tc.addr, tc.beyond, err, tc.want)
		}
	}
	if _, err := web.Listen("no port", false); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("Listen of a bad address: %v", err)
	}
}
