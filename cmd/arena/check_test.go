package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/check"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/protocol"
)

// envCheckBot makes this test binary a bot for `arena check`: the mode
// names one misbehaviour. The checker runs it as
// `env ARENA_CHECK_BOT=mode <test binary>`, since a check takes one CMD.
const envCheckBot = "ARENA_CHECK_BOT"

// TestMain lives in main_test.go; a bot must not get as far as it.
func init() {
	if mode := os.Getenv(envCheckBot); mode != "" {
		os.Exit(checkBot(mode))
	}
	// Under -race a Go program sleeps 1s at exit by default, which is the
	// whole grace a bot has after bye: the children must not.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
}

// checkBot plays banqi over stdin/stdout, misbehaving as mode says.
func checkBot(mode string) int {
	hang := func() { time.Sleep(10 * time.Minute) }
	send := func(s string) {
		if _, err := os.Stdout.WriteString(s + "\n"); err != nil {
			os.Exit(4)
		}
	}
	switch mode {
	case "sleeper": // the child of mode fork
		hang()
		return 0
	case "fork":
		// A helper that outlives the bot, holding its stdout open too.
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), envCheckBot+"=sleeper")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fork:", err)
			return 1
		}
	case "banner":
		send("my bot v1 starting")
	}
	lr := protocol.NewLineReader(os.Stdin, protocol.DefaultMaxLine)
	var (
		hello protocol.Hello
		games int
		turn  int // in this game
		total int // in all games
		rng   = rand.New(rand.NewPCG(1, 2))
	)
	for {
		line, err := lr.ReadLine()
		if err != nil {
			if mode == "ignore-bye" {
				hang()
			}
			return 0
		}
		typ, err := protocol.PeekType(line)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad line:", err)
			return 1
		}
		switch typ {
		case protocol.TypeHello:
			dec := json.NewDecoder(bytes.NewReader(line))
			if mode == "strict" {
				dec.DisallowUnknownFields()
			}
			if err := dec.Decode(&hello); err != nil {
				send(fmt.Sprintf(`{"type":"error","message":%q}`, err.Error()))
				return 1
			}
			if hello.Protocol != protocol.Version && mode != "ignores-version" {
				send(`{"type":"error","message":"unsupported protocol version"}`)
				return 1
			}
			games++
			turn = 0
			rng = rand.New(rand.NewPCG(hello.Seed, uint64(hello.Seat)))
			switch {
			case mode == "silent-hello":
				hang()
			case mode == "unflushed-ready":
				// Written to a buffer that is never flushed: the classic
				// mistake, which looks to the arena like silence.
				w := bufio.NewWriter(os.Stdout)
				w.WriteString(`{"type":"ready"}` + "\n")
				hang()
			case mode == "quiet-exit" && games == 2:
				// Its second game (stderr said "thinking" in the first):
				// gone without a word.
				return 3
			}
			switch mode {
			case "no-version":
				send(`{"type":"ready","name":"check-no-version"}`)
			case "anonymous":
				send(`{"type":"ready"}`)
			default:
				send(`{"type":"ready","name":"check-` + mode + `","version":"1"}`)
			}
		case protocol.TypeTurn:
			var t protocol.Turn
			if err := json.Unmarshal(line, &t); err != nil {
				fmt.Fprintln(os.Stderr, "bad turn:", err)
				return 1
			}
			turn++
			total++
			first := games == 1 && turn == 1
			if mode == "quiet-exit" && first {
				// Early in the game, so that the arena has read it long
				// before the game ends.
				fmt.Fprintln(os.Stderr, "thinking")
			}
			i := rng.IntN(len(t.Legal))
			answer := fmt.Sprintf(`{"type":"action","id":%d,"index":%d}`, t.ID, i)
			// Modes that get every turn wrong: a checker that goes on
			// after the first protocol error meets this exit at the
			// fourth turn (a no-crash failure) instead of playing on,
			// one move time per turn, for minutes.
			format, every := everyTurn[mode]
			if every && total == 4 {
				fmt.Fprintln(os.Stderr, "the checker went on after a protocol error")
				return 5
			}
			if every || mode == "bare-late" && games == 2 && turn == 3 {
				if format == "" {
					send(string(t.Legal[i]))
				} else {
					send(fmt.Sprintf(format, t.ID, i))
				}
				continue
			}
			switch {
			case mode == "garbage" && first:
				send("hello world")
				continue
			case mode == "wrong-id" && first:
				send(fmt.Sprintf(`{"type":"action","id":%d,"index":0}`, t.ID+1000))
				continue
			case mode == "bad-utf8" && first:
				send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"note":"%s"}`, t.ID, "\xff\xfe"))
				continue
			case mode == "index9999" && first:
				send(fmt.Sprintf(`{"type":"action","id":%d,"index":9999}`, t.ID))
				continue
			case mode == "illegal-object" && first:
				// Well-formed, but no piece can move on a face-down board.
				send(fmt.Sprintf(`{"type":"action","id":%d,"action":{"type":"move","from":"a1","to":"a2"}}`, t.ID))
				continue
			case mode == "oversize" && first:
				send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"pad":"%s"}`, t.ID, strings.Repeat("a", 2<<20)))
				continue
			case mode == "half-line" && first:
				os.Stdout.WriteString(fmt.Sprintf(`{"type":"action","id":%d,"in`, t.ID))
				hang()
			case mode == "late" && first:
				time.Sleep(time.Duration(hello.Clock.MoveMs+hello.Clock.MarginMs+150) * time.Millisecond)
			case mode == "debug-print":
				send("thinking...")
			case mode == "duplicate" && first:
				send(answer)
			case mode == "crash" && turn == 3:
				fmt.Fprintln(os.Stderr, "panic: something broke")
				return 3
			case mode == "close-stdout" && turn == 3:
				os.Stdout.Close()
				hang()
			}
			send(answer)
		case protocol.TypeEnd:
			switch mode {
			case "exit-after-end":
				return 0
			case "answers-end":
				send("ok")
			}
		case protocol.TypeBye:
			switch mode {
			case "ignore-bye":
				continue
			case "bye-exit-1":
				return 1
			case "close-then-exit":
				// Stdout closes at once, the exit follows 100 ms later (a
				// runtime's shutdown; a loaded machine): within the time
				// its stdin stays open, so it did not wait for its end.
				os.Stdout.Close()
				time.Sleep(100 * time.Millisecond)
			}
			return 0
		}
	}
}

