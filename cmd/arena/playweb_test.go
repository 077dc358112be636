package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/arena/human"
	webseat "github.com/arena-dev/arena/arena/human/web"
	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/replays"
)

// webPlay is `arena play --web` running as a real process: its page's
// URL, and everything its server sent a second reader of the feed (the
// same bytes the browser's feed gets).
type webPlay struct {
	t    *testing.T
	cmd  *exec.Cmd
	url  string
	out  string // --out
	page []byte // the page, as served
	feed *testkit.SyncBuffer
	fed  chan struct{} // closed when the feed has ended
}

func startWebPlay(t *testing.T, args ...string) *webPlay {
	t.Helper()
	w := &webPlay{t: t, out: filepath.Join(t.TempDir(), "out"), feed: &testkit.SyncBuffer{}, fed: make(chan struct{})}
	w.cmd = exec.Command(os.Args[0], append([]string{"play", "--web", "--out", w.out, "--deal-secret", playSecret(t)}, args...)...)
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	w.cmd.Stderr = &stderr
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if w.cmd.ProcessState == nil {
			_ = w.cmd.Process.Kill()
			_ = w.cmd.Wait()
		}
	})
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "Your seat: http://127.0.0.1:") {
		t.Fatalf("no URL first on stdout: %q; stderr:\n%s", sc.Text(), &stderr)
	}
	w.url = strings.TrimPrefix(sc.Text(), "Your seat: ")
	go io.Copy(io.Discard, stdout)
	w.page = get(t, w.url)
	resp, err := http.Get(w.url + "events")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.fed)
		defer resp.Body.Close()
		io.Copy(w.feed, resp.Body)
	}()
	return w
}

func get(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d, %v", url, resp.StatusCode, err)
	}
	return b
}

// TestPlayWeb: a person plays in headless Chromium, by click, against a
// bundled bot: Banqi (a face-down square clicked is flipped) and Uno at
// three seats (a card in the hand clicked is played). The page shows the
// new state; the game is recorded, its first move the clicked one; and
// nothing the server sent holds what the seat may not know: every view
// in its feed is one the seat had (re-simulated from the replay), the
// page itself holds no game data, and nothing names the game's seed.
func TestPlayWeb(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		// click is the legal element clicked first (a CSS selector), and
		// shown the JavaScript that is true once the page shows its move
		// made (%s: the clicked element's data-square or data-card).
		click, key, shown string
	}{
		{"banqi", []string{"--game", "banqi", "--option", "max_plies=24", "--seed", "3", "--bot", "g=arena bot greedy"},
			"#board .sq.legal", "square", `document.getElementById("sq-%s").dataset.piece !== "X"`},
		{"uno", []string{"--game", "uno", "--option", "max_actions=12", "--seed", "4", "--bot", "a=arena bot random", "--bot", "b=arena bot greedy"},
			`#board .hand .legal:not([data-card^="W"])`, "card", `Array.from(document.querySelectorAll("#log li.event")).some((li) => li.textContent === "seat 0 (you) play %s")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := startWebPlay(t, tc.args...)
			ctx := browsertest.New(t)
			run := func(actions ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				if err := chromedp.Do(ctx, actions...); err != nil {
					t.Fatal(err)
				}
			}
			run(chromedp.Navigate(w.url))
			poll(t, ctx, `document.body.dataset.state === "turn"`)
			first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+strconv.Quote(tc.click)+`).dataset.`+tc.key))
			if err != nil {
				t.Fatal(err)
			}
			sel := tc.click
			if tc.key == "square" {
				sel = "#sq-" + first
			}
			run(chromedp.Click(chromedp.CSS(sel)))
			poll(t, ctx, `Array.from(document.querySelectorAll("#log li.mine")).length === 1`)
			poll(t, ctx, strings.ReplaceAll(tc.shown, "%s", first))
			if dir := os.Getenv("ARENA_PLAYWEB_SHOTS"); dir != "" { // to look at the page
				browsertest.Screenshot(t, ctx, filepath.Join(dir, tc.name+".png"))
			}
			moved := w.playOut(ctx)
			if dir := os.Getenv("ARENA_PLAYWEB_SHOTS"); dir != "" {
				poll(t, ctx, `document.querySelector("#results .result") !== null`)
				browsertest.Screenshot(t, ctx, filepath.Join(dir, tc.name+"-over.png"))
			}

			if code := exitCode(t, w.cmd.Wait()); code != 0 {
				t.Fatalf("arena play --web exited %d", code)
			}
			<-w.fed
			r := w.replay()
			var mine *replays.Move
			for _, e := range r.Events {
				if e.Move != nil && r.Header.Seats[e.Move.Seat].Bot == human.Name {
					mine = e.Move
					break
				}
			}
			if mine == nil || !strings.Contains(string(mine.Action), strconv.Quote(first)) {
				t.Fatalf("the person's first recorded move is %s, want the clicked %s", mine.Action, first)
			}
			if tc.key == "square" && moved == 0 {
				t.Error("no piece was moved by clicks on the board: play longer (max_plies)")
			}
			if n := movesOnBoard(r); n != moved {
				t.Errorf("%d of the person's moves recorded as moves or captures, want the %d made on the board", n, moved)
			}
			w.onlyTheSeat(r)
		})
	}
}

// The web seat's flags are checked first: an address other machines
// reach is refused unless asked for, and its flags need --web.
func TestPlayWebFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--web", "--web-addr", "0.0.0.0:0"}, "--web-addr: web address \"0.0.0.0:0\": not a loopback address"},
		{[]string{"--web", "--web-addr", "nowhere"}, "want HOST:PORT"},
		{[]string{"--open"}, "--open is for --web"},
		{[]string{"--web-addr", "127.0.0.1:0"}, "--web-addr is for --web"},
	} {
		_, stderr, code := arena(t, append([]string{"play", "--game", "banqi", "--bot", "g=arena bot greedy"}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "sandbox") {
			t.Errorf("arena play %q: exit %d, want %q first in:\n%s", tc.args, code, tc.want, stderr)
		}
	}
}

// boardMove moves a Banqi piece as a person does, by two clicks: one of
// the person's pieces that can move, then where to; false if none can.
const boardMove = `(() => {
	const from = Array.from(document.querySelectorAll("#board .sq.legal")).find((c) => c.dataset.piece !== "X");
	if (!from) return false;
	from.click();
	const to = document.querySelector("#board .sq.target");
	if (!to) return false;
	to.click();
	return true;
})()`

// playOut plays the rest of the game, until the page says it is over:
// at each turn a piece moved on the board (Banqi) when one can be, else
// the first choice listed. It is the number of moves made on the board.
func (w *webPlay) playOut(ctx context.Context) (moved int) {
	w.t.Helper()
	prev := ""
	for range 500 {
		poll(w.t, ctx, `document.body.dataset.state === "over" || (document.body.dataset.state === "turn" && document.body.dataset.turn !== `+strconv.Quote(prev)+`)`)
		now, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.body.dataset.state, document.body.dataset.turn]`))
		if err != nil {
			w.t.Fatal(err)
		}
		if now[0] == "over" {
			return moved
		}
		prev = now[1]
		onBoard, err := chromedp.Run(ctx, chromedp.Evaluate[bool](boardMove))
		if err != nil {
			w.t.Fatal(err)
		}
		if onBoard {
			moved++
			continue
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#choices button.choice"))); err != nil {
			w.t.Fatal(err)
		}
	}
	w.t.Fatal("the game did not end in 500 of the person's turns")
	return moved
}

