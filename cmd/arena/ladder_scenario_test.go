package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/internal/words"
)

var (
	leaderboardURL = regexp.MustCompile(`^arena: leaderboard on (http://127\.0\.0\.1:\d+/) \(read-only\)$`)
	remoteBotsURL  = regexp.MustCompile(`^arena: NATS server for remote bots at (nats://[0-9.]+:\d+):`)
	gameLine       = regexp.MustCompile(`^game \d+ `)
)

// stopWithin bounds how long a process stopped by a signal may take to
// exit: the ladder's grace for its games, and the rest of a loaded
// machine's slowness. A process that hangs fails the test instead.
const stopWithin = time.Minute

// makeLadder writes yaml as a ladder file and makes a ladder of it;
// it returns the file and the ladder's directory.
func makeLadder(t *testing.T, yaml string) (file, dir string) {
	t.Helper()
	tmp := t.TempDir()
	file, dir = filepath.Join(tmp, "ladder.yaml"), filepath.Join(tmp, "cup")
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := ladderCmd(t, "init", dir, file); code != 0 {
		t.Fatalf("init: exit %d:\n%s", code, out)
	}
	return file, dir
}

// stopped signals p with SIGTERM and returns its exit code, failing t
// if it does not exit within stopWithin.
func (p *process) stopped(t *testing.T) int {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(stopWithin):
		p.cmd.Process.Kill()
		t.Fatalf("still running %v after SIGTERM:\n%s", stopWithin, p.stderr())
	}
	return p.wait(t)
}

// stopLadder stops a ladder's run with SIGTERM: it must exit 0, saying
// so, and check its live ratings against the ledger, whose records
// (each game once: ledgerOf) it returns.
func stopLadder(t *testing.T, run *process, dir string) []ledger.Record {
	t.Helper()
	if code := run.stopped(t); code != 0 {
		t.Fatalf("run stopped by SIGTERM: exit %d:\n%s", code, run.stderr())
	}
	recs := ledgerOf(t, dir)
	stderr := run.stderr()
	checked := fmt.Sprintf("arena: ratings check: the live ratings equal a recomputation from the ledger (%s)", words.Count(len(recs), "game", "games"))
	if !strings.Contains(stderr, "arena: ladder cup stopped (SIGTERM) after") || !strings.Contains(stderr, checked) {
		t.Fatalf("run's stderr:\n%s\nwant the stop by SIGTERM in words and %q", stderr, checked)
	}
	return recs
}

// games counts the progress lines of games.
func games(lines []string) int { return matching(lines, gameLine) }

// matching counts the lines re matches.
func matching(lines []string, re *regexp.Regexp) int {
	n := 0
	for _, l := range lines {
		if re.MatchString(l) {
			n++
		}
	}
	return n
}

// gamesSoFar counts the games p has said it played.
func (p *process) gamesSoFar() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return games(p.lines)
}

// cleanGamesOf counts the progress lines of games version played without
// forfeiting, among the game lines after the first skip.
func cleanGamesOf(version string, skip int) func([]string) int {
	played, forfeited := gamesOf(version), version+" forfeited"
	return func(lines []string) int {
		n := 0
		for _, l := range lines {
			if !gameLine.MatchString(l) {
				continue
			}
			if skip--; skip < 0 && played([]string{l}) == 1 && !strings.Contains(l, forfeited) {
				n++
			}
		}
		return n
	}
}

// plays counts the records version has a seat in, and those it forfeited.
func plays(recs []ledger.Record, version string) (played, forfeited int) {
	for _, r := range recs {
		if slices.Contains(r.Bots, version) {
			played++
		}
		for _, f := range r.Forfeits {
			if f.Bot == version {
				forfeited++
			}
		}
	}
	return played, forfeited
}

// standingsJSON is ladder standings --json of dir, as a version's row.
func standingsJSON(t *testing.T, dir string) map[string]ladder.StandingsRow {
	t.Helper()
	out, code := ladderCmd(t, "standings", dir, "--json")
	var st ladder.Standings
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("standings --json: exit %d, %v:\n%s", code, err, out)
	}
	rows := map[string]ladder.StandingsRow{}
	for _, r := range st.Rows {
		rows[r.Version] = r
	}
	return rows
}

