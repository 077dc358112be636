package js

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/testkit"
)

// referee is a scripted referee: one node process of a probe bot, its
// stdin to write lines to, its stdout read line by line.
type referee struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *testkit.SyncBuffer
	exited chan error
}

func startBot(t *testing.T, script string, args ...string) *referee {
	t.Helper()
	nodePath := node(t)
	dir := kit(t, filepath.Join("testdata", script))
	cmd := exec.Command(nodePath, append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = t.TempDir()
	r := &referee{t: t, cmd: cmd, lines: make(chan string, 64), stderr: &testkit.SyncBuffer{}, exited: make(chan error, 1)}
	var err error
	if r.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
		r.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = r.stdin.Close()
		select {
		case <-r.exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	return r
}

func (r *referee) send(msg any) {
	r.t.Helper()
	var b []byte
	switch m := msg.(type) {
	case string:
		b = []byte(m)
	case []byte:
		b = m
	default:
		b = must(json.Marshal(m))
	}
	if _, err := r.stdin.Write(append(b, '\n')); err != nil {
		r.t.Fatalf("writing to the bot: %v\nstderr:\n%s", err, r.stderr)
	}
}

// reply is the bot's next stdout line, decoded.
func (r *referee) reply() map[string]any {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatalf("the bot closed its stdout\nstderr:\n%s", r.stderr)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			r.t.Fatalf("not a JSON object on stdout: %q", l)
		}
		return m
	case <-time.After(10 * time.Second):
		r.t.Fatalf("no reply within 10s\nstderr:\n%s", r.stderr)
	}
	return nil
}

// exit waits for the process to end within limit and returns its status.
func (r *referee) exit(limit time.Duration) int {
	r.t.Helper()
	for range r.lines {
		r.t.Error("a line on stdout after the last expected one")
	}
	select {
	case err := <-r.exited:
		r.exited <- err
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			r.t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		r.t.Fatalf("the bot did not exit within %v\nstderr:\n%s", limit, r.stderr)
	}
	return -1
}

// stderrJSON is the JSON after each "TAG " at the start of a stderr line.
func (r *referee) stderrJSON(tag string) []map[string]any {
	var out []map[string]any
	for _, l := range strings.Split(r.stderr.String(), "\n") {
		if rest, ok := strings.CutPrefix(l, tag+" "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(rest), &m); err != nil {
				r.t.Fatalf("stderr %q: %v", l, err)
			}
			out = append(out, m)
		}
	}
	return out
}

func hello(seat int, seed uint64, gameID string) map[string]any {
	return map[string]any{
		"type": "hello", "protocol": 1, "game": "banqi",
		"options": map[string]string{"ranks": "taiwan", "chain_capture": "false", "capture_facedown": "false", "max_plies": "2000", "no_progress_plies": "180", "repetition": "draw3"},
		"seat":    seat, "seats": 2, "players": []string{"me", "random"}, "match": "banqi-test", "game_id": gameID, "seed": seed,
		"clock":    map[string]int{"startup_ms": 10000, "move_ms": 1000, "margin_ms": 50},
		"x_future": map[string]any{"note": "ignore me", "list": []any{1, 2.5, nil}},
	}
}

// banqiTurn is a real turn line after plies random plies of a seeded game,
// with the id given and an unknown field in the turn, view and clock;
// legal is its number of legal actions.
func banqiTurn(t *testing.T, id int64, plies int, moveMs int) (line []byte, legal int) {
	g, opts := testkit.Setup(t, "banqi", 2, nil)
	st, _ := g.New(2, 5, opts)
	for i := 0; i < plies && !st.Over(); i++ {
		l := st.Legal()
		if err := st.Apply(l[(i*7)%len(l)]); err != nil {
			t.Fatal(err)
		}
	}
	raw := turnLine(t, st, st.Legal(), id)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m["x_future"] = true
	m["view"].(map[string]any)["x_future"] = 1
	m["clock"] = map[string]any{"move_ms": moveMs, "x_future": "x"}
	return must(json.Marshal(m)), len(st.Legal())
}

