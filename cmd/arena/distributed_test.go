package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/internal/proctest"
)

// process is an arena subprocess whose stderr lines the test reads.
type process struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	more  chan struct{} // closed and replaced at each line
	done  chan struct{}
}

func start(t *testing.T, env []string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(os.Args[0], args...), more: make(chan struct{}), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			close(p.more)
			p.more = make(chan struct{})
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	return p
}

// waitFor returns the first stderr line matching re's first group.
func (p *process) waitFor(t *testing.T, re *regexp.Regexp) string {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for i := 0; ; {
		p.mu.Lock()
		for ; i < len(p.lines); i++ {
			if m := re.FindStringSubmatch(p.lines[i]); m != nil {
				p.mu.Unlock()
				return m[1]
			}
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-p.done:
			t.Fatalf("exited without a line matching %s:\n%s", re, p.stderr())
		case <-timeout:
			t.Fatalf("no line matching %s:\n%s", re, p.stderr())
		}
	}
}

func (p *process) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// wait waits for the process to exit and returns its exit code.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	<-p.done
	p.cmd.Wait()
	return p.cmd.ProcessState.ExitCode()
}

var workerURL = regexp.MustCompile(`arena worker --nats (\S+)`)

func distributedArgs(out string, extra ...string) []string {
	return append([]string{"tournament", "run", "--name", "dcup", "--game", "banqi", "--option", "max_plies=40",
		"--bot", "s=" + os.Args[0], "--bot", "r=arena bot random", "--bot", "g=arena bot greedy",
		"--games-per-encounter", "2", "--seed", "5", "--concurrency", "2", "--out", out, "-q"}, append(spyFlags, extra...)...)
}

// spyFlags let the spy bot write its log where the test reads it, and
// pass it its delay and the test's token (survivors are found by it).
var spyFlags = []string{"--bot-isolate", "no", "--bot-env", "ARENA_SPY_DIR", "--bot-env", "ARENA_SPY_DELAY", "--bot-env", "ARENA_DIST_TOKEN"}

// workerArgs are a worker's: the same bots as distributedArgs, under the
// same names ("s" is this test binary as the spy bot, slowed down).
func workerArgs(url, name string) []string {
	return append([]string{"worker", "--nats", url, "--name", name, "--concurrency", "2",
		"--bot", "s=" + os.Args[0], "--bot", "r=arena bot random", "--bot", "g=arena bot greedy"}, spyFlags...)
}