// TestLadderLeaderboardLive: ladder run --http on a free port says its
// URL; the page, open in headless Chromium, lists the bundled bots, and
// as the run plays on it shows the new games without a reload (from the
// live feed); SIGTERM stops the run, browser and all, cleanly, and the
// page then says its feed is down.
func TestLadderLeaderboardLive(t *testing.T) {
	t.Parallel()
	ctx := browsertest.New(t)
	_, dir := makeLadder(t, ladderFile)
	run := start(t, nil, "ladder", "run", dir, "--http", "127.0.0.1:0")
	url := run.waitFor(t, leaderboardURL)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	bots, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#standings tbody tr .name')).map(td => td.textContent).sort()`))
	if err != nil || !slices.Equal(bots, []string{"greedy", "random"}) {
		t.Fatalf("standings show bots %q (%v), want greedy and random", bots, err)
	}
	wait := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(time.Minute))); err != nil {
			t.Fatalf("waiting for %s: %v\nrun:\n%s", js, err, run.stderr())
		}
	}
	wait(`document.getElementById('live').textContent === 'live'`)
	const visible = `Number(document.getElementById('visible').textContent)`
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.notReloaded = true, `+visible))
	if err != nil {
		t.Fatal(err)
	}
	// A game ends after the page was drawn: the page shows more games
	// (once their tables are whole), and its standings count them all,
	// two seats a game.
	after := run.gamesSoFar()
	run.waitUntil(t, "a game after the page was drawn", func(l []string) bool { return games(l) > after })
	seats := `Array.from(document.querySelectorAll('#standings td.games')).reduce((n, td) => n + Number(td.textContent), 0)`
	wait(fmt.Sprintf(`%s > %d && %s === 2 * %s`, visible, shown, seats, visible))
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true && document.getElementById('live').textContent === 'live'`)); err != nil || !ok {
		t.Errorf("the page was reloaded, or its feed is down (%v)", err)
	}
	shownNow, err := chromedp.Run(ctx, chromedp.Evaluate[int](visible))
	if err != nil {
		t.Fatal(err)
	}

	// The open feed does not hold the run up; the page sees it end.
	recs := stopLadder(t, run, dir)
	if shownNow > len(recs) {
		t.Errorf("the page showed %d games, the ledger has %d", shownNow, len(recs))
	}
	wait(`document.getElementById('live').textContent === 'polling'`)
	t.Logf("the page showed %d games, then %d; the ledger has %d", shown, shownNow, len(recs))
}

// TestLadderRemoteBot: a ladder's remote bot (nats:alice) plays while
// arena connect serves it; its server killed, the ladder plays on with
// the others, alice forfeiting at most the games she was seated in, and
// she stays active (not suspended); served again, she plays again.
func TestLadderRemoteBot(t *testing.T) {
	t.Parallel()
	const alice, concurrency = "alice.v1", 2 // ladderFile's concurrency
	_, dir := makeLadder(t, ladderFile+"  - name: alice\n    command: nats:alice\n")
	run := start(t, nil, "ladder", "run", dir, "--nats-listen", "127.0.0.1:0")
	url := run.waitFor(t, remoteBotsURL)
	// Sessions for each seat of each table at once (docs/remote.md).
	serve := func() *process {
		return start(t, nil, "connect", "--nats", url, "--bot", "alice", "--sessions", "4", "--", "arena", "bot", "random")
	}
	server := serve()
	run.waitUntil(t, "2 games of alice", func(l []string) bool { return cleanGamesOf(alice, 0)(l) >= 2 })

	server.cmd.Process.Kill()
	server.wait(t)
	killed := run.gamesSoFar()
	run.waitUntil(t, "20 games after alice's server was killed", func(l []string) bool { return games(l) >= killed+20 })
	if row := standingsJSON(t, dir)[alice]; row.Status != ladder.StatusActive {
		t.Errorf("alice away: %s %q in the standings, want active", row.Status, row.Reason)
	}

	back := run.gamesSoFar()
	server = serve()
	run.waitUntil(t, "2 games of alice served again", func(l []string) bool { return cleanGamesOf(alice, back)(l) >= 2 })

	// A contestant enters a bot they serve while the ladder runs: under
	// its own id only, judged by the check's games through the link.
	bob := start(t, nil, "connect", "--nats", url, "--bot", "bob", "--sessions", "4", "--", "arena", "bot", "greedy")
	if out, code := ladderCmd(t, "submit", dir, "--name", "carol", "--command", "nats:bob", "--wait"); code != 1 || !strings.Contains(out, "under its own id") {
		t.Errorf("submit of nats:bob as carol: exit %d, want 1 (refused):\n%s", code, out)
	}
	if out, code := ladderCmd(t, "submit", dir, "--name", "bob", "--command", "nats:bob", "--wait"); code != 0 || !strings.Contains(out, "admitted as bob.v1") {
		t.Fatalf("submit of nats:bob: exit %d, want 0 (admitted):\n%s", code, out)
	}
	joined := run.gamesSoFar()
	run.waitUntil(t, "2 games of bob", func(l []string) bool { return cleanGamesOf("bob.v1", joined)(l) >= 2 })
	recs := stopLadder(t, run, dir)
	if code := bob.stopped(t); code != 0 {
		t.Errorf("bob's connect stopped by SIGTERM: exit %d:\n%s", code, bob.stderr())
	}
	if code := server.stopped(t); code != 0 {
		t.Errorf("connect stopped by SIGTERM: exit %d:\n%s", code, server.stderr())
	}
	// Away, alice is in no more games than the tables she was seated
	// at when her server died; she forfeits none besides those.
	away, _ := plays(recs[killed:back], alice)
	_, forfeited := plays(recs, alice)
	t.Logf("%d games; while away (%d games) alice was in %d; %d forfeits of hers in all", len(recs), back-killed, away, forfeited)
	if away > 2*concurrency || forfeited > 2*concurrency {
		t.Errorf("alice in %d of the %d games while away, %d forfeits in all; want at most %d (the tables in play)", away, back-killed, forfeited, 2*concurrency)
	}
	if strings.Contains(run.stderr(), "suspended") {
		t.Errorf("a bot was suspended:\n%s", run.stderr())
	}
	if row := standingsJSON(t, dir)[alice]; row.Status != ladder.StatusActive {
		t.Errorf("alice after the run: %s %q, want active", row.Status, row.Reason)
	}
}