func end(gameID string) map[string]any {
	return map[string]any{"type": "end", "game_id": gameID, "ranks": []int{2, 1}, "scores": []float64{0, 1}, "reason": "all 16 red pieces captured", "view": map[string]any{"board": []string{}}, "x_future": 3}
}

func wantAction(t *testing.T, m map[string]any, id float64, legal int) int {
	t.Helper()
	if m["type"] != "action" || m["id"] != id {
		t.Fatalf("answer %v, want an action with id %v", m, id)
	}
	k, ok := m["index"].(float64)
	if !ok || k != float64(int(k)) || k < 0 || int(k) >= legal {
		t.Fatalf("answer %v: index not in 0..%d", m, legal-1)
	}
	return int(k)
}

// TestProtocolSession plays two games in one process, with unknown fields
// and message types, ids that are not 1, 2, 3, lines split across writes
// and several in one write, then sends bye and keeps stdin open: the bot
// must exit 0 at once.
func TestProtocolSession(t *testing.T) {
	r := startBot(t, "probe.js")
	const seed = 7320360202848550
	r.send(hello(0, seed, "g0"))
	if m := r.reply(); m["type"] != "ready" || m["name"] != "probe" || m["version"] != "7" {
		t.Fatalf("answer to hello %v, want ready named probe, version 7", m)
	}
	r.send(`{"type":"x_future_notice","x_future":{"a":[1,2]}}`)
	turn, n := banqiTurn(t, 5, 0, 1000)
	r.send(turn)
	wantAction(t, r.reply(), 5, n)
	// A turn split in two writes, then \r\n line ends.
	turn, n = banqiTurn(t, 109, 20, 1000)
	half := len(turn) / 2
	if _, err := r.stdin.Write(turn[:half]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	r.send(turn[half:])
	wantAction(t, r.reply(), 109, n)
	turn, n = banqiTurn(t, 110, 21, 1000)
	r.send(append(turn, '\r'))
	wantAction(t, r.reply(), 110, n)
	// end and the next hello in one write.
	r.send(string(must(json.Marshal(end("g0")))) + "\n" + string(must(json.Marshal(hello(1, 42, "g1")))))
	if m := r.reply(); m["type"] != "ready" {
		t.Fatalf("second hello answered %v", m)
	}
	turn, n = banqiTurn(t, 1, 1, 250)
	r.send(turn)
	wantAction(t, r.reply(), 1, n)
	r.send(end("g1"))
	sent := time.Now()
	r.send(`{"type":"bye","x_future":1}`)
	// stdin stays open, as arena check keeps it.
	if code := r.exit(2 * time.Second); code != 0 {
		t.Fatalf("exit status %d after bye, want 0", code)
	}
	t.Logf("exited %v after bye, stdin open", time.Since(sent).Round(time.Millisecond))

	starts := r.stderrJSON("START")
	if len(starts) != 2 {
		t.Fatalf("start ran %d times, want 2\n%s", len(starts), r.stderr)
	}
	s := starts[0]
	if s["game"] != "banqi" || s["seat"] != 0.0 || s["seats"] != 2.0 || s["gameId"] != "g0" || s["match"] != "banqi-test" || s["seed"] != float64(seed) || s["future"] != true {
		t.Errorf("first context %v", s)
	}
	if o := s["options"].(map[string]any); o["ranks"] != "taiwan" || o["no_progress_plies"] != "180" {
		t.Errorf("options %v, want the strings sent", o)
	}
	if c := s["clock"].(map[string]any); c["move_ms"] != 1000.0 || c["margin_ms"] != 50.0 {
		t.Errorf("clock %v", c)
	}
	if p := s["players"].([]any); len(p) != 2 || p[0] != "me" {
		t.Errorf("players %v", p)
	}
	if starts[1]["seat"] != 1.0 || starts[1]["gameId"] != "g1" {
		t.Errorf("second context %v", starts[1])
	}
	turns := r.stderrJSON("TURN")
	if len(turns) != 4 {
		t.Fatalf("%d turns logged, want 4", len(turns))
	}
	// ctx.random() is Random(hello.seed, seat): first draws of each game.
	if want := newRandom(seed, 0).float(); turns[0]["r"] != want {
		t.Errorf("game 1's first ctx.random() %v, want %v", turns[0]["r"], want)
	}
	if want := newRandom(42, 1).float(); turns[3]["r"] != want {
		t.Errorf("game 2's first ctx.random() %v, want %v", turns[3]["r"], want)
	}
	for i, tu := range turns {
		limit := map[bool]float64{true: 250, false: 1000}[i == 3]
		if tl, d := tu["timeLeft"].(float64), tu["deadline"].(float64); tl <= 0 || tl > limit || math.Abs(d-limit) > 1e-6 {
			t.Errorf("turn %d: timeLeft %v, deadline %v after receipt, want (0, %v]", i, tl, tu["deadline"], limit)
		}
	}
	if turns[2]["turns"] != 3.0 || turns[3]["turns"] != 1.0 {
		t.Errorf("ctx.data is not per game: %v", turns)
	}
	ends := r.stderrJSON("END")
	if len(ends) != 2 || ends[0]["rank"] != 2.0 || ends[0]["score"] != 0.0 || ends[1]["rank"] != 1.0 || ends[0]["reason"] != "all 16 red pieces captured" || ends[0]["view"] != true || ends[1]["gameId"] != "g1" {
		t.Errorf("end results %v", ends)
	}
	if !strings.Contains(r.stderr.String(), "console.log goes to stderr") {
		t.Error("console.log output is not on stderr")
	}
}

// TestProtocolVersion: a hello of protocol 2 is answered with error, and
// the bot exits 1, as docs/protocol.md asks.
func TestProtocolVersion(t *testing.T) {
	r := startBot(t, "probe.js")
	h := hello(0, 1, "g0")
	h["protocol"] = 2
	r.send(h)
	m := r.reply()
	if m["type"] != "error" || m["message"] != "unsupported protocol version 2 (this bot speaks 1)" {
		t.Fatalf("answer %v", m)
	}
	if code := r.exit(2 * time.Second); code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}
}

