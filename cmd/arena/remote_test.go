package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
)

// startArena starts the CLI as a long-running subprocess (serve,
// connect), killed when the test ends, and returns the first stderr line
// that matches want.
func startArena(t *testing.T, want *regexp.Regexp, args ...string) string {
	t.Helper()
	m, _ := startArenaCmd(t, want, args...)
	return m
}

// startArenaCmd is startArena returning the process too.
func startArenaCmd(t *testing.T, want *regexp.Regexp, args ...string) (string, *exec.Cmd) {
	t.Helper()
	return startArenaCmdWith(t, want, nil, args...)
}

// startArenaCmdWith is startArenaCmd with setup, if not nil, applied to
// the command before it starts.
func startArenaCmdWith(t *testing.T, want *regexp.Regexp, setup func(*exec.Cmd), args ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	if setup != nil {
		setup(cmd)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // a child of this test
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("arena %s ended before saying %v", strings.Join(args, " "), want)
			}
			if m := want.FindString(line); m != "" {
				go func() { // keep draining, so the process never blocks on stderr
					for range lines {
					}
				}()
				return m, cmd
			}
		case <-timeout:
			t.Fatalf("arena %s said no %v in 20s", strings.Join(args, " "), want)
		}
	}
}

var (
	natsURL = regexp.MustCompile(`nats://[0-9.]+:[0-9]+`)
	serving = regexp.MustCompile(`serving bot \S+`)
)

// The README's remote match, as three real processes: arena serve, arena
// connect serving a Python bot and a bundled one, and arena match seating
// them beside a stdio bot. Every game is played to the end, none forfeited.
func TestRemoteMatchServeConnectMatch(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	script, _ := filepath.Abs("../../bots/python/random_bot.py")
	url := natsServer(t)
	// A bot needs a session per seat of the largest table: one per game of
	// a rotation block, since no session plays a deal twice.
	startArena(t, serving, "connect", "--nats", url, "--bot", "py", "--sessions", "3", "--", python, script)
	startArena(t, serving, "connect", "--nats", url, "--bot", "greedy", "--sessions", "3", "--", "arena", "bot", "greedy")
	for _, tc := range []struct {
		game string
		bots []string
	}{
		{"banqi", []string{"p=nats:py", "r=arena bot random"}},
		{"uno", []string{"p=nats:py", "g=nats:greedy", "r=arena bot random"}},
		{"boon", []string{"g=nats:greedy", "r=arena bot random", "p=nats:py"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"match", "--nats", url, "--game", tc.game, "--games", "3", "--seed", "9", "--out", dir, "--startup-time", "20s"}
			for _, b := range tc.bots {
				args = append(args, "--bot", b)
			}
			_, stderr, code := arena(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			playedWithoutForfeit(t, dir, 3)
		})
	}
}

