package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
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
			if mode == "silent-hello" {
				hang()
			}
			send(`{"type":"ready","name":"check-` + mode + `","version":"1"}`)
		case protocol.TypeTurn:
			var t protocol.Turn
			if err := json.Unmarshal(line, &t); err != nil {
				fmt.Fprintln(os.Stderr, "bad turn:", err)
				return 1
			}
			turn++
			first := games == 1 && turn == 1
			answer := fmt.Sprintf(`{"type":"action","id":%d,"index":%d}`, t.ID, rng.IntN(len(t.Legal)))
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
			}
			return 0
		}
	}
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
		{mode: "late", fails: []string{check.CheckThinkTime}, why: "answered after"},
		{mode: "half-line", fails: []string{check.CheckThinkTime}, why: "no answer within 500ms + 50ms margin"},
		{mode: "crash", fails: []string{check.CheckNoCrash}, why: "exited with status 3"},
		{mode: "close-stdout", fails: []string{check.CheckNoCrash}, why: "stdout closed (EOF), process still running"},
		{mode: "exit-after-end", fails: []string{check.CheckKeepAlive}, why: "keep running after end until bye"},
		{mode: "answers-end", fails: []string{check.CheckHygiene}, why: `before ready: "ok"`},
		{mode: "ignore-bye", fails: []string{check.CheckBye}, why: "still running 1s after bye"},
		{mode: "bye-exit-1", fails: []string{check.CheckBye}, why: "exited with status 1 after bye"},
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
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no command", []string{"check", "--game", "banqi"}, "exactly one CMD"},
		{"two commands", []string{"check", "--game", "banqi", "python3", "bot.py"}, "exactly one CMD"},
		{"no game", []string{"check", "arena bot random"}, "game"},
		{"unknown game", []string{"check", "--game", "chess", "arena bot random"}, `unknown game "chess"`},
		{"bad option", []string{"check", "--game", "banqi", "--option", "ranks=fr", "arena bot random"}, "ranks"},
		{"missing program", []string{"check", "--game", "banqi", "./no-such-bot"}, `"./no-such-bot" not found`},
		{"no games", []string{"check", "--game", "banqi", "--games", "0", "arena bot random"}, "--games"},
		{"no move time", []string{"check", "--game", "banqi", "--move-time", "0s", "arena bot random"}, "--move-time"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := arena(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d naming %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}
