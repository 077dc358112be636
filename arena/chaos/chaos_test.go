package chaos_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/tournament"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/proctest"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// Binaries built once by TestMain, and the interpreters found on PATH
// ("" when missing: those bots are left out, with a log line).
var (
	repoRoot  string
	chaosBin  string // bots/chaos/chaosbot
	randomBin string // bots/cmd/random
	python    string
	bashPath  string
)

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // the bots' wrapper is this test binary
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	repoRoot = filepath.Clean(filepath.Join(wd, "..", ".."))
	dir, err := os.MkdirTemp("", "arena-chaos-")
	if err == nil {
		// Isolated bots of a root arena run as uids of their own: their
		// programs must be open to others, as an organiser's would be.
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = "go" // not on PATH: the error below will say so
	}
	build := exec.Command(goTool, "build", "-o", dir+string(filepath.Separator), "./bots/chaos/chaosbot", "./bots/cmd/random")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the chaos bots: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	chaosBin, randomBin = filepath.Join(dir, "chaosbot"), filepath.Join(dir, "random")
	if py, err := exec.LookPath("python3"); err == nil {
		// The interpreter itself, not a launcher (pyenv's shim runs bash and
		// pyenv first: seconds of startup on a loaded machine).
		out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
		if python = strings.TrimSpace(string(out)); err != nil || python == "" {
			python = py
		}
	}
	bashPath, _ = exec.LookPath("bash")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// shortClock is the suite's clock: 200 ms a move, which a chaos bot that
// sleeps, hangs or spins overruns at once. The startup limit (4 s) and the
// margin (150 ms on every deadline) leave room for a loaded machine: on a
// shared 2-core machine under load average 20-30, a Python bot took over
// 2 s to start and over 250 ms to answer a turn, which would turn its
// misbehaviour into a startup failure or a timeout.
var shortClock = options.Clock{
	Move:    options.Duration(200 * time.Millisecond),
	Startup: options.Duration(4 * time.Second),
	Margin:  options.Duration(150 * time.Millisecond),
}

// lenientClock is the clock of the suite's bots that misbehave by what
// they send or do (or do not misbehave at all): one that none of them
// reaches by accident, so that each game records the bot's own
// misbehaviour, not the machine's. On a busy machine a bot that writes
// 4 MiB of JSON, or the bundled bot beside it, can take longer than
// shortClock's 350 ms; only the bots whose misbehaviour is to be slow
// (they time out) play under shortClock. Its startup limit is
// shortClock's: the bots that never start cost it whatever the clock.
var lenientClock = options.Clock{
	Move:    options.Duration(10 * time.Second),
	Startup: shortClock.Startup,
	Margin:  options.Duration(time.Second),
}

// Forfeit reasons as recorded in results.jsonl.
const (
	startup = "startup"
	timeout = "timeout"
	badMsg  = "bad_message"
	crash   = "crash"
)

// chaosBot is one misbehaving (or well-behaved) bot of the suite and the
// forfeit reasons its games may record. want nil: it must never forfeit.
type chaosBot struct {
	name string
	cmd  string
	want []string
}

func goBot(mode string, want ...string) chaosBot {
	return chaosBot{name: "go-" + mode, cmd: chaosBin + " -mode " + mode, want: want}
}

func pyBot(mode string, want ...string) chaosBot {
	return chaosBot{name: "py-" + mode, cmd: python + " " + filepath.Join(repoRoot, "bots", "chaos", "chaos_bot.py") + " " + mode, want: want}
}

func shBot(mode string, want ...string) chaosBot {
	return chaosBot{name: "sh-" + mode, cmd: bashPath + " " + filepath.Join(repoRoot, "bots", "chaos", "chaos_bot.sh") + " " + mode, want: want}
}

