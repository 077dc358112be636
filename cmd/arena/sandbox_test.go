package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/protocol"

	"github.com/arena-dev/arena/internal/testkit"
)

// The bots of these tests are this test binary, told apart by variables
// (ARENA_AS_CLI, ARENA_SPY_DIR, ...) that the sandbox's scrubbed
// environment would drop: pass them through, as a user would with
// --bot-env NAME (ARENA_BOT_ENV is that flag's variable). Without them a
// bot would run the whole test suite again.
//
// With ARENA_SANDBOX_TEST_BOT=NAME:MODE, the bot called NAME is a bot that
// misbehaves (see badBot).
func init() {
	name, mode, _ := strings.Cut(os.Getenv("ARENA_SANDBOX_TEST_BOT"), ":")
	if mode != "" && name == os.Getenv("ARENA_BOT_NAME") {
		os.Exit(badBot(mode))
	}
	os.Setenv("ARENA_BOT_ENV", "ARENA_AS_CLI,ARENA_SPY_DIR,ARENA_KILL_TOKEN,ARENA_SANDBOX_TEST_BOT,GOCOVERDIR,GORACE")
}

// badBot plays the first legal action, except: mode "env" prints its
// environment and directory to stderr at hello; mode "alloc" touches 2 GiB
// of memory at its first turn; mode "fds" lists its open descriptors
// first thing (fdsInherited) and, if it inherited any beyond stdin,
// stdout and stderr, answers its first turn with a line naming them.
func badBot(mode string) int {
	var inherited []string
	switch mode {
	case "fds":
		inherited = fdsInherited()
	case "arena-fds":
		inherited = arenaReached()
	}
	lr := protocol.NewLineReader(os.Stdin, protocol.DefaultMaxLine)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := lr.ReadLine()
		if err != nil {
			return 0
		}
		typ, _ := protocol.PeekType(line)
		switch typ {
		case protocol.TypeHello:
			if mode == "env" {
				env := os.Environ()
				sort.Strings(env)
				wd, _ := os.Getwd()
				fmt.Fprintf(os.Stderr, "ENV %s\nCWD %s\n", strings.Join(env, "\x1f"), wd)
			}
			if mode == "spy" {
				spy(filepath.Dir(os.Args[0]))
			}
			fmt.Fprintln(out, `{"type":"ready","name":"bad"}`)
		case protocol.TypeTurn:
			var t protocol.Turn
			if err := json.Unmarshal(line, &t); err != nil {
				return 1
			}
			if len(inherited) > 0 {
				fmt.Fprintln(out, "inherited descriptors:", strings.Join(inherited, " "))
				break
			}
			if mode == "alloc" {
				var keep [][]byte
				for i := 0; i < 2048; i++ {
					b := make([]byte, 1<<20)
					for j := 0; j < len(b); j += 4096 {
						b[j] = 1
					}
					keep = append(keep, b)
				}
				fmt.Fprintln(os.Stderr, "allocated", len(keep))
			}
			fmt.Fprintf(out, `{"type":"action","id":%d,"index":0}`+"\n", t.ID)
		case protocol.TypeBye:
			return 0
		}
		if err := out.Flush(); err != nil {
			return 1
		}
	}
}

// spy reads everything in and below dir (its own program's directory,
// where the organiser keeps the tournament file, the output directory and
// the other bots), and every mount point its own mount table names, and
// says on stderr what it read: "SPY path n" (n bytes, or entries) or "SPY
// path ERR error".
func spy(dir string) {
	paths := []string{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		paths = append(paths, path)
		return nil
	})
	if mi, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		for _, l := range strings.Split(string(mi), "\n") {
			if f := strings.Fields(l); len(f) > 4 {
				paths = append(paths, f[4])
			}
		}
	}
	for _, p := range paths {
		if ents, err := os.ReadDir(p); err == nil {
			fmt.Fprintf(os.Stderr, "SPY %s %d\n", p, len(ents))
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "SPY %s ERR %v\n", p, err)
			continue
		}
		fmt.Fprintf(os.Stderr, "SPY %s %d\n", p, len(data))
	}
}