// TestLadderWorkers: a distributed ladder with two workers of other
// processes (arena worker --ladder FILE): a Python bot submitted to it is
// admitted, fetched by a worker by its build hash and played there
// without forfeits; every game is a worker's, recorded once.
func TestLadderWorkers(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	file, dir := makeLadder(t, ladderFile)
	run := start(t, nil, "ladder", "run", dir, "--distributed", "--workers", "0", "--nats-listen", "127.0.0.1:0")
	url := run.waitFor(t, workerURL)
	names := []string{"wA", "wB"}
	workers := make([]*process, len(names))
	for i, name := range names {
		workers[i] = start(t, nil, "worker", "--nats", url, "--ladder", file, "--name", name)
	}
	bot := pyBot(t, pyRandom, `{"name": "py", "command": "python3 bot.py"}`)
	if out, code := ladderCmd(t, "submit", dir, bot, "--wait"); code != 0 || !strings.Contains(out, "admitted as py.v1") {
		t.Fatalf("submit: exit %d:\n%s\nrun:\n%s", code, out, run.stderr())
	}
	run.waitUntil(t, "4 games of py.v1", func(l []string) bool { return cleanGamesOf("py.v1", 0)(l) >= 4 })
	recs := stopLadder(t, run, dir)
	fetched := regexp.MustCompile(`(?m)^arena worker: fetched bot py\.v1 \(build sha256:[0-9a-f]+\)$`)
	var fetchedBy []string
	for i, w := range workers {
		if code := w.stopped(t); code != 0 {
			t.Errorf("worker %s stopped by SIGTERM: exit %d:\n%s", names[i], code, w.stderr())
		}
		if fetched.MatchString(w.stderr()) {
			fetchedBy = append(fetchedBy, names[i])
		}
	}
	if len(fetchedBy) == 0 {
		t.Errorf("no worker said it fetched py.v1:\n%s\n%s", workers[0].stderr(), workers[1].stderr())
	}
	byWorker := map[string]int{}
	for _, r := range recs {
		byWorker[r.Worker]++
	}
	played, forfeited := plays(recs, "py.v1")
	t.Logf("%d games, by worker %v; py.v1 in %d, fetched by %v", len(recs), byWorker, played, fetchedBy)
	if byWorker["wA"]+byWorker["wB"] != len(recs) {
		t.Errorf("games by worker %v: want every game of the %d played by wA or wB", byWorker, len(recs))
	}
	if played < 4 || forfeited > 0 {
		t.Errorf("py.v1 in %d games of the ledger, %d forfeited: want at least 4, none forfeited", played, forfeited)
	}
}