// suite is every behaviour with its expected reasons. Where two reasons
// are listed, both are correct and which one is recorded depends on
// timing or on the machine's limits:
//
//   - fork-bomb and mem-hog stop answering while they fork or allocate, so
//     without limits they time out; under a pids or memory limit (cgroup,
//     rlimit, the OOM killer) the bot may instead be killed before its
//     deadline, which is a crash.
//
// Every other behaviour maps to exactly one reason, whatever the timing.
func suite(t *testing.T) []chaosBot {
	bots := []chaosBot{
		goBot("crash-start", crash), // exits before hello: EPIPE on hello or EOF on ready
		goBot("crash-mid", crash),   // panics at its turn 3
		goBot("exit0", crash),       // exit status 0 mid-game is still a crash
		goBot("no-hello", startup),  // reads hello, never answers
		goBot("no-read", startup),   // never reads at all (hello fits the pipe)
		goBot("garbage", badMsg),
		goBot("bad-utf8", badMsg),
		goBot("nested", badMsg),      // 100000 deep: encoding/json's depth limit
		goBot("huge-json", badMsg),   // 4 MiB of valid JSON: over the 1 MiB line limit
		goBot("big-ok"),              // 900 KiB of valid JSON: under the limit, a legal answer
		goBot("line-100mib", badMsg), // read up to the limit, then the bot is cut off
		goBot("half-line", timeout),
		goBot("twice", badMsg), // the copy is read at the next turn with a stale id
		goBot("wrong-id", badMsg),
		goBot("unasked", badMsg), // read at its next turn: id 0 is nobody's
		goBot("stop-reading", timeout),
		goBot("sleep", timeout),
		goBot("stderr-flood"), // 20 MiB of stderr: capped in the log, game unharmed
		goBot("close-stdout", crash),
		goBot("fork-child", crash), // the bot exits, its sleeping child must die with it
		goBot("fork-bomb", timeout, crash),
		goBot("mem-hog", timeout, crash),
		goBot("busy-loop", timeout),
	}
	if python != "" {
		bots = append(bots,
			pyBot("crash-start", crash), pyBot("crash-mid", crash), pyBot("exit0", crash),
			pyBot("no-hello", startup), pyBot("garbage", badMsg), pyBot("bad-utf8", badMsg),
			pyBot("nested", badMsg), pyBot("huge-json", badMsg), pyBot("half-line", timeout),
			pyBot("twice", badMsg), pyBot("wrong-id", badMsg), pyBot("unasked", badMsg),
			pyBot("stop-reading", timeout), pyBot("sleep", timeout), pyBot("stderr-flood"),
			pyBot("close-stdout", crash), pyBot("mem-hog", timeout, crash))
	} else {
		t.Log("python3 not found: no Python chaos bots")
	}
	if bashPath != "" {
		bots = append(bots,
			shBot("crash-start", crash), shBot("exit0", crash), shBot("no-hello", startup),
			shBot("garbage", badMsg), shBot("bad-utf8", badMsg), shBot("half-line", timeout),
			shBot("sleep", timeout), shBot("stderr-flood"), shBot("close-stdout", crash),
			shBot("fork-child", crash), shBot("fork-bomb", timeout, crash), shBot("busy-loop", timeout))
	} else {
		t.Log("bash not found: no shell chaos bots")
	}
	if only := os.Getenv("ARENA_CHAOS_ONLY"); only != "" {
		re := regexp.MustCompile(only)
		bots = slices.DeleteFunc(bots, func(b chaosBot) bool { return !re.MatchString(b.name) })
	}
	return bots
}

var tokenSeq int

// newToken is put into every bot's environment (and so inherited by every
// process a bot starts) to find survivors.
func newToken() string {
	tokenSeq++
	return fmt.Sprintf("ARENA_CHAOS_TOKEN=%d-%d-%d", os.Getpid(), time.Now().UnixNano(), tokenSeq)
}

// procWatch counts the live processes carrying a token while a run goes.
type procWatch struct {
	kv   string
	stop chan struct{}
	done chan struct{}
	peak int
	load float64 // highest 1-minute load average seen
}

func loadAvg() float64 {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

func watchProcs(kv string) *procWatch {
	w := &procWatch{kv: kv, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			w.peak = max(w.peak, len(proctest.WithEnv(kv)))
			w.load = max(w.load, loadAvg())
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *procWatch) Stop() {
	close(w.stop)
	<-w.done
}

// survivors waits (polling, up to 5 s) until no process carries kv and
// returns those still alive then, after killing them so the machine does
// not keep them. Zombies have an empty environ and are not counted.
func survivors(kv string) []string {
	var left []int
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(20 * time.Millisecond) {
		if left = proctest.WithEnv(kv); len(left) == 0 {
			return nil
		}
	}
	var out []string
	for _, pid := range left {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		out = append(out, fmt.Sprintf("pid %d %q: %s", pid, bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}), bytes.TrimSpace(stat)))
		proctest.Hold(pid, "", kv).Kill() // only if it still carries the token

	}
	return out
}

// vmHWM is this process's peak resident memory in KiB.
func vmHWM() int {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return kb
		}
	}
	return 0
}