// A bot that crashes mid-game is recorded the same over NATS (through
// arena connect) as over stdio: crash, with its exit status.
func TestRemoteCrashIsRecordedAsOverStdio(t *testing.T) {
	crasher := filepath.Join(t.TempDir(), "crasher.sh")
	if err := os.WriteFile(crasher, []byte("read x; echo '{\"type\":\"ready\"}'; read x; exit 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	forfeit := func(args ...string) ledger.SeatFailure {
		t.Helper()
		dir := t.TempDir()
		_, stderr, code := arena(t, append([]string{"match", "--game", "banqi", "--games", "1", "--seed", "4", "--out", dir}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		r := records(t, dir)[0]
		if len(r.Forfeits) != 1 {
			t.Fatalf("forfeits %+v, want the crasher's", r.Forfeits)
		}
		return r.Forfeits[0]
	}
	local := forfeit("--bot", "c=sh "+crasher, "--bot", "r=arena bot random")
	url := natsServer(t)
	startArena(t, serving, "connect", "--nats", url, "--bot", "crasher", "--", "sh", crasher)
	remote := forfeit("--nats", url, "--bot", "c=nats:crasher", "--bot", "r=arena bot random")
	if local.Reason != "crash" || remote.Reason != local.Reason || remote.Detail != local.Detail {
		t.Errorf("over stdio: %s: %s\nover NATS:  %s: %s", local.Reason, local.Detail, remote.Reason, remote.Detail)
	}
}

// A tournament file seats a remote bot as command "nats:BOTID", beside
// stdio bots; the run finds it through --nats.
func TestRemoteBotInATournament(t *testing.T) {
	url := natsServer(t)
	startArena(t, serving, "connect", "--nats", url, "--bot", "far", "--sessions", "2", "--", "arena", "bot", "greedy")
	dir := t.TempDir()
	file := remoteCup(t, dir, "remotecup", 1)
	out := filepath.Join(dir, "out")
	_, stderr, code := arena(t, "tournament", "run", file, "--out", out, "--nats", url, "-q", "--concurrency", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs := records(t, out)
	if len(recs) != 6 {
		t.Fatalf("%d games recorded, want 6", len(recs))
	}
	farGames := 0
	for _, r := range recs {
		if len(r.Forfeits) != 0 {
			t.Errorf("game %s: forfeits %+v", r.GameID, r.Forfeits)
		}
		if slices.Contains(r.Bots, "far") {
			farGames++
		}
	}
	if farGames != 4 {
		t.Errorf("the remote bot played %d games, want 4", farGames)
	}
	if _, stderr, code := arena(t, "tournament", "verify", out); code != 0 {
		t.Errorf("verify: exit %d: %s", code, stderr)
	}
}

// With keys, the same three commands work for the key holders only: the
// bot with its own key plays, a bot without one cannot connect.
func TestRemoteMatchWithKeys(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "keys")
	if _, stderr, code := arena(t, "nats", "add-bot", "alice", "--keys", keys); code != 0 {
		t.Fatalf("add-bot: exit %d: %s", code, stderr)
	}
	if info, err := os.Stat(filepath.Join(keys, "alice.nk")); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("alice.nk: %v, %v: want mode 0600", info, err)
	}
	if _, _, code := arena(t, "nats", "add-bot", "alice", "--keys", keys); code == 0 {
		t.Error("a second key for alice was made over the first")
	}
	url := natsServer(t, "--keys", keys)
	startArena(t, serving, "connect", "--nats", url, "--creds", filepath.Join(keys, "alice.nk"), "--bot", "alice", "--sessions", "2", "--", "arena", "bot", "greedy")
	_, stderr, code := arena(t, "match", "--nats", url, "--nats-creds", filepath.Join(keys, "arena.nk"), "--game", "banqi",
		"--bot", "a=nats:alice", "--bot", "r=arena bot random", "--games", "2")
	if code != 0 {
		t.Fatalf("match: exit %d: %s", code, stderr)
	}
	if _, stderr, code := arena(t, "connect", "--nats", url, "--bot", "mallory", "--", "arena", "bot", "random"); code == 0 || !strings.Contains(stderr, "Authorization") {
		t.Errorf("a bot without a key: exit %d: %s", code, stderr)
	}
}

// arena sprt seats a remote test bot as match and tournament do.
func TestRemoteBotInAnSPRT(t *testing.T) {
	url := natsServer(t)
	startArena(t, serving, "connect", "--nats", url, "--bot", "cand", "--sessions", "2", "--", "arena", "bot", "greedy")
	dir := t.TempDir()
	_, stderr, code := arena(t, "sprt", "--nats", url, "--game", "banqi", "--test", "new=nats:cand", "--base", "old=arena bot random",
		"--max-games", "4", "--concurrency", "1", "--seed", "3", "--out", dir, "-q")
	if code != exitInconclusive && code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs := records(t, dir)
	if len(recs) != 4 {
		t.Fatalf("%d games, want 4", len(recs))
	}
	for _, r := range recs {
		if len(r.Forfeits) != 0 || !slices.Contains(r.Bots, "new") {
			t.Errorf("game %s: bots %v, forfeits %+v", r.GameID, r.Bots, r.Forfeits)
		}
	}
}

// A bundled bot speaks NATS itself (arena bot NAME --nats), through the
// Go SDK, with no process per session.
func TestBundledBotOverNATS(t *testing.T) {
	url := natsServer(t)
	startArena(t, serving, "bot", "greedy", "--nats", url, "--id", "g", "--sessions", "2")
	dir := t.TempDir()
	_, stderr, code := arena(t, "match", "--nats", url, "--game", "banqi", "--bot", "g=nats:g", "--bot", "r=arena bot random",
		"--games", "4", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, r := range records(t, dir) {
		if len(r.Forfeits) != 0 {
			t.Errorf("game %s: forfeits %+v", r.GameID, r.Forfeits)
		}
	}
}

// The server goes away mid-tournament: the games in flight end as the
// arena's fault (not charged to any bot), the run stops with every
// finished game recorded, and once the server is back the same command
// resumes and completes the tournament, each game recorded once.
func TestTournamentResumesAfterServerRestart(t *testing.T) {
	url, srv := natsServerCmd(t)
	startArena(t, serving, "connect", "--nats", url, "--bot", "far", "--sessions", "4", "--", "arena", "bot", "random")
	dir := t.TempDir()
	file := remoteCup(t, dir, "restartcup", 12)
	out := filepath.Join(dir, "out")
	run := exec.Command(os.Args[0], "tournament", "run", file, "--out", out, "--nats", url, "-q", "--concurrency", "2")
	var stderr strings.Builder
	run.Stderr = &stderr
	t1 := time.Now()
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join(out, "results.jsonl")); strings.Count(string(b), "\n") >= 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the tournament recorded fewer than 10 games in a minute")
		}
	}
	t.Logf("10 games after %v", time.Since(t1).Round(time.Millisecond))
	t2 := time.Now()
	srv.Process.Kill() // the server dies mid-tournament (our own child)
	srv.Wait()
	err := run.Wait()
	t.Logf("the run stopped %v after the kill", time.Since(t2).Round(time.Millisecond))
	if err == nil {
		t.Fatalf("the tournament went on without its server: %s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "the arena's connection failed, not the bot") {
		t.Errorf("the run did not say the arena's connection failed: %s", stderr.String())
	}
	before := len(records(t, out))
	t0 := time.Now()
	defer func() {
		t.Logf("%d games before the restart; the resume took %v", before, time.Since(t0).Round(time.Millisecond))
	}()
	startArena(t, natsURL, "serve", "--store", t.TempDir(), "--listen", strings.TrimPrefix(url, "nats://")) // back, on the same port
	_, errText, code := arena(t, "tournament", "run", out, "--nats", url, "-q")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s\nfirst run: %s", code, errText, stderr.String())
	}
	recs := records(t, out)
	if len(recs) != 72 || before >= 72 {
		t.Fatalf("%d games recorded before the restart, %d after: want fewer, then all 72", before, len(recs))
	}
	for _, r := range recs {
		if len(r.Forfeits) != 0 {
			t.Errorf("game %s: forfeits %+v: a bot was charged for the server's restart", r.GameID, r.Forfeits)
		}
	}
	if _, errText, code := arena(t, "tournament", "verify", out); code != 0 {
		t.Errorf("verify: exit %d: %s", code, errText)
	}
}