// everyTurn are the modes that answer every turn with the same protocol
// error: the format of the answer, given the turn's id and an index ("":
// the legal action at that index, bare).
var everyTurn = map[string]string{
	"no-id":       `{"type":"action","index":%[2]d}`,
	"wrong-type":  `{"type":"move","id":%[1]d,"index":%[2]d}`,
	"bare-action": "",
	"string-id":   `{"type":"action","id":"%[1]d","index":%[2]d}`,
	"no-choice":   `{"type":"action","id":%[1]d}`,
	// No "type": read as noise until the deadline, then as the answer.
	"no-type": `{"id":%[1]d,"index":%[2]d}`,
}

// checkOutcome runs arena check and returns the names of the checks by
// status, the output and the exit code.
func checkOutcome(t *testing.T, args ...string) (map[string][]string, string, int) {
	t.Helper()
	out, stderr, code := arena(t, append([]string{"check"}, args...)...)
	byStatus := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		status, rest, ok := strings.Cut(l, " ")
		if !ok || status != strings.ToUpper(status) || !strings.Contains(rest, ":") {
			continue
		}
		name, _, _ := strings.Cut(rest, ":")
		switch status {
		case "PASS", "FAIL", "WARN", "SKIP":
			byStatus[status] = append(byStatus[status], name)
		}
	}
	return byStatus, out + stderr, code
}