func results(t *testing.T, dir string) []ledger.Record {
	t.Helper()
	var out []ledger.Record
	for _, l := range readLines(t, filepath.Join(dir, "results.jsonl")) {
		var r ledger.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestMatchMemoryHogCrashes: a bot past --bot-memory is stopped, the game
// records a crash, and the arena goes on to the end.
func TestMatchMemoryHogCrashes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, stderr, code := arena(t, "match", "--game", "banqi", "--bot", "hog="+os.Args[0], "--bot", "r=arena bot random",
		"--games", "2", "--seed", "4", "--out", dir, "--startup-time", "60s", "--bot-memory", "64MiB", "--bot-env", "ARENA_SANDBOX_TEST_BOT=hog:alloc", "--verbose")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "arena: sandbox: limits: memory 64MiB (") {
		t.Errorf("no sandbox line naming the memory limit:\n%s", stderr)
	}
	recs := results(t, dir)
	if len(recs) != 2 {
		t.Fatalf("want 2 games, got %d", len(recs))
	}
	c := sandbox.Detect()
	for _, r := range recs {
		if len(r.Forfeits) != 1 || r.Forfeits[0].Bot != "hog" || r.Forfeits[0].Reason != "crash" {
			t.Fatalf("game %s: want hog to crash, got %+v", r.GameID, r.Forfeits)
		}
		if (c.V2Memory || c.V1Memory != "") && !strings.Contains(r.Forfeits[0].Detail, "memory limit 64MiB reached") {
			t.Errorf("crash detail does not name the limit: %s", r.Forfeits[0].Detail)
		}
	}
}

// TestMatchBotEnvironmentAndDirectory reads what a bot printed about its
// environment from its per-game log: only the documented variables, and
// its own directory.
func TestMatchBotEnvironmentAndDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// The arena's own environment holds a secret the bot must not see.
	cmd := exec.Command(os.Args[0], "match", "--game", "banqi", "--bot", "envbot="+os.Args[0], "--bot", "r=arena bot random",
		"--games", "2", "--seed", "4", "--out", dir, "--startup-time", "60s", "--bot-env", "ARENA_SANDBOX_TEST_BOT=envbot:env", "--bot-env", "FOO=bar")
	cmd.Env = append(os.Environ(), "ARENA_SECRET_TOKEN=s3cret")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, r := range results(t, dir) {
		if len(r.Forfeits) != 0 {
			t.Fatalf("game %s: %+v", r.GameID, r.Forfeits)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "envbot", "*.stderr.log"))
	if len(logs) != 2 {
		t.Fatalf("want 2 logs, got %v", logs)
	}
	b, _ := os.ReadFile(logs[0])
	var env map[string]string
	cwd := ""
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "ENV "); ok {
			env = map[string]string{}
			for _, kv := range strings.Split(v, "\x1f") {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		}
		if v, ok := strings.CutPrefix(line, "CWD "); ok {
			cwd = v
		}
	}
	allowed := map[string]bool{"PATH": true, "HOME": true, "TMPDIR": true, "LANG": true, "LC_ALL": true, "ARENA_BOT_NAME": true,
		"FOO": true, "ARENA_SANDBOX_TEST_BOT": true, "ARENA_AS_CLI": true, "GOCOVERDIR": true, "GORACE": true,
		"ARENA_ENGINE": true} // the arena executable, for a bot to start the rules engine
	for k := range env {
		if !allowed[k] {
			t.Errorf("bot environment holds %s", k)
		}
	}
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "ARENA_BOT_NAME", "FOO"} {
		if env[k] == "" {
			t.Errorf("bot environment lacks %s: %v", k, env)
		}
	}
	if self, _ := os.Executable(); env["ARENA_ENGINE"] != self {
		t.Errorf("ARENA_ENGINE=%q, want the arena executable %s", env["ARENA_ENGINE"], self)
	}
	if env["ARENA_BOT_NAME"] != "envbot" || env["FOO"] != "bar" || env["LC_ALL"] != "C.UTF-8" {
		t.Errorf("values: %v", env)
	}
	here, _ := os.Getwd()
	if cwd == "" || cwd == here || cwd != env["HOME"] {
		t.Errorf("bot directory %q: want a fresh one, equal to HOME %q", cwd, env["HOME"])
	}
	if _, err := os.Stat(cwd); !os.IsNotExist(err) {
		t.Errorf("the bot's directory %s outlived the match", cwd)
	}
}

