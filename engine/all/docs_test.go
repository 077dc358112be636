package all

// The user documentation of the games (docs/games/*.md) and of the
// protocol's transcript (docs/protocol.md) checked against what the
// engines and the bundled Python bot really do. They live here because
// this package knows every game.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
)

var repoRoot = filepath.Join("..", "..")

// docOf is the file documenting a game: bounce is documented with uno.
func docOf(game string) string {
	if game == "bounce" {
		game = "uno"
	}
	return filepath.Join(repoRoot, "docs", "games", game+".md")
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// seatField is the field of a seat's view that names the seat, and its
// JSON type ("object", "integer"), from a real view of seat 0.
func seatField(t *testing.T, g engine.Game) (string, string) {
	t.Helper()
	info := g.Info()
	opts, err := engine.Setup(g, info.MinSeats, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(info.MinSeats, 1, opts)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(st.View(0))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"you", "seat"} {
		if f, ok := v[name]; ok {
			if bytes.HasPrefix(f, []byte("{")) {
				return name, "object"
			}
			return name, "integer"
		}
	}
	t.Fatalf("%s: the view of seat 0 names no seat: %s", info.Name, raw)
	return "", ""
}

// Each game's doc stands on its own: it cites no rules reference that the
// repository does not hold, names every option, and says what the view's
// seat field is (its JSON type differs between the games).
func TestGamesDocsStandAlone(t *testing.T) {
	for _, g := range engine.Games() {
		info := g.Info()
		doc := readDoc(t, docOf(info.Name))
		for _, cite := range []string{"rules-reference", "rules reference"} {
			if strings.Contains(strings.ToLower(doc), cite) {
				t.Errorf("%s: %s cites the %q, which users do not have", info.Name, docOf(info.Name), cite)
			}
		}
		for _, o := range info.Options {
			if !strings.Contains(doc, "`"+o.Name+"`") {
				t.Errorf("%s: %s does not document option %s", info.Name, docOf(info.Name), o.Name)
			}
		}
		field, typ := seatField(t, g)
		row := regexp.MustCompile("(?m)^\\| `" + field + "` \\|[^\\n]*\\b" + typ + "\\b")
		if !row.MatchString(doc) {
			t.Errorf("%s: %s has no `%s` row in its view table that says it is an %s", info.Name, docOf(info.Name), field, typ)
		}
	}
}

// docs/protocol.md says, for every game, which view field holds your seat
// and of which JSON type: a row "| <game> | `<field>` | <type> ...".
func TestGamesSeatFieldInProtocolDoc(t *testing.T) {
	doc := readDoc(t, filepath.Join(repoRoot, "docs", "protocol.md"))
	for _, g := range engine.Games() {
		info := g.Info()
		field, typ := seatField(t, g)
		row := regexp.MustCompile("(?mi)^\\|[^|\\n]*\\b" + info.Name + "\\b[^|\\n]*\\| `" + field + "` \\| " + typ + "\\b")
		if !row.MatchString(doc) {
			t.Errorf("protocol.md: no row saying that %s's view names your seat in `%s`, an %s", info.Name, field, typ)
		}
	}
}

// transcript is the text block of docs/protocol.md's section 6, split
// into its games: each a list of lines (R>, B> and # lines).
func transcript(t *testing.T) [][]string {
	t.Helper()
	doc := readDoc(t, filepath.Join(repoRoot, "docs", "protocol.md"))
	start := strings.Index(doc, "## 6. A complete transcript")
	if start < 0 {
		t.Fatal("protocol.md has no section 6")
	}
	sec := doc[start:]
	open := strings.Index(sec, "```text\n")
	end := strings.Index(sec[open+8:], "```")
	if open < 0 || end < 0 {
		t.Fatal("section 6 has no text block")
	}
	var games [][]string
	for _, line := range strings.Split(sec[open+8:open+8+end], "\n") {
		if strings.HasPrefix(line, "# game ") {
			games = append(games, nil)
		}
		if len(games) > 0 && line != "" {
			games[len(games)-1] = append(games[len(games)-1], line)
		}
	}
	if len(games) == 0 {
		t.Fatal("the transcript has no game")
	}
	return games
}

// The transcript is of bots/python/random_bot.py (it says so, and its
// ready line names python-random), which answers every turn with an index
// into legal: every bot line must be what that bot sends. With python3 at
// hand the bot itself is fed the referee's lines, one process per game as
// in the transcript: it must answer each line the transcript answers, with
// the same message type and id, and with exactly the transcript's line as
// long as no turn was left out (its choices are seeded from hello).
func TestProtocolTranscriptIsTheBots(t *testing.T) {
	games := transcript(t)
	for gi, lines := range games {
		for _, line := range lines {
			if !strings.HasPrefix(line, "B> ") {
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line[3:]), &m); err != nil {
				t.Fatalf("game %d: bot line is not JSON: %s", gi+1, line)
			}
			if string(m["type"]) == `"action"` {
				if _, ok := m["index"]; !ok {
					t.Errorf("game %d: the bot answers with an index, not %s", gi+1, line)
				}
				if _, ok := m["action"]; ok {
					t.Errorf("game %d: the bot never sends an action object: %s", gi+1, line)
				}
			}
		}
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: the bot's own answers are not compared")
	}
	for gi, lines := range games {
		var in bytes.Buffer
		var want []string
		exact := []bool{}
		full := true
		for _, line := range lines {
			switch {
			case strings.HasPrefix(line, "R> "):
				in.WriteString(line[3:] + "\n")
			case strings.HasPrefix(line, "B> "):
				want = append(want, line[3:])
				exact = append(exact, full)
			case strings.HasPrefix(line, "# ..."):
				full = false // turns left out: the bot's RNG has moved on since
			}
		}
		cmd := exec.Command(py, filepath.Join(repoRoot, "bots", "python", "random_bot.py"))
		cmd.Stdin = bytes.NewReader(append(in.Bytes(), []byte(`{"type":"bye"}`+"\n")...))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("game %d: the bot failed: %v", gi+1, err)
		}
		var got []string
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			got = append(got, sc.Text())
		}
		if len(got) != len(want) {
			t.Fatalf("game %d: the bot wrote %d lines, the transcript shows %d:\n%s", gi+1, len(got), len(want), out)
		}
		for i := range got {
			if exact[i] {
				if !sameJSON(t, got[i], want[i]) {
					t.Errorf("game %d: the bot answers %s, the transcript shows %s", gi+1, got[i], want[i])
				}
				continue
			}
			if a, b := kindAndID(t, got[i]), kindAndID(t, want[i]); a != b {
				t.Errorf("game %d: the bot answers %s (%s), the transcript shows %s (%s)", gi+1, got[i], a, want[i], b)
			}
		}
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// kindAndID is a bot line's type, its id and which answer field it uses.
func kindAndID(t *testing.T, line string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("not JSON: %s", line)
	}
	fields := ""
	for _, f := range []string{"index", "action"} {
		if _, ok := m[f]; ok {
			fields += " " + f
		}
	}
	return fmt.Sprintf("%s id %s%s", m["type"], m["id"], fields)
}