// run is one tournament run and what the test needs from it, or the
// runs of a suite's gauntlets merged (runSuite).
type run struct {
	out      string
	more     []*run // the suite's other gauntlets, merged into this run
	cfg      *tournament.Config
	recs     []ledger.Record
	peak     int // bot processes alive at once (sampled)
	load     float64
	hwmKiB   [2]int
	elapsed  time.Duration
	survived []string
}

// outs are the run's output directories.
func (r *run) outs() []string {
	outs := []string{r.out}
	for _, m := range r.more {
		outs = append(outs, m.out)
	}
	return outs
}

// runTournament plays f (bots get the run's token in their environment)
// and checks the ledger: every scheduled game recorded once, every
// replay verifies and agrees with its ledger line. Bots run unconfined,
// to test the referee and transport on their own.
func runTournament(t *testing.T, f tournament.File, deadline time.Duration) *run {
	return runConfined(t, f, deadline, false)
}

// runConfined is runTournament with, if confined, every bot in the
// sandbox `arena tournament run` gives it by default (limits, isolation).
func runConfined(t *testing.T, f tournament.File, deadline time.Duration, confined bool) *run {
	t.Helper()
	return runWith(t, f, deadline, confined, nil)
}

// runWith is runConfined with the bindings of remote bots.
func runWith(t *testing.T, f tournament.File, deadline time.Duration, confined bool, bind bot.Bindings) *run {
	t.Helper()
	kv := newToken()
	name, value, _ := strings.Cut(kv, "=")
	for i := range f.Bots {
		if strings.HasPrefix(f.Bots[i].Command, remote.Prefix) {
			continue // its server gives its processes the token
		}
		if f.Bots[i].Env == nil {
			f.Bots[i].Env = map[string]string{}
		}
		f.Bots[i].Env[name] = value
		f.Bots[i].Env["GOMAXPROCS"] = "2" // a Go bot's runtime needs no more
	}
	c, err := f.Resolve(f.Name, repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{out: t.TempDir(), cfg: c}
	if confined {
		sb, err := c.Confine(f.Name, r.out)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(sb.Describe())
	}
	if err := bot.Bind(c.Bots, bind); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	runtime.GC()
	r.hwmKiB[0] = vmHWM()
	w := watchProcs(kv)
	start := time.Now()
	_, err = tournament.Run(ctx, c, r.out, tournament.Options{})
	r.elapsed = time.Since(start)
	r.hwmKiB[1] = vmHWM()
	r.survived = survivors(kv)
	w.Stop()
	r.peak, r.load = w.peak, w.load
	if err != nil {
		t.Fatalf("tournament.Run after %v: %v", r.elapsed, err) // a referee crash or hang (deadline)
	}
	for _, s := range r.survived {
		t.Errorf("bot process survived the tournament: %s", s)
	}
	recs, torn, err := ledger.Read[ledger.Record](filepath.Join(r.out, ledger.FileName))
	if err != nil || torn != nil {
		t.Fatalf("ledger: %v %v", err, torn)
	}
	r.recs = recs
	sched, _ := c.NewScheduler()
	if len(recs) != sched.Total() {
		t.Errorf("%d games in the ledger, %d scheduled", len(recs), sched.Total())
	}
	seen := map[string]bool{}
	for _, rec := range recs {
		if seen[rec.GameID] {
			t.Errorf("game %s recorded twice", rec.GameID)
		}
		seen[rec.GameID] = true
		rp, err := rec.ReplaySource(r.out).Read()
		if err != nil {
			t.Errorf("%s: %v", rec.Replay, err)
			continue
		}
		if err := replays.Verify(rp); err != nil {
			t.Errorf("%s: %v", rec.Replay, err)
		}
		if !slices.Equal(rp.Result.Ranks, rec.Ranks) || rp.Result.Plies != rec.Plies || len(rp.Result.Forfeits) != len(rec.Forfeits) {
			t.Errorf("%s: replay result %+v, ledger %+v", rec.GameID, rp.Result, rec)
		}
	}
	return r
}

// checkStderrLogs: every per-game stderr log stays within the cap (plus
// the truncation marker); returns how many logs were truncated.
func checkStderrLogs(t *testing.T, r *run) int {
	t.Helper()
	marker := fmt.Sprintf("\n[arena: stderr truncated at %d bytes]\n", r.cfg.StderrCap)
	truncated := 0
	for _, out := range r.outs() {
		truncated += checkStderrLogsIn(t, out, marker, r.cfg.StderrCap)
	}
	return truncated
}

// checkStderrLogsIn is checkStderrLogs for one output directory.
func checkStderrLogsIn(t *testing.T, out, marker string, stderrCap int64) int {
	t.Helper()
	truncated := 0
	filepath.WalkDir(filepath.Join(out, "logs"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > stderrCap+int64(len(marker)) {
			t.Errorf("%s: %d bytes, over the %d cap", path, info.Size(), stderrCap)
		}
		if info.Size() == stderrCap+int64(len(marker)) {
			truncated++
		}
		return nil
	})
	return truncated
}

// checkGames checks every game of a gauntlet of chaos bots against
// well-behaved ones: the chaos bot forfeits with one of its expected
// reasons (or never, when it has none), no well-behaved bot ever forfeits
// or is struck, and the game is decided for the well-behaved seats.
// It returns the reasons recorded per chaos bot.
func checkGames(t *testing.T, r *run, bots []chaosBot, good map[string]bool) map[string]map[string]int {
	t.Helper()
	// On a machine overloaded by others (load average above four per
	// core), no 200 ms clock is fair: a bot may be recorded as too slow
	// (timeout, startup) before it gets to misbehave in its own way. Such
	// results are logged, not failed; every other wrong reason still fails.
	overloaded := r.load > 4*float64(runtime.NumCPU())
	slow := func(reason protocol.Reason) bool { return overloaded && (reason == timeout || reason == startup) }
	byName := map[string]chaosBot{}
	for _, b := range bots {
		byName[b.name] = b
	}
	got := map[string]map[string]int{}
	for _, rec := range r.recs {
		for _, s := range rec.Strikes {
			t.Errorf("%s: strike under the forfeit policy: %+v", rec.GameID, s)
		}
		seat := -1
		for i, name := range rec.Bots {
			if !good[name] {
				seat = i
			}
		}
		if seat < 0 {
			t.Errorf("%s: no chaos bot at the table %v", rec.GameID, rec.Bots)
			continue
		}
		cb := byName[rec.Bots[seat]]
		if got[cb.name] == nil {
			got[cb.name] = map[string]int{}
		}
		for _, f := range rec.Forfeits {
			if good[f.Bot] {
				if slow(f.Reason) {
					t.Logf("%s: well-behaved %s forfeited (%s: %s) playing %s, on an overloaded machine (load %.1f)", rec.GameID, f.Bot, f.Reason, f.Detail, cb.name, r.load)
					continue
				}
				t.Errorf("%s: well-behaved %s forfeited (%s: %s) playing %s", rec.GameID, f.Bot, f.Reason, f.Detail, cb.name)
			}
		}
		if len(cb.want) == 0 {
			got[cb.name]["none"]++
			if len(rec.Forfeits) != 0 {
				t.Errorf("%s: %s must not forfeit, recorded %+v", rec.GameID, cb.name, rec.Forfeits)
			}
			continue
		}
		if len(rec.Forfeits) == 1 && rec.Forfeits[0].Seat != seat && slow(rec.Forfeits[0].Reason) {
			continue // the well-behaved seat was too slow first (logged above)
		}
		if len(rec.Forfeits) != 1 || rec.Forfeits[0].Seat != seat {
			t.Errorf("%s: want one forfeit by %s (seat %d), got %+v", rec.GameID, cb.name, seat, rec.Forfeits)
			continue
		}
		f := rec.Forfeits[0]
		got[cb.name][string(f.Reason)]++
		if !slices.Contains(cb.want, string(f.Reason)) && slow(f.Reason) {
			t.Logf("%s: %s forfeited for %s (%s), want one of %v: on an overloaded machine (load %.1f), not failed", rec.GameID, cb.name, f.Reason, f.Detail, cb.want, r.load)
		} else if !slices.Contains(cb.want, string(f.Reason)) {
			t.Errorf("%s: %s forfeited for %s (%s), want one of %v", rec.GameID, cb.name, f.Reason, f.Detail, cb.want)
		}
		// The others are unharmed: each ranks above the forfeiting seat.
		for i, rank := range rec.Ranks {
			if i != seat && rank >= rec.Ranks[seat] {
				t.Errorf("%s: seat %d (%s) ranks %d, not above the forfeiting %s (%d)", rec.GameID, i, rec.Bots[i], rank, cb.name, rec.Ranks[seat])
			}
		}
	}
	for _, b := range bots {
		if got[b.name] == nil {
			t.Errorf("%s played no game", b.name)
		}
	}
	return got
}

// TestChaosLineMemory: the referee's peak memory around games in which a
// bot sends a 100 MiB line. It runs first (tests run in file order), on a
// warmed-up process: a first tournament with a bot that sends garbage
// brings every lazily built part (the zstd encoder, the pool, the ledger)
// to its steady size; then VmHWM is read before and after the 100 MiB
// games. The line reader stops at the 1 MiB line limit, so the growth must
// be a small fraction of the line: what is left is the line reader growing
// to the limit (about 2 MiB of buffers per reader), two games at once, and
// the garbage collector letting the heap grow before it collects.
func TestChaosLineMemory(t *testing.T) {
	play := func(mode string) *run {
		bots := []chaosBot{goBot(mode, badMsg)}
		seed := uint64(5)
		f := tournament.File{
			Name: "chaos-line", Game: "banqi", Format: "gauntlet", GamesPerEncounter: 2, Rounds: 2,
			Bots:     []tournament.BotFile{{Name: "random", Command: randomBin}, {Name: bots[0].name, Command: bots[0].cmd}},
			Gauntlet: []string{bots[0].name}, Settings: options.Settings{Seed: &seed, Concurrency: 2, Clock: options.Clock{Move: options.Duration(time.Second), Startup: options.Duration(2 * time.Second)}},
		}
		r := runTournament(t, f, time.Minute)
		checkGames(t, r, bots, map[string]bool{"random": true})
		return r
	}
	warm := play("garbage")
	big := play("line-100mib")
	growth := big.hwmKiB[1] - warm.hwmKiB[1]
	t.Logf("VmHWM: %.1f MiB at the start, %.1f MiB after the warm-up games, %.1f MiB after 4 games with a 100 MiB line: +%.1f MiB",
		float64(warm.hwmKiB[0])/1024, float64(warm.hwmKiB[1])/1024, float64(big.hwmKiB[1])/1024, float64(growth)/1024)
	if growth > 24<<10 {
		t.Errorf("the referee's peak memory grew by %d KiB over 100 MiB lines: not bounded by the 1 MiB line limit", growth)
	}
}

// TestChaos is the chaos suite: a gauntlet in which every chaos bot plays
// both seats of a Banqi game against the bundled random bot, four games
// at a time, under short clocks.
// TestChaos runs the suite twice: with bare processes, and sandboxed as
// `arena tournament run` does by default (limits, and isolation where the
// machine allows it), where the limits may turn a timeout into a crash.
func TestChaos(t *testing.T) {
	for _, confined := range []bool{false, true} {
		t.Run(fmt.Sprint("sandboxed=", confined), func(t *testing.T) { testChaos(t, confined) })
	}
}

// suiteGauntlets are the suite's tournaments: gauntlets in which every
// chaos bot plays both seats of a Banqi game against the bundled random
// bot; the bots expected to time out under shortClock, the others under
// lenientClock (a clock is a tournament's). The bots that never start
// have a gauntlet of their own, all their games at once: each costs the
// startup limit, sleeping. command is a chaos bot's command in the file
// (its own, or how it is reached).
func suiteGauntlets(name string, bots []chaosBot, command func(chaosBot) string) []tournament.File {
	var sleepers, slow, others []chaosBot
	for _, b := range bots {
		switch {
		case slices.Equal(b.want, []string{startup}):
			sleepers = append(sleepers, b)
		case slices.Contains(b.want, timeout):
			slow = append(slow, b)
		default:
			others = append(others, b)
		}
	}
	var files []tournament.File
	for _, g := range []struct {
		name        string
		bots        []chaosBot
		clock       options.Clock
		concurrency int
	}{
		{name, others, lenientClock, 4},
		{name + "-slow", slow, shortClock, 4},
		{name + "-unstarted", sleepers, shortClock, 2 * len(sleepers)},
	} {
		if len(g.bots) == 0 {
			continue
		}
		seed := uint64(20240607)
		f := tournament.File{
			Name: g.name, Game: "banqi", Options: map[string]string{"max_plies": "80"},
			Format: "gauntlet", GamesPerEncounter: 2,
			Bots: []tournament.BotFile{{Name: "random", Command: randomBin}}, Settings: options.Settings{Seed: &seed, Concurrency: g.concurrency, Clock: g.clock, StderrCap: 256 << 10},
		}
		for _, b := range g.bots {
			f.Gauntlet = append(f.Gauntlet, b.name)
			f.Bots = append(f.Bots, tournament.BotFile{Name: b.name, Command: command(b)})
		}
		files = append(files, f)
	}
	return files
}

// runSuite plays the suite's gauntlets one after another, as runWith
// plays one, and merges their runs into the first: the records of all,
// the peaks of each, the referee's memory before the first and after the
// last.
func runSuite(t *testing.T, files []tournament.File, deadline time.Duration, confined bool, bind bot.Bindings) *run {
	t.Helper()
	var r *run
	for _, f := range files {
		one := runWith(t, f, deadline, confined, bind)
		t.Logf("%s: %d games in %v", f.Name, len(one.recs), one.elapsed.Round(time.Millisecond))
		if r == nil {
			r = one
			continue
		}
		r.more = append(r.more, one)
		r.recs = append(r.recs, one.recs...)
		r.peak, r.load = max(r.peak, one.peak), max(r.load, one.load)
		r.hwmKiB[1] = one.hwmKiB[1]
		r.elapsed += one.elapsed
		r.survived = append(r.survived, one.survived...)
	}
	return r
}

func testChaos(t *testing.T, confined bool) {
	bots := suite(t)
	files := suiteGauntlets("chaos", bots, func(b chaosBot) string { return b.cmd })
	r := runSuite(t, files, 3*time.Minute, confined, nil)
	got := checkGames(t, r, bots, map[string]bool{"random": true})
	truncated := checkStderrLogs(t, r)
	if want := 2 * countNoForfeit(bots, "stderr-flood"); truncated < want {
		t.Errorf("%d stderr logs truncated at the cap, want at least %d (the stderr-flood games)", truncated, want)
	}

	growth := r.hwmKiB[1] - r.hwmKiB[0]
	t.Logf("%d games by %d chaos bots in %v; bot processes alive at once (sampled): up to %d; survivors: %d; peak load average %.1f",
		len(r.recs), len(bots), r.elapsed.Round(time.Millisecond), r.peak, len(r.survived), r.load)
	t.Logf("referee peak RSS (VmHWM) %.1f MiB before, %.1f MiB after: +%.1f MiB (the suite sent a 100 MiB line and 4 MiB lines)",
		float64(r.hwmKiB[0])/1024, float64(r.hwmKiB[1])/1024, float64(growth)/1024)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("Go runtime after the suite: Sys %.1f MiB (heap %.1f, stacks %.1f), %d GCs", float64(ms.Sys)/(1<<20), float64(ms.HeapSys)/(1<<20), float64(ms.StackSys)/(1<<20), ms.NumGC)
	// Not only the lines: this includes the replay writer's zstd encoders,
	// four games at once and the /proc sampling above. TestChaosLineMemory
	// measures the 100 MiB line on its own.
	if growth > 96<<10 {
		t.Errorf("the referee's peak memory grew by %d KiB during the suite", growth)
	}
	var lines []string
	for _, b := range bots {
		var rs []string
		for reason, n := range got[b.name] {
			rs = append(rs, fmt.Sprintf("%s x%d", reason, n))
		}
		sort.Strings(rs)
		lines = append(lines, fmt.Sprintf("  %-18s -> %s", b.name, strings.Join(rs, ", ")))
	}
	t.Logf("recorded reasons:\n%s", strings.Join(lines, "\n"))
}

func countNoForfeit(bots []chaosBot, mode string) int {
	n := 0
	for _, b := range bots {
		if strings.HasSuffix(b.name, "-"+mode) && len(b.want) == 0 {
			n++
		}
	}
	return n
}

// TestChaosBoon: one chaos bot at a 4-seat Boon table. Its forfeit must
// leave the other three seats' game running to its natural end: the
// referee plays the forfeited seat's cards, the three are ranked above it
// among themselves by the game, not by the forfeit.
func TestChaosBoon(t *testing.T) {
	bots := []chaosBot{goBot("crash-mid", crash), goBot("garbage", badMsg)}
	if python != "" {
		bots = append(bots, pyBot("sleep", timeout))
	}
	seed := uint64(11)
	f := tournament.File{
		Name: "chaos-boon", Game: "boon", Seats: 4, Options: map[string]string{"rounds": "4"},
		Format: "gauntlet", GamesPerEncounter: 4,
		Bots: []tournament.BotFile{
			{Name: "random-a", Command: randomBin},
			{Name: "random-b", Command: randomBin},
			{Name: "random-c", Command: chaosBin + " -mode good"},
		}, Settings: options.Settings{Seed: &seed, Concurrency: 2, Clock: shortClock},
	}
	for _, b := range bots {
		f.Gauntlet = append(f.Gauntlet, b.name)
		f.Bots = append(f.Bots, tournament.BotFile{Name: b.name, Command: b.cmd})
	}
	r := runTournament(t, f, 2*time.Minute)
	good := map[string]bool{"random-a": true, "random-b": true, "random-c": true}
	checkGames(t, r, bots, good)
	for _, rec := range r.recs {
		if len(rec.Forfeits) != 1 {
			continue // reported by checkGames
		}
		rp, err := rec.ReplaySource(r.out).Read()
		if err != nil {
			t.Fatal(err)
		}
		ply := -1
		for _, e := range rp.Events {
			if e.Forfeit != nil {
				ply = e.Forfeit.Ply
			}
		}
		// The game went on after the forfeit and ended by the rules.
		if rec.Plies <= ply+3 || strings.Contains(rec.Reason, "forfeited") {
			t.Errorf("%s: forfeit at ply %d, game over at ply %d (%q): the other seats did not play on", rec.GameID, ply, rec.Plies, rec.Reason)
		}
		t.Logf("%s: %s forfeited (%s) at ply %d; the other three played on to ply %d: %s, ranks %v",
			rec.GameID, rec.Forfeits[0].Bot, rec.Forfeits[0].Reason, ply, rec.Plies, rec.Reason, rec.Ranks)
	}
	if len(r.survived) == 0 {
		t.Logf("%d games in %v, no survivors", len(r.recs), r.elapsed.Round(time.Millisecond))
	}
}

// TestChaosEscapedChild: a bot whose child leaves the bot's process group
// (setsid) before the bot exits. The referee kills the bot's process
// group; a child in a session of its own is not in it.
func TestChaosEscapedChild(t *testing.T) {
	bots := []chaosBot{goBot("fork-escape", crash)}
	seed := uint64(3)
	f := tournament.File{
		Name: "chaos-escape", Game: "banqi", Format: "gauntlet", GamesPerEncounter: 2,
		Bots:     []tournament.BotFile{{Name: "random", Command: randomBin}, {Name: bots[0].name, Command: bots[0].cmd}},
		Gauntlet: []string{bots[0].name}, Settings: options.Settings{Seed: &seed, Concurrency: 2, Clock: shortClock},
	}
	r := runTournament(t, f, time.Minute)
	checkGames(t, r, bots, map[string]bool{"random": true})
}

// TestChaosChildHoldsStdout: a bot starts a helper that inherits its
// stdout (as subprocess.Popen or a shell's `cmd &` do by default), then
// exits. The bot has exited: that is a crash, to be recorded at once, not
// a timeout after the whole move time because the helper keeps the pipe
// open.
func TestChaosChildHoldsStdout(t *testing.T) {
	bots := []chaosBot{goBot("fork-stdout", crash)}
	seed := uint64(4)
	f := tournament.File{
		Name: "chaos-stdout", Game: "banqi", Format: "gauntlet", GamesPerEncounter: 2,
		Bots:     []tournament.BotFile{{Name: "random", Command: randomBin}, {Name: bots[0].name, Command: bots[0].cmd}},
		Gauntlet: []string{bots[0].name}, Settings: options.Settings{Seed: &seed, Concurrency: 2, Clock: options.Clock{Move: options.Duration(time.Second), Startup: options.Duration(2 * time.Second)}},
	}
	r := runTournament(t, f, time.Minute)
	checkGames(t, r, bots, map[string]bool{"random": true})
	// No allowance for load here: the bot exits within a millisecond of
	// its turn and the move time is a second.
	for _, rec := range r.recs {
		for _, f := range rec.Forfeits {
			if f.Bot == bots[0].name && f.Reason != crash {
				t.Errorf("%s: the bot exited, recorded as %s: %s", rec.GameID, f.Reason, f.Detail)
			}
		}
	}
}

// TestChaosSoak is opt-in (ARENA_CHAOS_SOAK=1; ARENA_CHAOS_SOAK_SEED picks
// the mix): 1,000 Banqi games, eight at a time, in a gauntlet of 20 bots
// against 5, each bot drawn at random from the well-behaved bots and the
// chaos suite. The run must end (no referee crash or hang), record every
// game, and leave no bot process behind; it reports the referee's peak
// memory and how often the well-behaved bots forfeited (on a loaded
// machine their clocks are not fair: that is reported, not failed). Bots
// are sandboxed as `arena tournament run` does by default;
// ARENA_CHAOS_SOAK_BARE=1 runs them as bare processes.
//
//	ARENA_CHAOS_SOAK=1 go test -run TestChaosSoak -v -timeout 30m ./arena/chaos/
func TestChaosSoak(t *testing.T) {
	if os.Getenv("ARENA_CHAOS_SOAK") == "" {
		t.Skip("opt-in: set ARENA_CHAOS_SOAK=1")
	}
	seed := uint64(1)
	if s := os.Getenv("ARENA_CHAOS_SOAK_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 0xc4a05))
	good := []chaosBot{{name: "random", cmd: randomBin}, {name: "go-good", cmd: chaosBin + " -mode good"}}
	if python != "" {
		good = append(good, pyBot("good"), chaosBot{name: "py-random", cmd: python + " " + filepath.Join(repoRoot, "bots", "python", "random_bot.py")})
	}
	if bashPath != "" {
		good = append(good, shBot("good"))
	}
	var bad []chaosBot
	for _, b := range suite(t) {
		switch b.name {
		case "py-mem-hog":
			continue // its 2 GiB are not configurable; the Go hog stands in
		case "go-mem-hog":
			b.cmd += " -hog-mib 512" // eight at once must not eat the machine
		}
		bad = append(bad, b)
	}
	isGood := map[string]bool{}
	pick := func(i int) chaosBot {
		var b chaosBot
		if rng.IntN(2) == 0 {
			b = good[rng.IntN(len(good))]
		} else {
			b = bad[rng.IntN(len(bad))]
		}
		b.name = fmt.Sprintf("%s.%02d", b.name, i)
		return b
	}
	f := tournament.File{
		Name: "soak", Game: "banqi", Options: map[string]string{"max_plies": "100"},
		Format: "gauntlet", GamesPerEncounter: 2, Rounds: 5, Settings: options.Settings{Seed: &seed, Concurrency: 8, Clock: shortClock, StderrCap: 256 << 10},
	}
	// The heavy behaviours are always in the mix, at random places among
	// the gauntlet bots; the rest is drawn at random.
	heavy := map[int]string{}
	for _, name := range []string{"go-fork-bomb", "go-mem-hog", "go-busy-loop", "go-line-100mib", "sh-fork-bomb"} {
		for {
			if i := rng.IntN(20); heavy[i] == "" {
				heavy[i] = name
				break
			}
		}
	}
	var mix []string
	for i := range 25 {
		b := pick(i)
		if name, ok := heavy[i]; ok {
			for _, x := range bad {
				if x.name == name {
					b = x
					b.name = fmt.Sprintf("%s.%02d", x.name, i)
				}
			}
		}
		if b.want == nil && !strings.HasPrefix(b.name, "go-big-ok") && !strings.Contains(b.name, "stderr-flood") {
			isGood[b.name] = true
		}
		f.Bots = append(f.Bots, tournament.BotFile{Name: b.name, Command: b.cmd})
		if i < 20 {
			f.Gauntlet = append(f.Gauntlet, b.name)
		}
		mix = append(mix, b.name)
	}
	t.Logf("bots (the first 20 run the gauntlet): %s", strings.Join(mix, " "))
	r := runConfined(t, f, 20*time.Minute, os.Getenv("ARENA_CHAOS_SOAK_BARE") == "")
	checkStderrLogs(t, r)
	reasons := map[string]int{}
	goodForfeits, goodGames := map[string]int{}, 0
	byBot := map[string]map[string]int{}
	for _, rec := range r.recs {
		for _, name := range rec.Bots {
			if isGood[name] {
				goodGames++
			}
		}
		for _, f := range rec.Forfeits {
			reasons[string(f.Reason)]++
			kind, _, _ := strings.Cut(f.Bot, ".")
			if byBot[kind] == nil {
				byBot[kind] = map[string]int{}
			}
			byBot[kind][string(f.Reason)]++
			if isGood[f.Bot] {
				goodForfeits[string(f.Reason)]++
				t.Logf("%s: well-behaved %s forfeited: %s: %s", rec.GameID, f.Bot, f.Reason, f.Detail)
			}
		}
	}
	t.Logf("%d games in %v (%.1f games/s); bot processes alive at once (sampled): up to %d; survivors: %d",
		len(r.recs), r.elapsed.Round(time.Second), float64(len(r.recs))/r.elapsed.Seconds(), r.peak, len(r.survived))
	t.Logf("forfeits by reason: %v; by well-behaved bots: %v in %d seat-games", reasons, goodForfeits, goodGames)
	t.Logf("referee peak RSS (VmHWM): %.1f MiB (%.1f MiB at the start)", float64(r.hwmKiB[1])/1024, float64(r.hwmKiB[0])/1024)
	var kinds []string
	for k, m := range byBot {
		kinds = append(kinds, fmt.Sprintf("%s %v", k, m))
	}
	sort.Strings(kinds)
	t.Logf("forfeits by bot:\n  %s", strings.Join(kinds, "\n  "))
}
