package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

// screenshotDir is where the tests save screenshots of the viewer when
// ARENA_SCREENSHOTS names a directory (ARENA_SCREENSHOTS=../../docs
// refreshes docs/viewer.png).
func screenshotDir() string { return os.Getenv("ARENA_SCREENSHOTS") }

// browser drives one tab of a real Chromium through a test.
type browser struct {
	t   *testing.T
	ctx context.Context
}

func (b browser) open(path string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(browsertest.FileURL(b.t, path)),
		chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"][data-moves="1"]`))); err != nil {
		b.t.Fatalf("opening %s: %v", path, err)
	}
}

// eval runs a JavaScript expression in the page.
func eval[T any](b browser, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// text is the text of the element sel ("" when there is none).
func (b browser) text(sel string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(document.querySelector(%q) || {textContent: ""}).textContent`, sel))
}

// attr is attribute name of the element sel.
func (b browser) attr(sel, name string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(document.querySelector(%q) || {getAttribute: () => "(none)"}).getAttribute(%q) || ""`, sel, name))
}

// cards are the data-card attributes of the elements under sel.
func (b browser) cards(sel string) []string {
	b.t.Helper()
	return eval[[]string](b, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.dataset.card)`, sel+" [data-card]"))
}

func (b browser) keys(keys string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.KeyEvent(keys)); err != nil {
		b.t.Fatal(err)
	}
}

func (b browser) click(sel string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		b.t.Fatal(err)
	}
}

// jump goes to position p with the ply field.
func (b browser) jump(p int) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS("#jump"), fmt.Sprint(p)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#jump").dispatchEvent(new Event("change"))`)); err != nil {
		b.t.Fatal(err)
	}
	if got := b.pos(); got != p {
		b.t.Fatalf("after jumping to %d the page shows position %d", p, got)
	}
}

// view chooses an entry of the view selector.
func (b browser) view(value string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS("#view"), value),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#view").dispatchEvent(new Event("change"))`)); err != nil {
		b.t.Fatal(err)
	}
	if got := eval[string](b, `document.querySelector("#view").value`); got != value {
		b.t.Fatalf("view %q not offered (shows %q)", value, got)
	}
}

func (b browser) pos() int {
	b.t.Helper()
	var p int
	fmt.Sscan(eval[string](b, `document.body.dataset.pos`), &p)
	return p
}

func (b browser) screenshot(name string) {
	b.t.Helper()
	if dir := screenshotDir(); dir != "" {
		browsertest.Screenshot(b.t, b.ctx, filepath.Join(dir, name))
	}
}

func newBrowser(t *testing.T) browser { return browser{t: t, ctx: browsertest.New(t)} }

var flipRE = regexp.MustCompile(`^([a-d][1-8])\(([A-Za-z])\)$`)
var stepRE = regexp.MustCompile(`^([a-d][1-8])-([a-d][1-8])$`)

// pieceAt is the letter on square sq ("b3") of a Banqi board.
func pieceAt(view map[string]any, sq string) string {
	rows := view["board"].([]any)
	row := rows[8-int(sq[1]-'0')].(string)
	return string(row[sq[0]-'a'])
}

