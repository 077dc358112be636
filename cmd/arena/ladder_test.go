package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/internal/testkit"
	pysdk "github.com/arena-dev/arena/sdk/python"
)

// ladderFile is the scenario's ladder: banqi between the bundled random
// and greedy bots, short games (max_plies), clocks a loaded machine keeps
// (a bot answers in a millisecond; the clock bounds a stuck one only).
// The bundled bots run this test binary, as the arena (TestMain).
const ladderFile = `name: cup
game: banqi
options:
  max_plies: 200
seed: 7
concurrency: 2
clock:
  move: 2s
  startup: 10s
limits:
  env: [ARENA_AS_CLI] # "arena bot random" is this test binary (TestMain)
submissions:
  validation_games: 2
bots:
  - name: random
    command: arena bot random
  - name: greedy
    command: arena bot greedy
`

// The Python bot's three versions: random, broken on its first turn
// (garbage on stdout, then a crash), and the banqi starter kit's, which
// captures what it can (bots/starters/python/banqi).
const (
	pyRandom = `import arenabot
arenabot.run(lambda view, legal, ctx: ctx.random.randrange(len(legal)))
`
	pyBroken = `import os, arenabot
def act(view, legal, ctx):
    os.write(1, b"this is not JSON\n")
    os._exit(3)
arenabot.run(act)
`
)

// pyBot writes a bot directory: bot.py with the SDK beside it, and a
// manifest when given one.
func pyBot(t *testing.T, src, manifest string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"bot.py": src, "arenabot.py": string(pysdk.Source)}
	if manifest != "" {
		files["manifest.json"] = manifest
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ladderCmd runs a ladder command that ends (submit --wait ends with the
// verdict of the run in the background), bounded so that a run that died
// fails the test instead of hanging it.
func ladderCmd(t *testing.T, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"ladder"}, args...)...)
	out, err := cmd.Output()
	code := exitCode(t, err)
	if ee, ok := err.(*exec.ExitError); ok {
		out = append(out, ee.Stderr...)
	}
	return string(out), code
}

// waitUntil waits until ok holds of the stderr lines so far.
func (p *process) waitUntil(t *testing.T, what string, ok func(lines []string) bool) {
	t.Helper()
	timeout := time.After(90 * time.Second)
	for {
		p.mu.Lock()
		done, more := ok(p.lines), p.more
		p.mu.Unlock()
		if done {
			return
		}
		select {
		case <-more:
		case <-p.done:
			t.Fatalf("exited before %s:\n%s", what, p.stderr())
		case <-timeout:
			t.Fatalf("no %s in 90s:\n%s", what, p.stderr())
		}
	}
}

// gamesOf counts the progress lines of games that version played.
func gamesOf(version string) func([]string) int {
	re := regexp.MustCompile(`^game \d+ \S+: .*\b` + regexp.QuoteMeta(version) + ` \d`)
	return func(lines []string) int { return matching(lines, re) }
}