func checkBotCommand(t *testing.T, mode string) string {
	t.Helper()
	env, err := exec.LookPath("env")
	if err != nil {
		t.Skip("no env(1)")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("'%s' %s=%s '%s'", env, envCheckBot, mode, self)
}

// fastCheck keeps the limits short, yet far above what a bot needs on a
// loaded machine: only the bots meant to be late are.
var fastCheck = []string{"--game", "banqi", "--move-time", "500ms", "--startup-time", "2s", "--seed", "7"}

func TestCheckCompliantBots(t *testing.T) {
	t.Parallel()
	cmds := map[string]string{"random": "arena bot random", "greedy": "arena bot greedy"}
	if python, err := exec.LookPath("python3"); err == nil {
		script, _ := filepath.Abs("../../bots/python/random_bot.py")
		cmds["python"] = fmt.Sprintf("'%s' '%s'", python, script)
	} else {
		t.Log("python3 not installed: the Python bot is not checked")
	}
	for name, cmd := range cmds {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := append(slices.Clone(fastCheck), cmd)
			if name == "python" { // a slow machine may take a while to start an interpreter
				args = append(slices.Clone(fastCheck), "--startup-time", "10s", cmd)
			}
			got, out, code := checkOutcome(t, args...)
			if code != 0 || len(got["PASS"]) != len(check.Checks) {
				t.Fatalf("exit %d, %d of %d checks passed:\n%s", code, len(got["PASS"]), len(check.Checks), out)
			}
			if !strings.Contains(out, "14 passed, 0 failed") {
				t.Errorf("no summary line:\n%s", out)
			}
		})
	}
}

