package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// runPython runs a script of this directory with the arena binary in
// ARENA_ENGINE, as a bot's environment has it, and returns its output.
func runPython(t *testing.T, script string, args ...string) string {
	t.Helper()
	py := testkit.Tool(t, "python3")
	cmd := exec.Command(py, append([]string{filepath.Join(moduleRoot(t), "sdk", "python", script)}, args...)...)
	cmd.Env = append(os.Environ(), "ARENA_ENGINE="+arena(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", script, strings.Join(args, " "), err, lastLines(out, 30))
	}
	return string(out)
}

// arenaenv.py against a real engine server: the vector, Gymnasium-style
// and AEC-style environments over every game, illegal ids refused with
// their code, returns summing to zero, every agent finished.
func TestArenaEnv(t *testing.T) {
	t.Parallel()
	out := runPython(t, "testdata/env_check.py")
	if !strings.HasSuffix(strings.TrimSpace(out), "ok") {
		t.Fatalf("env_check.py:\n%s", out)
	}
	t.Log(out)
}

// The training tutorial (docs/training.md), short: a linear policy
// trained for 100 games against random bots wins more often than a random
// policy in its seat, the two 95% intervals apart (seeded: the same
// outcome every run). ARENA_THOROUGH=1 runs the tutorial's own counts.
func TestTrainUno(t *testing.T) {
	t.Parallel()
	args := testkit.Pick([]string{"--games", "100", "--eval", "200", "--parallel", "32"}, []string{})
	out := runPython(t, "examples/train_uno.py", args...)
	t.Log(out)
	rate := regexp.MustCompile(`(?m)^(trained|random) +win rate vs random: ([0-9.]+) \(95% CI ([0-9.]+)-([0-9.]+)\)`)
	ci := map[string][2]float64{}
	for _, m := range rate.FindAllStringSubmatch(out, -1) {
		lo, _ := strconv.ParseFloat(m[3], 64)
		hi, _ := strconv.ParseFloat(m[4], 64)
		ci[m[1]] = [2]float64{lo, hi}
	}
	if len(ci) != 2 {
		t.Fatalf("no win rates in the output")
	}
	if ci["trained"][0] <= ci["random"][1] {
		t.Errorf("the trained policy does not measurably beat random: %v vs %v", ci["trained"], ci["random"])
	}
}

// The throughput of the training path, opt-in (ARENA_THOROUGH=1): steps
// per second from Python, 4-seat Uno, random agents, 256 games a call.
// It prints the figure against RLCard's 865 steps/s; it asserts nothing
// of the clock.
func TestEnvSpeed(t *testing.T) {
	if testkit.Quick() {
		t.Skip("a measurement: ARENA_THOROUGH=1 runs it")
	}
	t.Log(runPython(t, "examples/env_speed.py", "--seconds", "10"))
}