func TestBanqi(t *testing.T) {
	b := newBrowser(t)
	r := play(t, game{name: "banqi", seats: 2, seed: 11})
	ps := positions(t, r)
	path := page(t, t.TempDir(), "banqi.html", r, viewer.Options{})
	b.open(path)

	t.Run("a flip", func(t *testing.T) {
		b := browser{t, b.ctx}
		for p := 3; p < len(ps); p++ {
			last, _ := ps[p].pub["last"].(string)
			m := flipRE.FindStringSubmatch(last)
			if m == nil {
				continue
			}
			b.jump(p - 1)
			if got := b.attr("#sq-"+m[1], "data-piece"); got != "X" {
				t.Fatalf("position %d: %s holds %q before the flip, want X", p-1, m[1], got)
			}
			b.keys(kb.ArrowRight)
			if got := b.attr("#sq-"+m[1], "data-piece"); got != m[2] {
				t.Fatalf("position %d after %s: %s holds %q, want %q", p, last, m[1], got, m[2])
			}
			if got := b.text("#banqi-last"); got != last {
				t.Errorf("last move shown %q, want %q", got, last)
			}
			if got := b.attr("#sq-"+m[1], "class"); !strings.Contains(got, "last") {
				t.Errorf("flipped square's class %q does not mark the last move", got)
			}
			return
		}
		t.Fatal("no flip after ply 3")
	})
	t.Run("a move", func(t *testing.T) {
		b := browser{t, b.ctx}
		for p := 1; p < len(ps); p++ {
			last, _ := ps[p].pub["last"].(string)
			m := stepRE.FindStringSubmatch(last)
			if m == nil {
				continue
			}
			b.jump(p)
			want := pieceAt(ps[p].pub, m[2])
			if got := b.attr("#sq-"+m[2], "data-piece"); got != want || want == "-" {
				t.Fatalf("position %d after %s: %s holds %q, want %q", p, last, m[2], got, want)
			}
			if got := b.attr("#sq-"+m[1], "data-piece"); got != "-" {
				t.Fatalf("position %d after %s: %s holds %q, want it empty", p, last, m[1], got)
			}
			return
		}
		t.Fatal("no move or capture in the game")
	})
	t.Run("keys", func(t *testing.T) {
		b := browser{t, b.ctx}
		b.jump(5)
		for _, c := range []struct {
			keys string
			want int
		}{
			{kb.Home, 0}, {kb.ArrowRight, 1}, {kb.ArrowRight + kb.ArrowRight, 3}, {kb.ArrowLeft, 2},
			{kb.End, len(ps) - 1}, {kb.ArrowRight, len(ps) - 1}, {kb.Home + kb.ArrowLeft, 0},
		} {
			b.keys(c.keys)
			if got := b.pos(); got != c.want {
				t.Fatalf("after %q: position %d, want %d", c.keys, got, c.want)
			}
		}
		b.click("#last")
		if got := b.pos(); got != len(ps)-1 {
			t.Fatalf("the end button shows position %d, want %d", got, len(ps)-1)
		}
		if got := b.text("#final"); !strings.Contains(got, r.Result.Reason) {
			t.Errorf("final status %q, want the reason %q", got, r.Result.Reason)
		}
		b.click("#first")
		b.click("#next")
		if got := b.pos(); got != 1 {
			t.Fatalf("start, forward: position %d, want 1", got)
		}
	})
	t.Run("outcome and moves", func(t *testing.T) {
		b := browser{t, b.ctx}
		b.keys(kb.End)
		if got := b.text("#reason"); got != r.Result.Reason {
			t.Errorf("outcome reason %q, want %q", got, r.Result.Reason)
		}
		if n := eval[int](b, `document.querySelectorAll("#moves li.move").length`); n != len(ps) {
			t.Errorf("%d entries in the move list, want %d (start and every move)", n, len(ps))
		}
		// A click on a move shows its position.
		b.click(`#moves li[data-pos="7"]`)
		if got := b.pos(); got != 7 {
			t.Errorf("clicking move 7 shows position %d", got)
		}
		b.screenshot("viewer-banqi.png")
	})
	t.Run("a link to ply 60", func(t *testing.T) { linkToPly(t, b.ctx, path, len(ps)) })
	t.Run("the outcome at the end only", func(t *testing.T) { outcomeAtTheEnd(t, b.ctx, r, len(ps)) })
	t.Run("play", func(t *testing.T) {
		b := browser{t, b.ctx}
		b.jump(len(ps) - 4)
		b.view("all")
		if err := chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS("#speed"), "10")); err != nil {
			t.Fatal(err)
		}
		b.keys(" ")
		// Playing stops by itself at the end.
		if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](fmt.Sprintf(`document.body.dataset.pos == "%d" && document.body.dataset.playing == ""`, len(ps)-1))); err != nil {
			t.Fatalf("playing did not reach the end and stop: %v (at %d)", err, b.pos())
		}
	})
}