// TestCheckMisbehavingBots: each misbehaviour fails exactly the check that
// names it (plus what it logically entails), and nothing else.
func TestCheckMisbehavingBots(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode  string
		fails []string
		extra []string // more flags
		warns []string
		why   string // in the output: the reason names the mistake
	}{
		{mode: "ok", why: "14 passed, 0 failed, 0 warnings, 0 skipped: compliant"},
		{mode: "silent-hello", fails: []string{check.CheckReady}, why: "no answer within 2s + 50ms margin"},
		{mode: "banner", fails: []string{check.CheckHygiene}, why: `"my bot v1 starting"`},
		{mode: "strict", fails: []string{check.CheckReady, check.CheckUnknownFields}, why: "failed with unknown fields"},
		{mode: "garbage", fails: []string{check.CheckReplyFormat}, why: "not a JSON object"},
		{mode: "wrong-id", fails: []string{check.CheckIDs}, why: "answer id 1001, expected 1"},
		{mode: "bad-utf8", fails: []string{check.CheckReplyFormat}, why: "not valid UTF-8"},
		{mode: "oversize", fails: []string{check.CheckReplyFormat}, why: "line too long"},
		{mode: "debug-print", fails: []string{check.CheckHygiene}, why: `an unasked line before the answer: "thinking..."`},
		{mode: "duplicate", fails: []string{check.CheckHygiene}, why: "an extra action (for turn id 1)"},
		{mode: "index9999", fails: []string{check.CheckLegal}, why: "index 9999 out of range 0..31"},
		{mode: "illegal-object", fails: []string{check.CheckLegal}, why: "is not one of the 32 legal actions"},
		{mode: "no-id", fails: []string{check.CheckIDs}, why: `the answer has no "id" (expected 1)`},
		{mode: "wrong-type", fails: []string{check.CheckReplyFormat}, why: `expected an action message, got type "move"`},
		{mode: "bare-action", fails: []string{check.CheckReplyFormat}, why: "a bare banqi action instead of an action message"},
		{mode: "string-id", fails: []string{check.CheckReplyFormat}, why: "a field of the answer has the wrong type"},
		{mode: "no-choice", fails: []string{check.CheckReplyFormat}, why: `neither "action" nor "index"`},
		{mode: "no-type", fails: []string{check.CheckReplyFormat}, why: `expected an action message, got no "type"`},
		{mode: "late", fails: []string{check.CheckThinkTime}, why: "answered after"},
		{mode: "half-line", fails: []string{check.CheckThinkTime}, why: "no answer within 500ms + 50ms margin"},
		{mode: "crash", fails: []string{check.CheckNoCrash}, why: "exited with status 3"},
		{mode: "close-stdout", fails: []string{check.CheckNoCrash}, why: "stdout closed (EOF), process still running"},
		{mode: "exit-after-end", fails: []string{check.CheckKeepAlive}, why: "keep running after end until bye"},
		{mode: "answers-end", fails: []string{check.CheckHygiene}, why: `before ready: "ok"`},
		{mode: "ignore-bye", fails: []string{check.CheckBye}, why: "s after bye (its process group was killed)"},
		{mode: "bye-exit-1", fails: []string{check.CheckBye}, why: "exited with status 1 after bye"},
		{mode: "close-then-exit", why: "exited with status 0 within"},
		{mode: "fork", extra: []string{"--bot-isolate", "no"}, fails: []string{check.CheckProcessGroup}, why: "still running in the bot's process group"},
		// Isolated, the bot's descendants end with it, as in a match.
		{mode: "fork", extra: []string{"--bot-isolate", "yes"}, why: "nothing left in process group"},
		{mode: "ignores-version", warns: []string{check.CheckProtocolVersion}, why: "answered with ready"},
		{mode: "ignores-version", extra: []string{"--strict"}, fails: []string{check.CheckProtocolVersion}, why: "(--strict)"},
	}
	for _, tc := range cases {
		name := tc.mode + strings.Join(tc.extra, "")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if slices.Contains(tc.extra, "yes") {
				if _, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateYes}); err != nil {
					t.Skipf("no isolation here: %v", err)
				}
			}
			start := time.Now()
			args := append(append(slices.Clone(fastCheck), tc.extra...), checkBotCommand(t, tc.mode))
			got, out, code := checkOutcome(t, args...)
			wantCode := 0
			if len(tc.fails) > 0 {
				wantCode = 1
			}
			slices.Sort(got["FAIL"])
			want := slices.Sorted(slices.Values(tc.fails))
			if !slices.Equal(got["FAIL"], want) || !slices.Equal(got["WARN"], tc.warns) || code != wantCode {
				t.Fatalf("FAIL %v WARN %v exit %d; want FAIL %v WARN %v exit %d:\n%s", got["FAIL"], got["WARN"], code, want, tc.warns, wantCode, out)
			}
			if n := len(got["PASS"]) + len(got["FAIL"]) + len(got["WARN"]) + len(got["SKIP"]); n != len(check.Checks) {
				t.Fatalf("%d checks reported, want %d:\n%s", n, len(check.Checks), out)
			}
			if !strings.Contains(out, tc.why) {
				t.Fatalf("output lacks %q:\n%s", tc.why, out)
			}
			t.Logf("%s in %v", tc.mode, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestCheckReadyLineNamesWhatTheBotGave: the ready check's line quotes
// the name and version the bot's ready gave, and says nothing of one it
// did not give (no `version ""`).
func TestCheckReadyLineNamesWhatTheBotGave(t *testing.T) {
	t.Parallel()
	cases := []struct{ mode, want string }{
		{"ok", `PASS ready: 2 hellos answered with ready (name "check-ok", version "1")` + "\n"},
		{"no-version", `PASS ready: 2 hellos answered with ready (name "check-no-version")` + "\n"},
		{"anonymous", "PASS ready: 2 hellos answered with ready\n"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			got, out, code := checkOutcome(t, append(slices.Clone(fastCheck), checkBotCommand(t, tc.mode))...)
			if code != 0 || len(got["PASS"]) != len(check.Checks) {
				t.Fatalf("exit %d, %d of %d checks passed:\n%s", code, len(got["PASS"]), len(check.Checks), out)
			}
			if !strings.Contains(out, tc.want) {
				t.Fatalf("output lacks %q:\n%s", tc.want, out)
			}
		})
	}
}