// A remote bot nobody serves fails at startup, as a bot that never
// answers hello does, and the other seat wins. Its progress line says
// what serves a remote bot (arena connect), not what a bot on stdio
// does wrong when it does not start (flush stdout).
func TestUnservedRemoteBotFailsAtStartup(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := arena(t, "match", "--game", "banqi", "--bot", "ghost=nats:ghost", "--bot", "r=arena bot random",
		"--games", "1", "--startup-time", "500ms", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := records(t, dir)[0]
	if len(r.Forfeits) != 1 || r.Forfeits[0].Bot != "ghost" || r.Forfeits[0].Reason != "startup" {
		t.Fatalf("forfeits %+v, want ghost's startup failure", r.Forfeits)
	}
	t.Log(r.Forfeits[0].Detail)
	line := regexp.MustCompile(`\[ghost forfeited: [^\]]*\]`).FindString(stderr)
	if !strings.Contains(line, "no arena connect --bot ghost is serving it") || strings.Contains(line, "flush stdout") {
		t.Errorf("progress line %q: want the hint to serve ghost with arena connect, not the stdio one", line)
	}
}

// Bad remote settings are usage errors naming the thing at fault,
// before anything is started.
func TestRemoteUsageErrors(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	runUsageCases(t, []usageCase{
		{"bad bot id", []string{"match", "--game", "banqi", "--bot", "a=nats:no.dots", "--bot", "b=arena bot random"}, `"no.dots"`},
		{"grace not positive", []string{"match", "--game", "banqi", "--bot", "a=nats:alice", "--bot", "b=arena bot random", "--nats-grace", "0s"}, "--nats-grace"},
		{"connect without a bot id", []string{"connect", "--nats", "nats://127.0.0.1:1", "--", "arena", "bot", "random"}, "--bot BOTID"},
		{"connect with no sessions", []string{"connect", "--nats", "nats://127.0.0.1:1", "--bot", "a", "--sessions", "0", "--", "arena", "bot", "random"}, "--sessions 0"},
		{"bundled bot with no sessions", []string{"bot", "random", "--nats", "nats://127.0.0.1:1", "--sessions", "0"}, "--sessions 0"},
		{"listen without a port", []string{"serve", "--listen", "localhost"}, "--listen"},
		{"a keys directory with no keys", []string{"serve", "--listen", "127.0.0.1:0", "--keys", empty}, "--keys"},
		{"add-bot without an id", []string{"nats", "add-bot"}, "BOTID"},
	}, nil)
}

// natsServer starts arena serve on a free loopback port, with a store of
// the test's, and returns its URL.
func natsServer(t *testing.T, more ...string) string {
	t.Helper()
	url, _ := natsServerCmd(t, more...)
	return url
}

// natsServerCmd is natsServer returning the process too.
func natsServerCmd(t *testing.T, more ...string) (string, *exec.Cmd) {
	t.Helper()
	return startArenaCmd(t, natsURL, append([]string{"serve", "--store", t.TempDir(), "--listen", "127.0.0.1:0"}, more...)...)
}

// records reads a run's results.jsonl.
func records(t *testing.T, dir string) []ledger.Record {
	t.Helper()
	var out []ledger.Record
	for i, l := range readLines(t, filepath.Join(dir, ledger.FileName)) {
		var r ledger.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s line %d: %v", ledger.FileName, i+1, err)
		}
		out = append(out, r)
	}
	return out
}

// playedWithoutForfeit checks that dir records games games, each played
// (some plies) and none forfeited.
func playedWithoutForfeit(t *testing.T, dir string, games int) {
	t.Helper()
	recs := records(t, dir)
	if len(recs) != games {
		t.Fatalf("%d games recorded, want %d", len(recs), games)
	}
	for _, r := range recs {
		if len(r.Forfeits) != 0 || r.Plies == 0 {
			t.Errorf("game %s: %d plies, forfeits %+v", r.GameID, r.Plies, r.Forfeits)
		}
	}
}

// remoteCup writes a banqi round-robin file of rounds cycles in dir: the
// remote bot far and two local random bots.
func remoteCup(t *testing.T, dir, name string, rounds int) string {
	t.Helper()
	file := filepath.Join(dir, "cup.yaml")
	text := fmt.Sprintf(`name: %s
game: banqi
rounds: %d
bots:
  - {name: far, command: "nats:far"}
  - {name: r1, command: "arena bot random"}
  - {name: r2, command: "arena bot random"}
`, name, rounds)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