// TestRefuse: start throwing refuse(msg), and a game outside games, are
// answered with error and exit 1; start throwing anything else is logged
// and the game goes on.
func TestRefuse(t *testing.T) {
	for _, c := range []struct{ mode, game, message string }{
		{"refuse", "banqi", "no thanks, not banqi"},
		{"banqionly", "uno", `this bot only plays banqi, not "uno"`},
	} {
		r := startBot(t, "probe.js", c.mode)
		h := hello(0, 1, "g0")
		h["game"] = c.game
		r.send(h)
		if m := r.reply(); m["type"] != "error" || m["message"] != c.message {
			t.Fatalf("%s: answer %v, want error %q", c.mode, m, c.message)
		}
		if code := r.exit(2 * time.Second); code != 1 {
			t.Fatalf("%s: exit status %d, want 1", c.mode, code)
		}
	}
	r := startBot(t, "probe.js", "startthrow")
	r.send(hello(0, 1, "g0"))
	if m := r.reply(); m["type"] != "ready" {
		t.Fatalf("start threw: answer %v, want ready", m)
	}
	// Its stderr is whole once it has exited.
	r.send(map[string]any{"type": "bye"})
	if code := r.exit(2 * time.Second); code != 0 {
		t.Fatalf("exit status %d after bye", code)
	}
	if !strings.Contains(r.stderr.String(), "deliberate failure in start") {
		t.Errorf("no stack on stderr:\n%s", r.stderr)
	}
}