func TestCheckJSONReport(t *testing.T) {
	t.Parallel()
	out, stderr, code := arena(t, append(append([]string{"check", "--json"}, fastCheck...), checkBotCommand(t, "index9999"))...)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON report: %v\n%s", err, out)
	}
	if rep.OK || rep.Failed != 1 || rep.Game != "banqi" || rep.Seed != 7 || rep.Bot == nil || rep.Bot.Name != "check-index9999" ||
		rep.Think == nil || rep.GamesPlayed != 2 || len(rep.Checks) != len(check.Checks) {
		t.Fatalf("report: %+v", rep)
	}
	for _, c := range rep.Checks {
		if (c.Status == check.Fail) != (c.Name == check.CheckLegal) {
			t.Errorf("check %s: %s (%s)", c.Name, c.Status, c.Detail)
		}
	}
}

func TestCheckUsage(t *testing.T) {
	t.Parallel()
	cases := []usageCase{
		{"no command", []string{"check", "--game", "banqi"}, "exactly one CMD"},
		{"two commands", []string{"check", "--game", "banqi", "python3", "bot.py"}, "exactly one CMD"},
		{"no game", []string{"check", "arena bot random"}, "game"},
		{"unknown game", []string{"check", "--game", "chess", "arena bot random"}, `unknown game "chess"`},
		{"bad option", []string{"check", "--game", "banqi", "--option", "ranks=fr", "arena bot random"}, "ranks"},
		{"missing program", []string{"check", "--game", "banqi", "./no-such-bot"}, `"./no-such-bot" not found`},
		{"no games", []string{"check", "--game", "banqi", "--games", "0", "arena bot random"}, "--games"},
		{"no move time", []string{"check", "--game", "banqi", "--move-time", "0s", "arena bot random"}, "--move-time"},
	}
	runUsageCases(t, cases, nil)
}