// hands are the hands of seat s at every position with at least min
// cards, as JSON arrays.
func hands(t *testing.T, ps []position, s int, min int) []string {
	var out []string
	for _, p := range ps {
		if h, _ := p.seats[s]["hand"].([]any); len(h) >= min {
			out = append(out, jsonOf(t, h))
		}
	}
	return out
}

func stringsOf(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestUno(t *testing.T) {
	b := newBrowser(t)
	r := play(t, game{name: "uno", seats: 4, seed: 5, options: map[string]string{"target": "0"},
		strikeAt: map[int]bool{6: true}, forfeitAt: map[int][]int{30: {2}}})
	ps := positions(t, r)
	dir := t.TempDir()
	all := page(t, dir, "uno.html", r, viewer.Options{})
	b.open(all)
	p := len(ps) / 2
	b.jump(p)
	pub := ps[p].pub

	t.Run("table", func(t *testing.T) {
		b := browser{t, b.ctx}
		if got := b.attr("#top", "data-card"); got != pub["top"] {
			t.Errorf("position %d: top card %q, want %v", p, got, pub["top"])
		}
		if got := b.text("#colour"); got != pub["colour"] {
			t.Errorf("position %d: colour %q, want %v", p, got, pub["colour"])
		}
		if got := b.text("#draw-pile"); got != fmt.Sprint(pub["draw_pile"]) {
			t.Errorf("position %d: draw pile %q, want %v", p, got, pub["draw_pile"])
		}
		wantDir := map[float64]string{1: "clockwise", -1: "counter-clockwise"}[pub["direction"].(float64)]
		if got := b.text("#direction"); !strings.HasSuffix(got, " "+wantDir) {
			t.Errorf("position %d: direction %q, want %s", p, got, wantDir)
		}
		for s := range 4 {
			want := stringsOf(ps[p].seats[s]["hand"])
			if got := b.cards(fmt.Sprintf("#seat-%d .hand", s)); !slices.Equal(got, want) {
				t.Errorf("position %d, every hand: seat %d holds %v, want %v", p, s, got, want)
			}
		}
		b.screenshot("viewer.png")
	})
	t.Run("one seat's view", func(t *testing.T) {
		b := browser{t, b.ctx}
		b.view("seat1")
		for s := range 4 {
			got := b.cards(fmt.Sprintf("#seat-%d", s))
			if s == 1 {
				if want := stringsOf(ps[p].seats[1]["hand"]); !slices.Equal(got, want) {
					t.Errorf("as seat 1: its hand %v, want %v", got, want)
				}
			} else if len(got) > 0 {
				t.Errorf("as seat 1: seat %d's cards %v are in the page", s, got)
			}
		}
		b.view("public")
		if got := b.cards(".seats"); len(got) > 0 {
			t.Errorf("public view: cards %v in the hands", got)
		}
		b.view("all")
	})
	t.Run("strikes, forfeits and referee moves", func(t *testing.T) {
		b := browser{t, b.ctx}
		notes := eval[[]string](b, `[...document.querySelectorAll("#moves li.note")].map(e => e.textContent)`)
		var want []string
		for _, e := range r.Events {
			for typ, f := range map[string]*protocol.Failure{"strike": e.Strike, "forfeit": e.Forfeit} {
				if f != nil {
					want = append(want, fmt.Sprintf("! %s: seat %d (%s) %s: %s", typ, f.Seat, botNames[f.Seat], f.Reason, f.Detail))
				}
			}
		}
		if len(want) != 2 {
			t.Fatalf("the game has %d strikes and forfeits, want 2", len(want))
		}
		if !slices.Equal(notes, want) {
			t.Errorf("notes in the move list %q, want %q", notes, want)
		}
		refs := eval[int](b, `document.querySelectorAll("#moves li .ref").length`)
		moves := 0
		for _, e := range r.Events {
			if e.Move != nil && e.Move.By == "referee" {
				moves++
			}
		}
		if refs != moves || refs < 2 {
			t.Errorf("%d moves marked by the referee, the replay has %d", refs, moves)
		}
		b.keys(kb.End)
		if got := b.text("#ranks"); !strings.Contains(got, "forfeit: timeout") {
			t.Errorf("outcome %q does not show the forfeit", got)
		}
	})

	// A page written for seat 0 holds none of the others' hands.
	one := page(t, dir, "uno.seat0.html", r, viewer.ForSeat(0))
	t.Run("a page for seat 0", func(t *testing.T) {
		allData := string(dataOf(t, read(t, all)))
		oneData := string(dataOf(t, read(t, one)))
		// What seat 0 saw may show another hand: a challenger sees the
		// challenged hand.
		var seen strings.Builder
		for _, p := range ps {
			seen.WriteString(jsonOf(t, p.seats[0]))
		}
		found := 0
		for s := 1; s < 4; s++ {
			for _, h := range hands(t, ps, s, 4) {
				if strings.Contains(seen.String(), h) {
					continue
				}
				if strings.Contains(allData, h) {
					found++
				}
				if strings.Contains(oneData, h) {
					t.Fatalf("seat %d's hand %s is in seat 0's page", s, h)
				}
			}
		}
		if found == 0 {
			t.Fatal("no hand of seats 1-3 found in the page of every view: the test looks for the wrong thing")
		}
		if strings.Contains(oneData, `"seed"`) || strings.Contains(oneData, `"you":1`) {
			t.Error("seat 0's page holds the seed or seat 1's view")
		}
		b := browser{t, b.ctx}
		b.open(one)
		offered := eval[[]string](b, `[...document.querySelectorAll("#view option")].map(o => o.value)`)
		if !slices.Equal(offered, []string{"public", "seat0"}) {
			t.Errorf("seat 0's page offers the views %v", offered)
		}
		for _, q := range []int{0, p, len(ps) - 1} {
			b.keys(kb.Home)
			for range q {
				b.keys(kb.ArrowRight)
				if b.pos() >= q {
					break
				}
			}
			for s := 1; s < 4; s++ {
				if got := b.cards(fmt.Sprintf("#seat-%d", s)); len(got) > 0 {
					t.Errorf("seat 0's page at %d: seat %d's cards %v", b.pos(), s, got)
				}
			}
		}
		b.keys(kb.End)
		if got, want := b.text("#reason"), namedReason(t, r); got != want {
			t.Errorf("outcome reason %q, want %q", got, want)
		}
	})
}

// namedReason is r's reason as the page should show it, each seat it
// mentions named (engine.NameSeats); it fails t if the reason names no
// seat (the check would check nothing).
func namedReason(t *testing.T, r *replays.Replay) string {
	t.Helper()
	named := engine.NameSeats(r.Result.Reason, r.Bots())
	if named == r.Result.Reason {
		t.Fatalf("reason %q names no seat", r.Result.Reason)
	}
	return named
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBoon(t *testing.T) {
	b := newBrowser(t)
	r := play(t, game{name: "boon", seats: 4, seed: 42})
	ps := positions(t, r)
	dir := t.TempDir()
	b.open(page(t, dir, "boon.html", r, viewer.Options{}))

	t.Run("trick winner", func(t *testing.T) {
		b := browser{t, b.ctx}
		checked := 0
		for p := 1; p < len(ps) && checked < 3; p++ {
			for _, e := range ps[p].pub["events"].([]any) {
				ev := e.(map[string]any)
				if ev["type"] != "trick" {
					continue
				}
				b.jump(p)
				want := fmt.Sprintf("seat %v (%s)", ev["seat"], botNames[int(ev["seat"].(float64))])
				if got := b.text("#trick-winner"); got != want {
					t.Fatalf("position %d: trick winner %q, want %q", p, got, want)
				}
				checked++
			}
		}
		if checked == 0 {
			t.Fatal("no trick was taken")
		}
	})
	picker := -1
	t.Run("the picker and the Boon", func(t *testing.T) {
		b := browser{t, b.ctx}
		for p := 1; p < len(ps); p++ {
			pk := int(ps[p].pub["picker"].(float64))
			boon, ok := ps[p].seats[max(pk, 0)]["boon"]
			if pk < 0 || !ok {
				continue
			}
			picker = pk
			b.jump(p)
			if got, want := b.text("#picker"), fmt.Sprintf("seat %d (%s)", pk, botNames[pk]); got != want {
				t.Errorf("position %d: picker %q, want %q", p, got, want)
			}
			// Every hand open: the picker's panel shows the Boon it took.
			if got := b.cards(fmt.Sprintf("#seat-%d .dim", pk)); len(got) < len(boon.([]any)) || !slices.Equal(got[:len(boon.([]any))], stringsOf(boon)) {
				t.Errorf("position %d: the picker's panel shows %v, want the Boon %v first", p, got, boon)
			}
			b.view(fmt.Sprintf("seat%d", pk))
			if got := b.cards("#boon"); !slices.Equal(got, stringsOf(boon)) {
				t.Errorf("as the picker: the Boon %v, want %v", got, boon)
			}
			other := (pk + 1) % 4
			b.view(fmt.Sprintf("seat%d", other))
			if got := b.cards("#boon"); len(got) > 0 {
				t.Errorf("as seat %d: the picker's Boon %v is in the page", other, got)
			}
			b.screenshot("viewer-boon.png")
			b.view("all")
			return
		}
		t.Fatal("nobody took the Boon")
	})
	t.Run("a page for a defender", func(t *testing.T) {
		if picker < 0 {
			t.Skip("no picker")
		}
		other := (picker + 1) % 4
		one := string(dataOf(t, read(t, page(t, dir, "boon.one.html", r, viewer.ForSeat(other)))))
		for _, p := range ps {
			for _, k := range []string{"boon", "buried"} {
				if v, ok := p.seats[picker][k]; ok && len(v.([]any)) >= 2 && strings.Contains(one, jsonOf(t, v)) {
					t.Fatalf("the picker's %s %s is in seat %d's page", k, jsonOf(t, v), other)
				}
			}
		}
		var data struct {
			Moves []struct {
				Seat int    `json:"seat"`
				Text string `json:"text"`
			} `json:"moves"`
		}
		if err := json.Unmarshal([]byte(one), &data); err != nil {
			t.Fatal(err)
		}
		buried := 0
		for _, m := range data.Moves {
			if strings.HasPrefix(m.Text, "bury") && m.Seat != other {
				buried++
				if m.Text != "bury" {
					t.Fatalf("seat %d's page names a burial: %q", other, m.Text)
				}
			}
		}
		if buried == 0 {
			t.Fatal("no burial in the game")
		}
	})
}

// A bot chooses its name: nothing in it may run in the page.
func TestHostileNames(t *testing.T) {
	b := newBrowser(t)
	names := []string{`</script><script>window.pwned = 1</script>`, `<img src=x onerror="window.pwned = 2">&amp;`}
	r := play(t, game{name: "banqi", seats: 2, seed: 3, bots: names})
	path := page(t, t.TempDir(), "hostile.html", r, viewer.Options{})
	if html := string(read(t, path)); strings.Contains(html, names[0]) || strings.Contains(html, "<img") {
		t.Error("a bot's name is in the page's bytes unescaped")
	}
	b.open(path)
	if pwned := eval[string](b, `String(window.pwned)`); pwned != "undefined" {
		t.Fatalf("a bot's name ran as script: window.pwned = %s", pwned)
	}
	want := "0: " + names[0] + "  ·  1: " + names[1]
	if got := b.text("#title .bots"); got != want {
		t.Errorf("names shown as %q, want %q", got, want)
	}
	if got := eval[string](b, `document.title`); !strings.Contains(got, names[0]) {
		t.Errorf("title %q lacks the name as text", got)
	}
	if n := eval[int](b, `document.querySelectorAll("img, script:not([id])").length`); n != 1 {
		t.Errorf("%d img or script elements, want only the viewer's script", n)
	}
}
