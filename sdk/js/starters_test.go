package js

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

// arena is the arena binary, built once per test run.
func arena(t *testing.T) string { return testkit.Build(t, "./cmd/arena") }

// TestESModuleProbe runs the ES module probe (an ES module importing
// the SDK) as a student's kit holds it (beside arenabot.js) through arena
// check, and in a short match against the bundled random bot: every
// check passes, no game is forfeited or struck, and the SDK never had to
// play a fallback. The starters themselves are run as arena new writes
// them, README commands and all, by cmd/arena's TestNewKitsWorkWhereWritten.
func TestESModuleProbe(t *testing.T) {
	nodePath := node(t)
	arenaBin := arena(t)
	type run struct{ game, dir, file string }
	runs := []run{{"banqi", "testdata", "probe.mjs"}}
	for _, r := range runs {
		t.Run(r.game+"/"+r.file, func(t *testing.T) {
			t.Parallel()
			dir := kit(t, filepath.Join(r.dir, r.file))
			botCmd := nodePath + " " + filepath.Join(dir, r.file)
			check := exec.Command(arenaBin, "check", "--game", r.game, "--progress=false", botCmd)
			out, err := check.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "compliant") || strings.Contains(string(out), "FAIL") {
				t.Fatalf("arena check --game %s %q: %v\n%s", r.game, botCmd, err, out)
			}
			if r.file != "bot.js" {
				return
			}
			args := []string{"match", "--game", r.game, "--games", "4", "--json", "--out", filepath.Join(t.TempDir(), "out"),
				"--bot", "me=" + botCmd, "--bot", "random=arena bot random"}
			if r.game == "boon" {
				args = append(args, "--bot", "random2=arena bot random")
			}
			match := exec.Command(arenaBin, args...)
			var stderr strings.Builder
			match.Stderr = &stderr
			stdout, err := match.Output()
			if err != nil {
				t.Fatalf("arena %s: %v\n%s%s", strings.Join(args, " "), err, stdout, stderr.String())
			}
			var sum struct {
				Games int `json:"games"`
				Bots  []struct {
					Name     string `json:"name"`
					Games    int    `json:"games"`
					Wins     int    `json:"wins"`
					Forfeits int    `json:"forfeits"`
					Strikes  int    `json:"strikes"`
				} `json:"bots"`
			}
			if err := json.Unmarshal(stdout, &sum); err != nil {
				t.Fatalf("match summary %q: %v", stdout, err)
			}
			if sum.Games != 4 {
				t.Errorf("%d games played, want 4", sum.Games)
			}
			for _, b := range sum.Bots {
				if b.Forfeits != 0 || b.Strikes != 0 {
					t.Errorf("%s: %d forfeits, %d strikes", b.Name, b.Forfeits, b.Strikes)
				}
			}
			logs, _ := filepath.Glob(filepath.Join(args[6], "logs", "me", "*.stderr.log"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				if strings.Contains(string(b), "arenabot:") {
					t.Errorf("%s: the SDK reported a problem:\n%s", l, b)
				}
			}
			t.Logf("%s starter vs random: %+v", r.game, sum.Bots)
		})
	}
}

// TestMinimalBots takes the two minimal bots of docs/sdk-js.md (by hand,
// and on the SDK), counts their lines against the numbers the doc states,
// and runs both through arena check.
func TestMinimalBots(t *testing.T) {
	nodePath := node(t)
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "sdk-js.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := func(marker string) string {
		_, rest, ok := strings.Cut(string(doc), "<!-- minimal: "+marker+" -->\n```js\n")
		code, _, ok2 := strings.Cut(rest, "```")
		if !ok || !ok2 {
			t.Fatalf("docs/sdk-js.md has no block marked %q", marker)
		}
		return code
	}
	m := regexp.MustCompile(`\*\*Lines a minimal bot needs: (\d+) by hand, (\d+) with the SDK\*\*`).FindStringSubmatch(string(doc))
	if m == nil {
		t.Fatal("docs/sdk-js.md does not state the line counts")
	}
	arenaBin := arena(t)
	for i, marker := range []string{"hand", "sdk"} {
		code := block(marker)
		n := 0
		for _, l := range strings.Split(code, "\n") {
			if strings.TrimSpace(l) != "" {
				n++
			}
		}
		if strconv.Itoa(n) != m[i+1] {
			t.Errorf("the %s bot has %d lines, the doc says %s", marker, n, m[i+1])
		}
		dir := kit(t)
		bot := filepath.Join(dir, "bot.js")
		if err := os.WriteFile(bot, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(arenaBin, "check", "--game", "banqi", "--progress=false", nodePath+" "+bot).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "compliant") {
			t.Errorf("the %s bot fails arena check: %v\n%s", marker, err, out)
		}
	}
}
