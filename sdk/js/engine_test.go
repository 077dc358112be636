package js

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEngineOps runs testdata/engine_ops.js: every Game/State operation
// of arenabot.js through a real `arena engine`, for every game, with
// batches, requests in flight together, the server's error codes, frees,
// and the error when no engine is found.
func TestEngineOps(t *testing.T) {
	t.Parallel()
	dir := kit(t, filepath.Join("testdata", "engine_ops.js"))
	cmd := exec.Command(node(t), filepath.Join(dir, "engine_ops.js"), dir)
	cmd.Env = append(os.Environ(), "ARENA_ENGINE="+arena(t))
	out, err := cmd.CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^ok [1-9][0-9]+$`).Match(out) {
		t.Fatalf("engine_ops.js: %v\n%s", err, out)
	}
}

// TestSampleInAMatch: inside a real bot process of a real match (the
// launcher's ARENA_ENGINE, the sandbox as the arena sets it up), every
// await ctx.sample() gives the bot's seat exactly the view and legal list
// it was sent (testdata/samplebot.js asserts it twice a turn).
func TestSampleInAMatch(t *testing.T) {
	t.Parallel()
	dir := kit(t, filepath.Join("testdata", "samplebot.js"))
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"match", "--game", "uno", "--option", "target=0", "--games", "2", "--seed", "5", "--out", out,
		"--bot", "me=" + node(t) + " " + filepath.Join(dir, "samplebot.js"), "--bot", "g=arena bot greedy", "--bot", "r=arena bot random"}
	if b, err := exec.Command(arena(t), args...).CombinedOutput(); err != nil {
		t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	files, _ := filepath.Glob(filepath.Join(out, "logs", "me", "*"))
	var logs strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		logs.Write(b)
	}
	if strings.Contains(logs.String(), "act threw") || strings.Contains(logs.String(), "fallback") {
		t.Fatalf("samplebot failed (logs in %s):\n%s", out, logs.String())
	}
	total := 0
	m := regexp.MustCompile(`samplebot: game \S+ sampled (\d+)`).FindAllStringSubmatch(logs.String(), -1)
	for _, g := range m {
		n, _ := strconv.Atoi(g[1])
		total += n
	}
	if len(m) != 2 || total == 0 {
		t.Fatalf("want 2 games with samples, got %v (logs in %s):\n%s", m, out, logs.String())
	}
}
