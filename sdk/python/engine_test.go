package python

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// engineEnv is the environment a Python program of the tests runs in:
// the real arena executable as its rules engine.
func engineEnv(t *testing.T) []string {
	return append(os.Environ(), "ARENA_ENGINE="+arena(t))
}

// TestEngineOps runs testdata/engine_ops.py: every Game/State operation
// of arenabot.py through a real `arena engine`, for every game, with
// batches, the server's error codes, freeing by `with` and by garbage,
// and the error when no engine is found.
func TestEngineOps(t *testing.T) {
	t.Parallel()
	py := testkit.Tool(t, "python3")
	root := moduleRoot(t)
	cmd := exec.Command(py, filepath.Join(root, "sdk/python/testdata/engine_ops.py"), filepath.Join(root, "sdk/python"))
	cmd.Env = engineEnv(t)
	out, err := cmd.CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^ok [1-9][0-9]+$`).Match(out) {
		t.Fatalf("engine_ops.py: %v\n%s", err, out)
	}
}

// matchSummary is what `arena match --json` prints that the tests read.
type matchSummary struct {
	Games int `json:"games"`
	Bots  []struct {
		Name     string `json:"name"`
		Forfeits int    `json:"forfeits"`
	} `json:"bots"`
}

// playMatch runs arena match with the bots (NAME=CMD) and returns its
// output directory, failing on a forfeit of any bot.
func playMatch(t *testing.T, game string, games int, bots []string, extra ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"match", "--game", game, "--games", strconv.Itoa(games), "--json", "--out", out, "--seed", "5"}
	for _, b := range bots {
		args = append(args, "--bot", b)
	}
	args = append(args, extra...)
	cmd := exec.Command(arena(t), args...) // no time limit: the thorough strength run takes long
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("arena %s: %v\n%s%s", strings.Join(args, " "), err, b, lastLines([]byte(stderr.String()), 30))
	}
	stdout := string(b)
	var sum matchSummary
	if err := json.Unmarshal([]byte(stdout[strings.LastIndex(stdout, "\n{")+1:]), &sum); err != nil {
		t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, stdout)
	}
	if sum.Games != games {
		t.Fatalf("%d games played, want %d", sum.Games, games)
	}
	for _, b := range sum.Bots {
		if b.Forfeits > 0 {
			t.Errorf("%s forfeited %d games (logs in %s)", b.Name, b.Forfeits, out)
		}
	}
	return out
}

// botLogs is everything the bot name wrote to stderr in a match.
func botLogs(t *testing.T, out, name string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "logs", name, "*"))
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	return all.String()
}

// TestSampleInAMatch: inside real bot processes of real matches, every
// ctx.sample() gives the bot's seat exactly the view and legal list it
// was sent (testdata/samplebot.py asserts it twice a turn), in the games
// with a sampler, at several seat counts, over several games per process.
func TestSampleInAMatch(t *testing.T) {
	t.Parallel()
	py := testkit.Tool(t, "python3")
	dir := kitDir(t, nil)
	src, err := os.ReadFile(filepath.Join(moduleRoot(t), "sdk/python/testdata/samplebot.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bot.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	me := "me=" + py + " " + filepath.Join(dir, "bot.py")
	cases := []struct {
		game  string
		bots  []string
		extra []string
	}{
		{"uno", []string{me, "r1=arena bot random", "r2=arena bot greedy"}, []string{"--option", "target=0"}},
		{"bounce", []string{me, "r1=arena bot greedy"}, nil},
		{"boon", []string{me, "r1=arena bot random", "r2=arena bot greedy"}, []string{"--option", "rounds=1"}},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			t.Parallel()
			out := playMatch(t, c.game, 2, c.bots, c.extra...)
			logs := botLogs(t, out, "me")
			if strings.Contains(logs, "act raised") || strings.Contains(logs, "Traceback") {
				t.Fatalf("samplebot failed (logs in %s):\n%s", out, logs)
			}
			sampled := regexp.MustCompile(`samplebot: game \S+ sampled (\d+)`).FindAllStringSubmatch(logs, -1)
			total := 0
			for _, m := range sampled {
				n, _ := strconv.Atoi(m[1])
				total += n
			}
			if len(sampled) != 2 || total == 0 {
				t.Fatalf("want 2 games with samples, got %v (logs in %s):\n%s", sampled, out, logs)
			}
		})
	}
}

// ismctsKit is the Python Uno kit's bot.py and ismcts.py beside the SDK.
func ismctsKit(t *testing.T) string {
	t.Helper()
	files := map[string]string{}
	for _, name := range []string{"bot.py", "ismcts.py"} {
		b, err := os.ReadFile(filepath.Join(moduleRoot(t), "bots/starters/python/uno", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	return kitDir(t, files)
}

// TestISMCTSExample plays the kit's ISMCTS example (ismcts.py) against
// the bundled greedy bot in the three other seats of four-seat Uno: it
// searches (iterations logged), never falls back, never forfeits. With
// ARENA_THOROUGH=1 it plays 200 games and logs its share of wins with a
// 95% interval (a fair share is 1/4): docs/sdk-python.md has the figures.
func TestISMCTSExample(t *testing.T) {
	t.Parallel()
	py := testkit.Tool(t, "python3")
	dir := ismctsKit(t)
	games := testkit.Pick(2, 200)
	bots := []string{"me=" + py + " " + filepath.Join(dir, "ismcts.py"),
		"g1=arena bot greedy", "g2=arena bot greedy", "g3=arena bot greedy"}
	out := playMatch(t, "uno", games, bots, "--option", "target=0", "--move-time", "300ms")
	logs := botLogs(t, out, "me")
	if strings.Contains(logs, "Traceback") || strings.Contains(logs, "fallback") {
		t.Fatalf("ismcts.py failed (logs in %s):\n%s", out, logs)
	}
	searched := regexp.MustCompile(`ismcts: game \S+ rank (\d+), ([1-9]\d*) iterations`).FindAllStringSubmatch(logs, -1)
	if len(searched) != games {
		t.Fatalf("%d games searched, want %d (logs in %s):\n%s", len(searched), games, out, logs)
	}
	wins := 0
	for _, m := range searched {
		if m[1] == "1" {
			wins++
		}
	}
	p := float64(wins) / float64(games)
	t.Logf("ismcts.py won %d of %d four-seat games against greedy x3: %.3f ± %.3f (95%%; fair share 0.25)",
		wins, games, p, 1.96*math.Sqrt(p*(1-p)/float64(games)))
}

// TestISMCTSDocIsTheKits: the ISMCTS bot shown in docs/sdk-python.md is
// the kit's ismcts.py, byte for byte, and under 150 lines.
func TestISMCTSDocIsTheKits(t *testing.T) {
	blocks, before := pythonBlocks(t, filepath.Join(moduleRoot(t), "docs", "sdk-python.md"))
	kit, err := os.ReadFile(filepath.Join(moduleRoot(t), "bots/starters/python/uno/ismcts.py"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(kit), "\n"); n >= 150 {
		t.Errorf("ismcts.py has %d lines, want under 150", n)
	}
	for i, b := range blocks {
		if before[i] == ismctsMark {
			if b != string(kit) {
				t.Errorf("the block after %s in docs/sdk-python.md is not bots/starters/python/uno/ismcts.py", ismctsMark)
			}
			return
		}
	}
	t.Errorf("docs/sdk-python.md has no block marked %s", ismctsMark)
}

// ismctsMark marks the ISMCTS example in docs/sdk-python.md: it needs the
// kit's bot.py beside it, so TestDocBots leaves it to the tests above.
const ismctsMark = "<!-- kit: bots/starters/python/uno/ismcts.py -->"
