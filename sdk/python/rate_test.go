package python

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/engineserver"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
)

// goPlayoutRate is the Go engine's own rate of uniformly random playouts
// (engineserver.Playout, the server's own loop) from the state dealt from
// seed 1, in process: playouts and plies per second over d.
func goPlayoutRate(t *testing.T, game string, seats int, given map[string]string, d time.Duration) (playouts, plies float64) {
	t.Helper()
	g, opts := testkit.Setup(t, game, seats, given)
	st, err := g.New(seats, 1, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Each playout from a copy, as the server's.
	cloner, ok := st.(engine.Cloner)
	if !ok {
		t.Fatalf("%s: the state %T is no engine.Cloner", game, st)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	n, total := 0, 0
	start := time.Now()
	for time.Since(start) < d {
		c := cloner.CloneState()
		p, _, err := engineserver.Playout(c, rng, 0)
		if err != nil {
			t.Fatal(err)
		}
		n++
		total += p
	}
	took := time.Since(start).Seconds()
	return float64(n) / took, float64(total) / took
}

// TestPlayoutRate prints random playouts per second from Python through
// the server (testdata/playout_rate.py: one request of n playouts at a
// time) against the Go engine's own rate measured in the same run, as a
// ratio (the goal: within 2x). It measures, so it is opt-in
// (ARENA_THOROUGH=1); it asserts nothing about time.
func TestPlayoutRate(t *testing.T) {
	if testkit.Quick() {
		t.Skip("measures playout rates: set ARENA_THOROUGH=1 to run it")
	}
	py := testkit.Tool(t, "python3")
	root := moduleRoot(t)
	for _, c := range []struct {
		game   string
		seats  int
		target string // Uno: 0 is one hand, as the ISMCTS example plays
	}{{"uno", 4, "0"}, {"uno", 4, "500"}, {"boon", 4, ""}, {"banqi", 2, ""}} {
		given := map[string]string{}
		if c.target != "" {
			given["target"] = c.target
		}
		goPlayouts, goPlies := goPlayoutRate(t, c.game, c.seats, given, 2*time.Second)
		cmd := exec.Command(py, filepath.Join(root, "sdk/python/testdata/playout_rate.py"), filepath.Join(root, "sdk/python"),
			c.game, strconv.Itoa(c.seats), "2", c.target)
		cmd.Env = engineEnv(t)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("playout_rate.py: %v\n%s", err, out)
		}
		t.Logf("%s %d seats %v, Go in process: %.0f playouts/s, %.0f plies/s", c.game, c.seats, given, goPlayouts, goPlies)
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var r struct {
				N        int     `json:"n"`
				Playouts float64 `json:"playouts_per_s"`
				Plies    float64 `json:"plies_per_s"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			t.Logf("  Python, n=%-3d a request: %.0f playouts/s, %.0f plies/s: Go/Python %.2fx (plies %.2fx)",
				r.N, r.Playouts, r.Plies, goPlayouts/r.Playouts, goPlies/r.Plies)
		}
	}
}