// TestFallbacks: an exception, a rejected or never settled promise, an
// index out of range and an action not in legal each give a stderr
// message naming the turn id, with the stack where there is one, and a
// legal answer; the game goes on.
func TestFallbacks(t *testing.T) {
	for _, c := range []struct {
		mode string
		want []string
	}{
		{"throw", []string{"turn id 2: act threw", "Error: deliberate failure in act", "probe.js:", "playing the fallback legal["}},
		{"reject", []string{"turn id 1: act rejected", "deliberate rejection", "probe.js:"}},
		{"never", []string{"turn id 1: act's promise did not settle"}},
		{"badindex", []string{"turn id 1: act returned index 32, outside 0..31"}},
		{"notlegal", []string{`turn id 1: act returned {"type":"nonsense"}, which is not one of the 32 legal actions`}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			r := startBot(t, "probe.js", c.mode)
			r.send(hello(0, 1, "g0"))
			r.reply()
			for id := int64(1); id <= 3; id++ {
				turn, n := banqiTurn(t, id, int(id-1), 200)
				start := time.Now()
				r.send(turn)
				wantAction(t, r.reply(), float64(id), n)
				// Before the referee's deadline would pass, with room for a loaded machine.
				if took := time.Since(start); took > time.Second {
					t.Errorf("turn %d answered after %v (move_ms 200)", id, took)
				}
			}
			r.send(`{"type":"bye"}`)
			if code := r.exit(2 * time.Second); code != 0 {
				t.Fatalf("exit status %d", code)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if c.mode == "throw" && strings.Count(r.stderr.String(), "playing the fallback") != 1 {
				t.Errorf("want exactly one fallback (turn 2):\n%s", r.stderr)
			}
		})
	}
}

// TestAnswers: an async act, and an action object (keys in another
// order) or a helper's decoded action, are answered with the right index;
// end of input ends the bot with status 0.
func TestAnswers(t *testing.T) {
	for _, c := range []struct{ script, mode string }{{"probe.js", "async"}, {"probe.js", "object"}, {"probe.mjs", ""}} {
		t.Run(strings.TrimSpace(c.script+" "+c.mode), func(t *testing.T) {
			r := startBot(t, c.script, c.mode)
			r.send(hello(1, 9, "g0"))
			if m := r.reply(); m["type"] != "ready" {
				t.Fatalf("answer %v", m)
			}
			for id := int64(1); id <= 3; id++ {
				turn, n := banqiTurn(t, id, int(id), 1000)
				r.send(turn)
				if k := wantAction(t, r.reply(), float64(id), n); k != n-1 {
					t.Errorf("turn %d: index %d, want the last, %d", id, k, n-1)
				}
			}
			_ = r.stdin.Close()
			if code := r.exit(2 * time.Second); code != 0 {
				t.Fatalf("exit status %d at end of input", code)
			}
			if strings.Contains(r.stderr.String(), "fallback") {
				t.Errorf("a fallback:\n%s", r.stderr)
			}
			if c.script == "probe.mjs" {
				esm := r.stderrJSON("ESM")
				if len(esm) != 3 || esm[0]["random"] != newRandom(9, 1).float() {
					t.Errorf("ESM bot logged %v", esm)
				}
			}
		})
	}
}

// TestCommonJSShape: require() gives the documented names, and the file
// passes node --check.
func TestCommonJSShape(t *testing.T) {
	nodePath := node(t)
	if out, err := exec.Command(nodePath, "--check", FileName).CombinedOutput(); err != nil {
		t.Fatalf("node --check: %v\n%s", err, out)
	}
	out, err := exec.Command(nodePath, "-e", `const a = require('./arenabot.js'); console.log(Object.keys(a).sort().join(' '))`).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "Context ENGINE_ENV Engine EngineError Game Observer PROTOCOL Random State VERSION banqi boon bounce indexOf refuse run uno"
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("exports %q, want %q", got, want)
	}
}