// TestLadderScenario does what an organiser and contestants do: init a
// ladder of bundled bots, run it, submit three versions of a Python bot
// while it runs (the broken one refused with the check's reason, the
// better one admitted, retiring the first, and rated above it), SIGKILL
// the run mid-game and run it again (no game lost or counted twice, a
// table cut short completed, the ratings equal to a recomputation from
// the ledger), then stop it with SIGTERM.
func TestLadderScenario(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	tmp := t.TempDir()
	file, dir := filepath.Join(tmp, "ladder.yaml"), filepath.Join(tmp, "cup")
	if err := os.WriteFile(file, []byte(ladderFile), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := ladderCmd(t, "init", dir, file)
	if code != 0 || !strings.Contains(out, "next: arena ladder run "+dir) {
		t.Fatalf("init: exit %d:\n%s", code, out)
	}
	run := start(t, nil, "ladder", "run", dir)
	run.waitFor(t, regexp.MustCompile(`^(game 1 )`))

	// v1, by its manifest.
	v1 := pyBot(t, pyRandom, `{"name": "py", "command": "python3 bot.py"}`)
	if out, code := ladderCmd(t, "submit", dir, v1, "--wait"); code != 0 || !strings.Contains(out, "admitted as py.v1") {
		t.Fatalf("submit v1: exit %d:\n%s", code, out)
	}
	run.waitUntil(t, "game of py.v1", func(l []string) bool { return gamesOf("py.v1")(l) >= 4 })

	// v2: refused, and told why (the check's report) by submit and status.
	out, code = ladderCmd(t, "submit", dir, pyBot(t, pyBroken, ""), "--name", "py", "--command", "python3 bot.py", "--wait")
	id := regexp.MustCompile(`submitted py as submission (\S+)`).FindStringSubmatch(out)
	if code != exitFail || id == nil || !strings.Contains(out, "py refused") || !strings.Contains(out, "FAIL no-crash") {
		t.Fatalf("submit v2: exit %d, want %d, refused with the check's FAIL line:\n%s", code, exitFail, out)
	}
	if status, code := ladderCmd(t, "status", dir, id[1]); code != 0 || !strings.Contains(status, "FAIL no-crash") || !strings.Contains(status, "exited with status 3") {
		t.Fatalf("status of v2: exit %d:\n%s", code, status)
	}

	// v3 (py.v2: a refusal takes no version): admitted, retires py.v1.
	starter, err := os.ReadFile(filepath.Join(testkit.ModuleRoot(t), "bots", "starters", "python", "banqi", "bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	if out, code := ladderCmd(t, "submit", dir, pyBot(t, string(starter), ""), "--name", "py", "--command", "python3 bot.py", "--wait"); code != 0 || !strings.Contains(out, "admitted as py.v2") {
		t.Fatalf("submit v3: exit %d:\n%s", code, out)
	}
	run.waitFor(t, regexp.MustCompile(`^(arena: py\.v2 admitted \(submission \S+\))$`))
	run.waitUntil(t, "12 games of py.v2", func(l []string) bool { return gamesOf("py.v2")(l) >= 12 })

	// SIGKILL as a game is recorded: its table's other game is playing.
	killed := sigkillMidTable(t, run, dir)

	resumed := start(t, nil, "ladder", "run", dir)
	resumed.waitUntil(t, "10 games of the resumed run", func(l []string) bool { return gamesOf("py.v2")(l) >= 10 })
	resumed.cmd.Process.Signal(syscall.SIGTERM)
	if code := resumed.wait(t); code != 0 {
		t.Fatalf("resumed run stopped by SIGTERM: exit %d:\n%s", code, resumed.stderr())
	}
	recs := ledgerOf(t, dir) // no game twice
	checked := regexp.MustCompile(fmt.Sprintf(`arena: ratings check: the live ratings equal a recomputation from the ledger \(%d games\)`, len(recs)))
	stderr := resumed.stderr()
	if !strings.Contains(stderr, "arena: ladder cup stopped (SIGTERM) after") || !checked.MatchString(stderr) || strings.Contains(stderr, "context canceled") {
		t.Fatalf("resumed run's stderr:\n%s\nwant the stop by SIGTERM in words and the ratings check of %d games", stderr, len(recs))
	}
	checkLadderLedger(t, recs, killed)
	checkLadderStandings(t, dir, recs)
}

// sigkillMidTable kills the run with SIGKILL once it prints the first
// game of a table (whose other game is then playing, or about to), and
// returns the tables the ledger then holds only part of.
func sigkillMidTable(t *testing.T, run *process, dir string) map[int]int {
	t.Helper()
	game := regexp.MustCompile(`^game \d+ cup-t(\d+)-g\d: `)
	tables := map[string]int{}
	seen := 0
	run.waitUntil(t, "a table's first game", func(l []string) bool {
		for ; seen < len(l); seen++ {
			if m := game.FindStringSubmatch(l[seen]); m != nil {
				tables[m[1]]++
				if tables[m[1]] == 1 && seen >= len(l)-1 {
					return true // the last line so far: the run goes on from it
				}
			}
		}
		return false
	})
	run.cmd.Process.Kill()
	run.wait(t)
	partial := map[int]int{}
	for _, r := range ledgerOf(t, dir) {
		partial[r.Round]++
	}
	for round, n := range partial {
		if n >= 2 {
			delete(partial, round)
		}
	}
	t.Logf("killed with %d tables cut short: %v", len(partial), partial)
	return partial
}

// checkLadderLedger: each line's index is its place, no table has more
// games than its seats, and the tables cut short by SIGKILL are whole.
func checkLadderLedger(t *testing.T, recs []ledger.Record, killed map[int]int) {
	t.Helper()
	tables := map[int]int{}
	for i, r := range recs {
		if r.Index != i {
			t.Errorf("line %d: index %d", i+1, r.Index)
		}
		tables[r.Round]++
	}
	for round, n := range tables {
		if n > 2 {
			t.Errorf("table %d: %d games, of 2", round, n)
		}
	}
	for round := range killed {
		if tables[round] != 2 {
			t.Errorf("table %d, cut short by SIGKILL, has %d of its 2 games after the resumed run", round, tables[round])
		}
	}
}

// checkLadderStandings: standings --json are the ratings folded from the
// ledger, bit for bit; py.v1 is retired, py.v2 active and rated above it.
func checkLadderStandings(t *testing.T, dir string, recs []ledger.Record) {
	t.Helper()
	out, code := ladderCmd(t, "standings", dir, "--json")
	var st ladder.Standings
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("standings --json: exit %d, %v:\n%s", code, err, out)
	}
	c, err := ladder.ReadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	fold := ladder.Fold(c.Rating, c.Initial, recs)
	rows := map[string]ladder.StandingsRow{}
	for _, r := range st.Rows {
		rows[r.Version] = r
		if f := fold.Get(r.Version); r.Mu != f.Mu || r.Sigma != f.Sigma || r.Games != f.Games {
			t.Errorf("%s: standings mu %v sigma %v (%d games), the ledger's fold %v %v (%d)", r.Version, r.Mu, r.Sigma, r.Games, f.Mu, f.Sigma, f.Games)
		}
	}
	if st.Games != len(recs) || len(rows) != len(fold.Names()) {
		t.Errorf("standings of %d games, %d versions; the ledger has %d games of %d versions", st.Games, len(rows), len(recs), len(fold.Names()))
	}
	v1, v2 := rows["py.v1"], rows["py.v2"]
	if v1.Status != ladder.StatusRetired || v2.Status != ladder.StatusActive || v2.Mu <= v1.Mu {
		t.Errorf("py.v1 %s mu %.1f (%d games), py.v2 %s mu %.1f (%d games): want v1 retired, v2 active and rated above it",
			v1.Status, v1.Mu, v1.Games, v2.Status, v2.Mu, v2.Games)
	}
	if table, code := ladderCmd(t, "standings", dir); code != 0 || !strings.Contains(table, "py.v2") || !strings.Contains(table, "retired") {
		t.Errorf("standings: exit %d:\n%s", code, table)
	}
}

// TestLadderUsageErrors: the command line's mistakes exit 2 naming what
// is wrong.
func TestLadderUsageErrors(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	_, remote := makeLadder(t, ladderFile+"  - name: alice\n    command: nats:alice\n")
	runUsageCases(t, []usageCase{
		{"remote bots without a server", []string{"ladder", "run", remote}, "give --nats URL"},
		{"run without DIR", []string{"ladder", "run"}, "ladder run needs DIR"},
		{"init of a missing file", []string{"ladder", "init", filepath.Join(tmp, "cup"), filepath.Join(tmp, "nope.yaml")}, "nope.yaml"},
		{"standings of no ladder", []string{"ladder", "standings", tmp}, "not a ladder directory"},
		{"submit without a name", []string{"ladder", "submit", tmp, tmp, "--command", "x"}, "needs --name and --command"},
		{"submit of no directory", []string{"ladder", "submit", tmp, filepath.Join(tmp, "nope")}, "is not a directory"},
	}, nil)
}