// A worker killed with SIGKILL mid-game: its game goes to another worker
// once its lease runs out and is recorded exactly once, by that worker;
// the killed worker's bot processes do not outlive it; the tournament
// ends with the standings of a local run.
func TestDistributedWorkerKilledMidGame(t *testing.T) {
	t.Parallel()
	local := localRun(t)
	secret := filepath.Join(local, deal.FileName)
	out := t.TempDir()
	coord := start(t, nil, distributedArgs(out, "--distributed", "--workers", "0", "--lease", "2s", "--deal-secret", secret)...)
	url := coord.waitFor(t, workerURL)

	spyA, spyB := t.TempDir(), t.TempDir()
	tokenA := fmt.Sprintf("ARENA_DIST_TOKEN=%d", time.Now().UnixNano())
	a := start(t, []string{"ARENA_SPY_DIR=" + spyA, "ARENA_SPY_DELAY=20ms", tokenA}, workerArgs(url, "A")...)
	game := spyInGame(t, spyA)
	a.cmd.Process.Kill()
	a.wait(t)
	deadline := time.Now().Add(5 * time.Second) // the parent-death signal's delivery
	for len(proctest.WithEnv(tokenA)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if left := proctest.WithEnv(tokenA); len(left) > 0 {
		t.Errorf("bot processes outlived the killed worker: %v", left)
	}

	b := start(t, []string{"ARENA_SPY_DIR=" + spyB}, workerArgs(url, "B")...)
	if code := coord.wait(t); code != 0 {
		t.Fatalf("coordinator exit %d:\n%s\nworker B:\n%s", code, coord.stderr(), b.stderr())
	}
	b.cmd.Process.Signal(os.Interrupt)
	if code := b.wait(t); code != 0 {
		t.Errorf("worker B exit %d on interrupt:\n%s", code, b.stderr())
	}
	recs := ledgerOf(t, out)
	if len(recs) != 6 {
		t.Fatalf("%d games recorded, want 6", len(recs))
	}
	for _, r := range recs {
		if r.GameID == game && r.Worker != "B" {
			t.Errorf("game %s, cut short on A, recorded by %q", game, r.Worker)
		}
	}
	if got, want := standingsOnly(t, out), standingsOnly(t, local); got != want {
		t.Errorf("standings differ from the local run's:\n got %s\nwant %s", got, want)
	}
}

// localRun plays distributedArgs's tournament here (the spy bot is this
// test binary with ARENA_SPY_DIR set) and returns its directory.
func localRun(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	if p := start(t, []string{"ARENA_SPY_DIR=" + t.TempDir()}, distributedArgs(out)...); p.wait(t) != 0 {
		t.Fatalf("local run: %s", p.stderr())
	}
	return out
}

// spyInGame waits until a spy bot of dir has been sent a turn, and
// returns its game's id.
func spyInGame(t *testing.T, dir string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
		for _, path := range logs {
			b, _ := os.ReadFile(path)
			if !bytes.Contains(b, []byte(`"type":"turn"`)) {
				continue
			}
			var hello struct {
				GameID string `json:"game_id"`
			}
			first, _, _ := bytes.Cut(b, []byte("\n"))
			if json.Unmarshal(first, &hello) == nil && hello.GameID != "" {
				return hello.GameID
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no spy bot got a turn")
	return ""
}

func ledgerOf(t *testing.T, dir string) []ledger.Record {
	t.Helper()
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.GameID] {
			t.Errorf("game %s recorded twice", r.GameID)
		}
		seen[r.GameID] = true
	}
	return recs
}

// The coordinator killed with SIGKILL and started again: it resumes from
// its ledger and the results stream, and ends with the standings of a
// local run, each game recorded once; the worker, another process, goes
// on across the restart. The NATS server is the arena's own (arena
// serve), or the coordinator's embedded one, which comes back on the same
// port with its store.
func TestDistributedCoordinatorRestart(t *testing.T) {
	t.Parallel()
	local := localRun(t)
	secret := filepath.Join(local, deal.FileName)
	for _, embedded := range []bool{false, true} {
		t.Run(fmt.Sprintf("embedded=%v", embedded), func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			args := distributedArgs(out, "--distributed", "--deal-secret", secret)
			var w *process
			var first *process
			if embedded {
				first = start(t, nil, append(args, "--workers", "0")...)
				w = start(t, []string{"ARENA_SPY_DIR=" + t.TempDir(), "ARENA_SPY_DELAY=5ms"}, workerArgs(first.waitFor(t, workerURL), "W")...)
				args = append(args, "--workers", "0")
			} else {
				srv := start(t, nil, "serve", "--listen", "127.0.0.1:0", "--store", t.TempDir())
				url := srv.waitFor(t, regexp.MustCompile(`NATS server at (\S+)`))
				w = start(t, []string{"ARENA_SPY_DIR=" + t.TempDir(), "ARENA_SPY_DELAY=5ms"}, workerArgs(url, "W")...)
				args = append(args, "--nats", url)
				first = start(t, nil, args...)
			}
			deadline := time.Now().Add(60 * time.Second)
			for ledgerLines(out) < 1 && time.Now().Before(deadline) {
				time.Sleep(2 * time.Millisecond)
			}
			first.cmd.Process.Kill()
			first.wait(t)
			if n := ledgerLines(out); n < 1 || n >= 6 {
				t.Fatalf("killed with %d games recorded, want 1 to 5 of 6:\n%s\nworker:\n%s", n, first.stderr(), w.stderr())
			}
			if again := start(t, nil, args...); again.wait(t) != 0 {
				t.Fatalf("restarted coordinator: %s\nworker:\n%s", again.stderr(), w.stderr())
			}
			if recs := ledgerOf(t, out); len(recs) != 6 {
				t.Fatalf("%d games recorded, want 6", len(recs))
			}
			if got, want := standingsOnly(t, out), standingsOnly(t, local); got != want {
				t.Errorf("standings differ from the local run's:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// A distributed SPRT reaches the verdict of the local one, over the same
// games, for the same seed and deals.
func TestDistributedSPRTSameVerdict(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "secret")
	if err := deal.Write(secret, deal.New()); err != nil {
		t.Fatal(err)
	}
	args := []string{"sprt", "--game", "banqi", "--option", "max_plies=60", "--test", "g=arena bot greedy", "--base", "r=arena bot random",
		"--elo0", "0", "--elo1", "100", "--seed", "11", "--concurrency", "1", "--max-games", "200", "--deal-secret", secret, "--json"}
	type report struct {
		Verdict  string  `json:"verdict"`
		Games    int     `json:"games"`
		LLR      float64 `json:"llr"`
		ExitCode int     `json:"exit_code"`
	}
	read := func(extra ...string) report {
		stdout, stderr, code := arena(t, append(args, extra...)...)
		var r report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != r.ExitCode {
			t.Fatalf("sprt %v: exit %d, %v: %s\n%s", extra, code, err, stdout, stderr)
		}
		return r
	}
	local, dist := read(), read("--distributed")
	if local != dist || local.Verdict != "H1" {
		t.Errorf("distributed %+v, local %+v (want the same H1)", dist, local)
	}
}

// Workers that lack a bot, or have another build of one, refuse the
// run's jobs and the coordinator says why; a worker that has them all
// plays every game.
func TestDistributedWorkersRefuse(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	coord := start(t, nil, distributedArgs(out, "--distributed", "--workers", "0", "--max-deliver", "50")...)
	url := coord.waitFor(t, workerURL)
	spy := []string{"ARENA_SPY_DIR=" + t.TempDir()}
	start(t, spy, append([]string{"worker", "--nats", url, "--name", "lacking",
		"--bot", "s=" + os.Args[0], "--bot", "r=arena bot random"}, spyFlags...)...)
	start(t, spy, append([]string{"worker", "--nats", url, "--name", "other",
		"--bot", "s=" + os.Args[0], "--bot", "r=arena bot random", "--bot", "g=arena bot random"}, spyFlags...)...)
	lacking := coord.waitFor(t, regexp.MustCompile(`worker lacking refused a game \(\S+\): (no bot g here)`))
	other := coord.waitFor(t, regexp.MustCompile(`worker other refused a game \(\S+\): (bot g here is build \S+, the run's is \S+)`))
	t.Logf("refusals: %s; %s", lacking, other)
	good := start(t, spy, workerArgs(url, "good")...)
	if code := coord.wait(t); code != 0 {
		t.Fatalf("coordinator exit %d:\n%s\ngood:\n%s", code, coord.stderr(), good.stderr())
	}
	for _, r := range ledgerOf(t, out) {
		if r.Worker != "good" && !(r.Worker == "other" && !slices.Contains(r.Bots, "g")) && !(r.Worker == "lacking" && !slices.Contains(r.Bots, "g")) {
			t.Errorf("game %s (%v) played by %s", r.GameID, r.Bots, r.Worker)
		}
	}
}

// A match played by workers (--distributed: an embedded server and a
// local worker) gives the games a match played here gives: the same
// seeds, bots by seat, places, plies and endings, game for game (in
// schedule order: the games finish in either order), at the same
// --concurrency.
func TestDistributedMatchSameGames(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "secret")
	if err := deal.Write(secret, deal.New()); err != nil {
		t.Fatal(err)
	}
	games := func(extra ...string) []ledger.Record {
		out := filepath.Join(t.TempDir(), "out")
		args := append([]string{"match", "--game", "banqi", "--option", "max_plies=60", "--bot", "g=arena bot greedy", "--bot", "r=arena bot random",
			"--games", "6", "--seed", "17", "--concurrency", "2", "--deal-secret", secret, "--out", out, "-q"}, extra...)
		if _, stderr, code := arena(t, args...); code != 0 {
			t.Fatalf("match %v: exit %d\n%s", extra, code, stderr)
		}
		recs, _, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
		if err != nil {
			t.Fatal(err)
		}
		// In the order of the schedule (the game id's end), not the order
		// the games finished in (Index).
		slices.SortFunc(recs, func(a, b ledger.Record) int { return strings.Compare(a.GameID, b.GameID) })
		return recs
	}
	local, dist := games(), games("--distributed")
	if len(local) != 6 || len(dist) != 6 {
		t.Fatalf("%d games here, %d distributed; want 6 each", len(local), len(dist))
	}
	for i := range local {
		l, d := local[i], dist[i]
		if l.GameID[len(l.GameID)-5:] != d.GameID[len(d.GameID)-5:] || l.Seed != d.Seed || !slices.Equal(l.Bots, d.Bots) || !slices.Equal(l.Ranks, d.Ranks) ||
			l.Plies != d.Plies || l.Reason != d.Reason || len(l.Forfeits) != len(d.Forfeits) {
			t.Errorf("game %d: distributed %+v\nhere %+v", i, d, l)
		}
		if d.Worker == "" || l.Worker != "" {
			t.Errorf("game %d: played by worker %q distributed, %q here; want a worker there only", i, d.Worker, l.Worker)
		}
	}
}

// arena match --concurrency refuses less than one game at a time.
func TestMatchConcurrencyUsage(t *testing.T) {
	t.Parallel()
	_, stderr, code := arena(t, "match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--concurrency", "0")
	if code != exitUsage || !strings.Contains(stderr, "--concurrency 0: want at least 1") {
		t.Errorf("exit %d, %s; want a usage error naming --concurrency", code, stderr)
	}
}