// movesOnBoard counts the person's moves and captures in r (Banqi).
func movesOnBoard(r *replays.Replay) int {
	n := 0
	for _, e := range r.Events {
		if m := e.Move; m != nil && r.Header.Seats[m.Seat].Bot == human.Name && m.By == "" && strings.Contains(string(m.Action), `"from"`) {
			n++
		}
	}
	return n
}

// poll waits until js is true on the page.
func poll(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatalf("waiting for %s: %v", js, err)
	}
}

// replay is the game's replay, the one game of the run.
func (w *webPlay) replay() *replays.Replay {
	w.t.Helper()
	recs := ledgerOf(w.t, w.out)
	if len(recs) != 1 || recs[0].ReplayAt == nil {
		w.t.Fatalf("want one game recorded in a pack, got %+v", recs)
	}
	r, err := replays.ReadSpan(filepath.Join(w.out, recs[0].Replay), *recs[0].ReplayAt)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// served is one message of the feed: the fields the page may be sent,
// and no other (DisallowUnknownFields).
type served struct {
	Type     string            `json:"type"`
	Game     string            `json:"game"`
	GameID   string            `json:"game_id"`
	Options  map[string]string `json:"options"`
	Seat     int               `json:"seat"`
	Players  []string          `json:"players"`
	Timed    bool              `json:"timed"`
	ID       int64             `json:"id"`
	View     json.RawMessage   `json:"view"`
	Legal    []json.RawMessage `json:"legal"`
	Texts    []string          `json:"texts"`
	MoveMs   int64             `json:"move_ms"`
	BankMs   int64             `json:"bank_ms"`
	Index    int               `json:"index"`
	Ranks    []int             `json:"ranks"`
	Scores   []float64         `json:"scores"`
	Reason   string            `json:"reason"`
	Forfeits []string          `json:"forfeits"`
	Lines    []string          `json:"lines"`
}

// onlyTheSeat checks that nothing the server sent holds what the
// person's seat may not know: the page is the same bytes whatever the
// game (no game data in it); every message of the feed has only the
// fields a seat's page is sent, and every view in it is one the seat had
// in the game (re-simulated from its replay: so no other hand, no
// face-down piece's identity); nothing names the game's seed, which
// deals every hand.
func (w *webPlay) onlyTheSeat(r *replays.Replay) {
	w.t.Helper()
	srv := webseat.NewServer(webseat.NewSeat())
	blank := httptest.NewServer(srv)
	defer blank.Close()
	if page := get(w.t, blank.URL+srv.Path()); !bytes.Equal(page, w.page) {
		w.t.Error("the page served in the game differs from a page with no game: it holds game data")
	}
	seat := slices.IndexFunc(r.Header.Seats, func(s replays.SeatInfo) bool { return s.Bot == human.Name })
	had := map[string]bool{}
	if err := replays.Walk(r, func(st replays.Step) error {
		v, err := json.Marshal(st.State.View(seat))
		had[string(v)] = true
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
	feed := w.feed.String()
	views := 0
	for _, line := range strings.Split(feed, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var m served
		dec := json.NewDecoder(strings.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			w.t.Fatalf("the feed sent %s: %v", data, err)
		}
		if m.View == nil {
			continue
		}
		var v bytes.Buffer
		if err := json.Compact(&v, m.View); err != nil || !had[v.String()] {
			w.t.Fatalf("the feed sent a view seat %d never had (%v):\n%s", seat, err, m.View)
		}
		views++
	}
	if views < 2 {
		w.t.Fatalf("the feed sent %d views:\n%s", views, feed)
	}
	seed := strconv.FormatUint(r.Header.Seed, 10)
	if strings.Contains(feed, seed) || bytes.Contains(w.page, []byte(seed)) {
		w.t.Errorf("the page or its feed names the game's seed %s", seed)
	}
}