// TestCheckStopsAtProtocolError: a bot that answers a turn with something
// that is not an action message with the turn's id is stopped there, at
// the first such answer (the bot would exit at its fourth turn), with the
// check that names the mistake, what to send instead, and the lines
// exchanged up to it; what could not be judged is skipped.
func TestCheckStopsAtProtocolError(t *testing.T) {
	t.Parallel()
	cases := []struct {
		game, mode string
		check      string // the failed check
		stop       string // where the session stopped
		id         int    // the id of the turn answered wrongly
		hint       string // in the hint
		said       string // the bot's line, last in the transcript, starts so
	}{
		{"banqi", "no-id", check.CheckIDs, "game 1 turn 1", 1, `echo the turn's id in every answer: {"type":"action","id":1,"index":`, `B> {"type":"action","index":`},
		{"banqi", "wrong-type", check.CheckReplyFormat, "game 1 turn 1", 1, `a message of type "action": {"type":"action","id":1,"index":`, `B> {"type":"move","id":1,`},
		{"banqi", "bare-action", check.CheckReplyFormat, "game 1 turn 1", 1, `{"type":"action","id":1,"action":{"type":"flip","square":`, `B> {"type":"flip","square":`},
		{"banqi", "string-id", check.CheckReplyFormat, "game 1 turn 1", 1, `"id" and "index" are integers`, `B> {"type":"action","id":"1",`},
		{"banqi", "no-choice", check.CheckReplyFormat, "game 1 turn 1", 1, `add "index"`, `B> {"type":"action","id":1}`},
		{"banqi", "no-type", check.CheckReplyFormat, "game 1 turn 1", 1, `a message of type "action"`, `B> {"id":1,"index":`},
		{"banqi", "bare-late", check.CheckReplyFormat, "game 2 turn 3", 3, `{"type":"action","id":3,"action":{`, `B> {"type":"`},
		{"uno", "no-id", check.CheckIDs, "game 1 turn 1", 1, `{"type":"action","id":1,"index":`, `B> {"type":"action","index":`},
		{"uno", "wrong-type", check.CheckReplyFormat, "game 1 turn 1", 1, `a message of type "action"`, `B> {"type":"move","id":1,`},
		{"uno", "bare-action", check.CheckReplyFormat, "game 1 turn 1", 1, `, or, simpler, give its position in "legal": {"type":"action","id":1,"index":`, `B> {"type":"`},
	}
	for _, tc := range cases {
		t.Run(tc.game+"/"+tc.mode, func(t *testing.T) {
			t.Parallel()
			args := append(slices.Clone(fastCheck), "--json", "--game", tc.game, checkBotCommand(t, tc.mode))
			out, stderr, code := arena(t, append([]string{"check"}, args...)...)
			var rep check.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
				t.Fatalf("exit %d, want 1; report: %v\n%s%s", code, err, out, stderr)
			}
			if rep.Stopped != tc.stop {
				t.Errorf("stopped %q, want %q", rep.Stopped, tc.stop)
			}
			// Turns sent: up to the bad one, and not one more.
			wantTurns, wantGames := 1, 0
			if tc.mode == "bare-late" {
				wantTurns, wantGames = 1, 1
				if rep.Think != nil {
					wantTurns += rep.Think.Count // every turn before was answered
				}
			}
			if rep.Turns != wantTurns || rep.GamesPlayed != wantGames {
				t.Errorf("%d turns and %d games played, want %d and %d", rep.Turns, rep.GamesPlayed, wantTurns, wantGames)
			}
			for _, r := range rep.Checks {
				switch {
				case r.Name == tc.check:
					if r.Status != check.Fail || r.Failures != 1 || !strings.HasPrefix(r.Detail, tc.stop+": ") {
						t.Errorf("%s: %s %q (%d failures), want one failure at %s", r.Name, r.Status, r.Detail, r.Failures, tc.stop)
					}
					if !strings.Contains(r.Hint, tc.hint) {
						t.Errorf("hint %q lacks %q", r.Hint, tc.hint)
					}
					n := len(r.Transcript)
					if n < 2 || !strings.HasPrefix(r.Transcript[n-1], tc.said) ||
						!strings.HasPrefix(r.Transcript[n-2], fmt.Sprintf(`R> {"type":"turn","id":%d,`, tc.id)) {
						t.Errorf("transcript does not end with the turn and %q:\n%s", tc.said, strings.Join(r.Transcript, "\n"))
					}
				case r.Status == check.Fail:
					t.Errorf("%s failed too: %s", r.Name, r.Detail)
				case r.Name == check.CheckNoCrash || r.Name == check.CheckBye:
					if r.Status != check.Skip || !strings.Contains(r.Detail, "stopped at the protocol error at "+tc.stop) {
						t.Errorf("%s: %s %q, want a skip naming the stop", r.Name, r.Status, r.Detail)
					}
				}
			}
			if t.Failed() {
				t.Logf("report:\n%s\nstderr:\n%s", out, stderr)
			}
		})
	}
}

// TestCheckProgress: progress lines go to stderr, one at the start of each
// game and of each later stage; --json silences them unless --progress.
func TestCheckProgress(t *testing.T) {
	t.Parallel()
	lines := []string{
		"arena check: game 1/2 (seat 0): starting\n",
		"arena check: game 2/2 (seat 1): starting\n",
		"arena check: bye: sent after 2 games and ",
		"arena check: protocol-version: offering a fresh process protocol 2\n",
	}
	cases := []struct {
		name  string
		flags []string
		want  bool
	}{
		{"text", nil, true},
		{"text quiet", []string{"--progress=false"}, false},
		{"json", []string{"--json"}, false},
		{"json with progress", []string{"--json", "--progress"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append(append(append([]string{"check"}, fastCheck...), tc.flags...), "arena bot random")
			out, stderr, code := arena(t, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, out, stderr)
			}
			last := -1
			for _, l := range lines {
				i := strings.Index(stderr, l)
				if got := i >= 0; got != tc.want {
					t.Fatalf("progress line %q on stderr: %v, want %v; stderr:\n%s", l, got, tc.want, stderr)
				}
				if tc.want && i < last {
					t.Fatalf("progress line %q out of order; stderr:\n%s", l, stderr)
				}
				last = i
				if strings.Contains(out, strings.TrimSpace(l)) {
					t.Fatalf("progress line %q on stdout:\n%s", l, out)
				}
			}
		})
	}
}

