package engineserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/testkit"
)

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // Detect probes through this binary
	if os.Getenv(echoChild) != "" {
		echo()
		os.Exit(0)
	}
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

// TestArenaEngineCommand runs the real `arena engine`: every answer comes
// on its own line as the request is sent (a pipe, not a file), bad lines
// included, and the end of stdin ends it with status 0.
func TestArenaEngineCommand(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(testkit.Build(t, "./cmd/arena"), "engine", "--max-states", "3")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	for _, tc := range []struct{ line, code string }{
		{`{"id":1,"op":"hello"}`, ""},
		{`{"id":2,"op":"create","game":"uno","seats":4,"seed":1}`, ""},
		{`this is not JSON`, "bad_request"},
		{`{"id":3,"op":"teleport"}`, "bad_request"},
		{`{"id":4,"op":"legal","state":42}`, "no_handle"},
		{`[{"id":5,"op":"clone","state":1},{"id":6,"op":"clone","state":1},{"id":7,"op":"clone","state":1}]`, ""},
		{`{"id":8,"op":"playout","state":1,"n":3,"seed":2,"max_plies":50}`, ""},
		{`{"id":9,"op":"legal","state":1}`, ""},
	} {
		fmt.Fprintln(stdin, tc.line)
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		var r reply
		if strings.HasPrefix(tc.line, "[") {
			var rs []reply
			json.Unmarshal(line, &rs)
			if len(rs) != 3 || rs[0].code() != "" || rs[2].code() != "limit" {
				t.Fatalf("%s: %s, want two clones and the limit", tc.line, line)
			}
			continue
		}
		if err := json.Unmarshal(line, &r); err != nil || r.code() != tc.code {
			t.Fatalf("%s: %s, want code %q", tc.line, line, tc.code)
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after EOF: %v, want exit 0", err)
	}
}

// engineBot is a Python bot that, at its first turn, starts the engine
// from $ARENA_ENGINE, checks its answers, that the engine is in the bot's
// own cgroup and that the executable cannot be written, says so on
// stderr, then plays its game through: the first legal action each turn.
const engineBot = `import json, os, subprocess, sys

def check():
    exe = os.environ["ARENA_ENGINE"]
    eng = subprocess.Popen([exe, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def ask(req):
        eng.stdin.write(json.dumps(req) + "\n")
        eng.stdin.flush()
        return json.loads(eng.stdout.readline())
    assert ask({"id": 1, "op": "hello"})["protocol"] == 1
    st = ask({"id": 2, "op": "create", "game": "uno", "seats": 3, "seed": 5})["state"]
    assert len(ask({"id": 3, "op": "legal", "state": st})["legal"]) > 0
    with open("/proc/self/cgroup") as f, open("/proc/%d/cgroup" % eng.pid) as g:
        assert f.read() == g.read(), "the engine is not in the bot's cgroup"
    try:
        open(exe, "ab").close()
        raise AssertionError("the arena executable is writable")
    except OSError:
        pass
    eng.stdin.close()
    assert eng.wait() == 0
    print("ENGINE OK", file=sys.stderr, flush=True)

checked = False
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "enginebot"}), flush=True)
    elif msg["type"] == "turn":
        if not checked:
            check()
            checked = True
        print(json.dumps({"type": "action", "id": msg["id"], "index": 0}), flush=True)
    elif msg["type"] == "bye":
        break
`

// TestIsolatedBotStartsTheEngine: an isolated Python bot runs
// `$ARENA_ENGINE engine`, is answered, finds the engine in its cgroup and
// the executable read-only, and plays its game through.
func TestIsolatedBotStartsTheEngine(t *testing.T) {
	t.Parallel()
	if sandbox.Detect().CanIsolate() != nil {
		t.Skip("bots cannot be isolated here")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755) // bots of a root arena read their programs as others
	bot := filepath.Join(dir, "enginebot.py")
	if err := os.WriteFile(bot, []byte(engineBot), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command(testkit.Build(t, "./cmd/arena"), "match", "--game", "banqi", "--bot", "py=python3 "+bot, "--bot", "r=arena bot random",
		"--games", "1", "--seed", "3", "--out", out, "--startup-time", "60s", "--bot-isolate", "yes", "-q")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "py", "*.stderr.log"))
	var log []byte
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		log = append(log, b...)
	}
	if !strings.Contains(string(log), "ENGINE OK") {
		t.Fatalf("the bot did not get through its engine checks: %s", log)
	}
	results, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if strings.Contains(string(results), `"forfeits":[{`) || len(results) == 0 {
		t.Fatalf("the bot did not play its game through: %s", results)
	}
}