// runCup writes dir/cup.yaml, a tournament of two banqi games an
// encounter named name, from seed, one game at a time with a minute to
// start, whose remaining sections (limits, bots) are rest; it runs it
// quietly (with more flags, if given) into dir/out, which it returns with
// the run's stderr. The run must succeed.
func runCup(t *testing.T, dir, name string, seed int, rest string, flags ...string) (string, string) {
	t.Helper()
	file := filepath.Join(dir, "cup.yaml")
	head := fmt.Sprintf("name: %s\ngame: banqi\ngames_per_encounter: 2\nseed: %d\nconcurrency: 1\nclock: {startup: 60s}\n", name, seed)
	if err := os.WriteFile(file, []byte(head+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	_, stderr, code := arena(t, append([]string{"tournament", "run", file, "--out", out, "-q"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return out, stderr
}

// TestTournamentFileLimits: a tournament file's limits section confines
// the bots, and the run says how.
func TestTournamentFileLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, stderr := runCup(t, dir, "lim", 5, fmt.Sprintf(`limits:
  memory: 64MiB
  procs: 64
  files: 256
  file_size: 1MiB
  cpu_time: 30s
  env: [ARENA_SANDBOX_TEST_BOT=hog:alloc]
bots:
  - {name: hog, command: %s}
  - {name: r, command: arena bot random}
`, os.Args[0]), "--verbose")
	for _, want := range []string{"memory 64MiB (", "procs 64 (", "cpu 30s/game (", "files 256 (rlimit)", "file size 1MiB (rlimit)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("sandbox line lacks %q:\n%s", want, stderr)
		}
	}
	for _, r := range results(t, out) {
		if len(r.Forfeits) != 1 || r.Forfeits[0].Bot != "hog" || r.Forfeits[0].Reason != "crash" {
			t.Fatalf("game %s: want hog to crash, got %+v", r.GameID, r.Forfeits)
		}
	}
	saved, _ := os.ReadFile(filepath.Join(out, "tournament.json"))
	if !strings.Contains(string(saved), `"memory": "64MiB"`) {
		t.Errorf("the saved tournament lost its limits: %s", saved)
	}
}

func TestSandboxUsageErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ args []string }{
		{[]string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--bot-memory", "lots"}},
		{[]string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--bot-user", "no-such-user-here"}},
		{[]string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--bot-procs", "-3"}},
	} {
		_, stderr, code := arena(t, tc.args...)
		flag := tc.args[len(tc.args)-2]
		if code != exitUsage || !strings.Contains(stderr, flag) {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 naming %s", tc.args[len(tc.args)-2:], code, stderr, flag)
		}
	}
}

// TestTournamentSpyReadsNothing: an organiser keeps the tournament file,
// the output directory and a rival's program in the directory of a bot's
// own program; the bot reads all it can reach there and through its mount
// table, and finds them empty or absent, while its own files read whole.
func TestTournamentSpyReadsNothing(t *testing.T) {
	t.Parallel()
	if sandbox.Detect().CanIsolate() != nil {
		t.Skip("bots cannot be isolated here")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755) // bots of a root arena read their programs as others
	spyBin := filepath.Join(dir, "spy")
	testkit.CopyExecutable(t, os.Args[0], spyBin)
	rival, err := os.ReadFile("../../bots/python/random_bot.py")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "rival.py"), rival, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the spy's own notes\n"), 0o644)
	out, stderr := runCup(t, dir, "spy", 42, fmt.Sprintf(`limits:
  env: [ARENA_SANDBOX_TEST_BOT=spy:spy]
bots:
  - {name: spy, command: %s}
  - {name: rival, command: python3 %s}
`, spyBin, filepath.Join(dir, "rival.py")))
	file := filepath.Join(dir, "cup.yaml") // what runCup wrote
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "spy", "*.stderr.log"))
	if len(logs) == 0 {
		t.Fatalf("no spy log: %s", stderr)
	}
	read := map[string]string{}
	for _, log := range logs {
		data, _ := os.ReadFile(log)
		for _, l := range strings.Split(string(data), "\n") {
			if f := strings.SplitN(l, " ", 3); len(f) == 3 && f[0] == "SPY" {
				read[f[1]] = f[2]
			}
		}
	}
	if read[filepath.Join(dir, "notes.txt")] != "20" || read[spyBin] == "" {
		t.Fatalf("the spy cannot read its own files: %v", read)
	}
	for path, what := range read {
		hidden := path == file || path == filepath.Join(dir, "rival.py") || strings.HasPrefix(path, out)
		if hidden && what != "0" && !strings.HasPrefix(what, "ERR") {
			t.Errorf("the spy read %s: %s", path, what)
		}
	}
	if _, ok := read[file]; !ok {
		t.Errorf("the spy did not even try the tournament file: %v", read)
	}
}

// TestSandboxLineIsShort: a run says in one short line how bots are
// confined, the reason isolation is off first; --verbose and arena sandbox
// give the details, one aspect a line, the reason among them.
func TestSandboxLineIsShort(t *testing.T) {
	t.Parallel()
	sandboxLines := func(out string) []string {
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "arena: sandbox: ") || strings.HasPrefix(l, "arena check: sandbox: ") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	noIsolation := "sandbox: bots NOT isolated (--bot-isolate no)"
	for _, tc := range []struct {
		name    string
		args    []string
		stdout  bool // the line is on stdout (check), not stderr
		verbose bool
	}{
		{"match", []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--games", "2", "--bot-isolate", "no"}, false, false},
		{"check", []string{"check", "--game", "banqi", "--games", "1", "--bot-isolate", "no", "arena bot random"}, true, false},
		{"match --verbose", []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--games", "2", "--bot-isolate", "no", "--verbose"}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := arena(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := stderr
			if tc.stdout {
				out = stdout
			}
			lines := sandboxLines(out)
			if len(lines) == 0 {
				t.Fatalf("no sandbox line:\n%s", out)
			}
			summary := lines[0]
			if len(summary) >= 200 || !strings.Contains(summary, noIsolation) || strings.Index(summary, noIsolation) > len("arena check: ") {
				t.Errorf("the sandbox line (%d characters) does not start by saying isolation is off, and why, in under 200:\n%s", len(summary), summary)
			}
			if !tc.verbose {
				if len(lines) != 1 || !strings.HasSuffix(summary, "(details: --verbose)") {
					t.Errorf("want one line pointing at --verbose, got:\n%s", strings.Join(lines, "\n"))
				}
				return
			}
			details := strings.Join(lines[1:], "\n")
			for _, w := range []string{"arena: sandbox: limits: memory 1GiB (", "arena: sandbox: isolation: none", "isolation (--bot-isolate no)"} {
				if !strings.Contains(details, w) {
					t.Errorf("the details lack %q:\n%s", w, details)
				}
			}
		})
	}
	t.Run("arena sandbox", func(t *testing.T) {
		t.Parallel()
		stdout, stderr, code := arena(t, "sandbox", "--bot-isolate", "no", "--bot-memory", "300MiB")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if len(lines) < 5 || !strings.HasPrefix(lines[0], noIsolation) || !strings.Contains(stdout, "\n  limits: memory 300MiB (") ||
			!strings.Contains(stdout, "isolation (--bot-isolate no)") {
			t.Errorf("arena sandbox:\n%s", stdout)
		}
	})
}