// TestCheckRemoteBot: arena check nats:BOTID checks a bot that arena
// connect serves as it checks the same bot run here: a good one passes
// all but what only its process shows (bye's exit status, its process
// group), which is skipped as not seen from here; a bad one fails with
// the same findings, word for word.
func TestCheckRemoteBot(t *testing.T) {
	t.Parallel()
	env, err := exec.LookPath("env")
	if err != nil {
		t.Skip("no env(1)")
	}
	url := natsServer(t)
	cases := []struct {
		mode  string
		fails []string
		why   string
	}{
		{mode: "ok", why: "12 passed, 0 failed, 0 warnings, 2 skipped: compliant"},
		{mode: "index9999", fails: []string{check.CheckLegal}, why: "index 9999 out of range 0..31"},
		{mode: "no-id", fails: []string{check.CheckIDs}, why: `the answer has no "id" (expected 1)`},
	}
	for _, tc := range cases {
		p := start(t, nil, "connect", "--nats", url, "--bot", tc.mode, "--", env, envCheckBot+"="+tc.mode, os.Args[0])
		t.Cleanup(func() { p.cmd.Process.Signal(syscall.SIGTERM); p.wait(t) })
		p.waitFor(t, regexp.MustCompile(`(serving bot \S+)`))
	}
	failLines := func(out string) []string {
		var fails []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "FAIL ") || strings.HasPrefix(l, "     ") {
				fails = append(fails, l)
			}
		}
		return fails
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			got, out, code := checkOutcome(t, append(slices.Clone(fastCheck), "--nats", url, "nats:"+tc.mode)...)
			wantCode := 0
			if len(tc.fails) > 0 {
				wantCode = 1
			}
			if !slices.Equal(got["FAIL"], tc.fails) || len(got["WARN"]) > 0 || code != wantCode {
				t.Fatalf("FAIL %v WARN %v exit %d; want FAIL %v exit %d:\n%s", got["FAIL"], got["WARN"], code, tc.fails, wantCode, out)
			}
			if !strings.Contains(out, tc.why) || !strings.Contains(out, "arena check: nats:"+tc.mode+" runs elsewhere") {
				t.Fatalf("output lacks %q or what runs elsewhere:\n%s", tc.why, out)
			}
			if tc.mode == "ok" {
				notSeen := []string{check.CheckBye, check.CheckProcessGroup}
				if !slices.Equal(got["SKIP"], notSeen) || !strings.Contains(out, "SKIP bye: not judged: nats:ok runs elsewhere, so its exit is not seen here") {
					t.Fatalf("SKIP %v, want %v as not seen from here:\n%s", got["SKIP"], notSeen, out)
				}
			}
			_, localOut, _ := checkOutcome(t, append(slices.Clone(fastCheck), checkBotCommand(t, tc.mode))...)
			if remote, local := failLines(out), failLines(localOut); !slices.Equal(remote, local) {
				t.Fatalf("remote findings:\n%s\nlocal findings:\n%s", strings.Join(remote, "\n"), strings.Join(local, "\n"))
			}
		})
	}
}

// TestCheckRemoteBotNotServed: without --nats, arena check nats:BOTID
// starts a server of its own and prints its URL, as a match does; a bot
// nobody serves within the startup limit fails start, with what serves
// it.
func TestCheckRemoteBotNotServed(t *testing.T) {
	t.Parallel()
	got, out, code := checkOutcome(t, "--game", "banqi", "--startup-time", "300ms", "nats:nobody")
	if code != 1 || !slices.Equal(got["FAIL"], []string{check.CheckStart}) || len(got["SKIP"]) != len(check.Checks)-1 {
		t.Fatalf("FAIL %v, %d skipped, exit %d; want start failed, the rest skipped, exit 1:\n%s", got["FAIL"], len(got["SKIP"]), code, out)
	}
	for _, want := range []string{"arena: NATS server for remote bots at nats://127.0.0.1:", "no one serves this bot",
		"hint: no arena connect --bot nobody is serving it"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
