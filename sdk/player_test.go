package sdk_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// TestMain doubles as a bot process: with SDK_TEST_BOT set, this test
// binary is a bot run by sdk.Main (mainBot), for the tests of a real
// process's stdin, stdout, stderr and exit status.
func TestMain(m *testing.M) {
	if mode := os.Getenv("SDK_TEST_BOT"); mode != "" {
		mainBot(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mainBot is the bot of the process tests: it answers legal[1], or
// panics on every turn ("panic").
func mainBot(mode string) {
	p := sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, c *sdk.Context) (int, error) {
		if mode == "panic" {
			var rows []string
			_ = rows[len(legal)] // out of range: the panic of a student's bug
		}
		return 1, nil
	})
	p.OnEnd = func(e *protocol.End, c *sdk.Context) { c.Logf("game %s over: %s", e.GameID, e.Reason) }
	sdk.Main(p, sdk.Options{Name: "mainbot", Version: "1"})
}

const (
	hello1 = `{"type":"hello","protocol":1,"game":"banqi","options":{"max_plies":"2000","chain_capture":"true"},"seat":1,"seats":2,"players":["a","me"],"match":"m","game_id":"m-g0000","seed":42,"clock":{"startup_ms":10000,"move_ms":1000,"margin_ms":50}}`
	turn1  = `{"type":"turn","id":1,"view":{"a":1},"legal":[{"type":"flip","square":"a8"},{"type":"flip","square":"b8"},{"type":"flip","square":"c8"}],"clock":{"move_ms":250}}`
	end1   = `{"type":"end","game_id":"m-g0000","ranks":[1,2],"scores":[1,0],"reason":"all 16 black pieces captured","view":{}}`
)

// A process kept alive across games, answering with the ids of the
// turns, ignoring unknown messages and fields, exiting by itself with
// status 0 after bye while its stdin stays open (as arena check keeps it).
func TestMainProcessByeWithStdinOpen(t *testing.T) {
	cmd, stdin, stdout, stderr := startBot(t, "legal1")
	send := func(line string) {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(want string) {
		t.Helper()
		got, err := stdout.ReadString('\n')
		if err != nil || got != want+"\n" {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	for g := range 2 {
		send(hello1)
		expect(`{"type":"ready","name":"mainbot","version":"1"}`)
		send(`{"type":"news","what":"an unknown message type"}`)
		send(strings.Replace(turn1, `"id":1`, fmt.Sprintf(`"id":%d`, 7+g), 1))
		expect(fmt.Sprintf(`{"type":"action","id":%d,"index":1}`, 7+g))
		send(`{"type":"turn","id":9,"future":true,"view":{},"legal":[{},{}],"clock":{"move_ms":5,"new":1}}`)
		expect(`{"type":"action","id":9,"index":1}`)
		send(end1)
	}
	send(`{"type":"bye"}`)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after bye: %v (stderr %s)", err, stderr)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 5s after bye with stdin open")
	}
	if rest, _ := io.ReadAll(stdout); len(rest) > 0 {
		t.Fatalf("more on stdout: %q", rest)
	}
	if got := stderr.String(); strings.Count(got, "game m-g0000 over: all 16 black pieces captured\n") != 2 {
		t.Fatalf("stderr %q: want the End hook's line twice", got)
	}
}

// A panic in the bot's code: a line on stderr saying what and where, and
// a legal move, every turn; the process plays on.
func TestMainProcessPanicFallsBack(t *testing.T) {
	cmd, stdin, stdout, stderr := startBot(t, "panic")
	io.WriteString(stdin, hello1+"\n"+turn1+"\n"+strings.Replace(turn1, `"id":1`, `"id":2`, 1)+"\n")
	stdout.ReadString('\n') // ready
	for id := 1; id <= 2; id++ {
		var a protocol.Action
		line, err := stdout.ReadString('\n')
		if err != nil || json.Unmarshal([]byte(line), &a) != nil || a.ID != int64(id) || a.Index == nil || *a.Index < 0 || *a.Index > 2 {
			t.Fatalf("turn %d: reply %q, %v: want a legal index", id, line, err)
		}
	}
	stdin.Close() // end of input: as bye
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	got := stderr.String()
	for _, want := range []string{
		"mainbot: panic: runtime error: index out of range [3] with length 0",
		"player_test.go", // the stack names the bot's line
		"mainbot: turn 1: panic: runtime error: index out of range [3] with length 0; playing legal[",
		"mainbot: turn 2: panic:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
}

// An unknown major version: an error line naming both versions, and exit
// status 1 with the reason on stderr.
func TestMainProcessVersionMismatch(t *testing.T) {
	cmd, stdin, stdout, stderr := startBot(t, "legal1")
	io.WriteString(stdin, strings.Replace(hello1, `"protocol":1`, `"protocol":2`, 1)+"\n")
	line, _ := stdout.ReadString('\n')
	if want := `{"type":"error","message":"unsupported protocol version 2 (this bot speaks 1)"}` + "\n"; line != want {
		t.Fatalf("answer %q, want %q", line, want)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1", err)
	}
	if !strings.Contains(stderr.String(), "mainbot: unsupported protocol version 2") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

func startBot(t *testing.T, mode string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *testkit.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "SDK_TEST_BOT="+mode)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, stdin, bufio.NewReader(out), stderr
}

// A Player gets the hello in its context, a Rand seeded from hello.seed
// and the seat, the options, a deadline from the turn's receipt, and its
// typed view and actions.
func TestPlayerContext(t *testing.T) {
	type view struct {
		A int `json:"a"`
	}
	type action struct {
		Type   string `json:"type"`
		Square string `json:"square"`
	}
	var log bytes.Buffer
	var starts, ends int
	var draws []int
	var got struct {
		view     view
		legal    []action
		game     string
		seat     int
		seats    int
		chain    bool
		plies    int
		move     time.Duration
		left     time.Duration
		deadline time.Time
		budget   time.Time
		received time.Time
	}
	p := sdk.NewPlayer(func(v *view, legal []action, c *sdk.Context) (int, error) {
		got.view, got.legal = *v, legal
		got.game, got.seat, got.seats = c.Game(), c.Seat(), c.Seats()
		got.chain, got.plies = c.OptionBool("chain_capture"), c.OptionInt("max_plies")
		got.move, got.left, got.deadline, got.budget, got.received = c.MoveTime(), c.TimeLeft(), c.Deadline(), c.Budget(0.5), c.Received
		draws = append(draws, c.Rand.IntN(1000))
		c.Logf("thinking about %d actions", len(legal))
		return 2, nil
	})
	p.OnStart = func(c *sdk.Context) error {
		starts++
		if c.Turn != nil || c.Hello.GameID != "m-g0000" || c.Options()["max_plies"] != "2000" {
			return fmt.Errorf("start: turn %v, hello %+v", c.Turn, c.Hello)
		}
		return nil
	}
	p.OnEnd = func(e *protocol.End, c *sdk.Context) {
		ends++
		if e.Reason == "" || c.Turn != nil {
			t.Errorf("end %+v, turn %v", e, c.Turn)
		}
	}
	in := strings.Join([]string{hello1, turn1, end1, hello1, turn1, end1, `{"type":"bye"}`}, "\n") + "\n"
	var out bytes.Buffer
	before := time.Now()
	if err := sdk.Run(strings.NewReader(in), &out, p, sdk.Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	if want := "{\"type\":\"ready\"}\n{\"type\":\"action\",\"id\":1,\"index\":2}\n"; out.String() != want+want {
		t.Fatalf("output %q", out.String())
	}
	if starts != 2 || ends != 2 {
		t.Fatalf("%d starts, %d ends", starts, ends)
	}
	if got.view.A != 1 || len(got.legal) != 3 || got.legal[1] != (action{"flip", "b8"}) {
		t.Fatalf("decoded %+v %+v", got.view, got.legal)
	}
	if got.game != "banqi" || got.seat != 1 || got.seats != 2 || !got.chain || got.plies != 2000 {
		t.Fatalf("context %+v", got)
	}
	// The same hello twice: the same draws (seeded from hello, not the clock).
	if draws[0] != draws[1] {
		t.Fatalf("draws %v: Rand is not seeded from hello", draws)
	}
	// The deadline helper: move_ms from the turn's receipt.
	if got.move != 250*time.Millisecond || !got.deadline.Equal(got.received.Add(250*time.Millisecond)) {
		t.Fatalf("move %v, deadline %v, received %v", got.move, got.deadline, got.received)
	}
	if got.received.Before(before) || got.left <= 0 || got.left > 250*time.Millisecond {
		t.Fatalf("received %v (before %v), time left %v", got.received, before, got.left)
	}
	if !got.budget.Equal(got.received.Add(125 * time.Millisecond)) {
		t.Fatalf("Budget(0.5) %v, received %v", got.budget, got.received)
	}
	if strings.Count(log.String(), "thinking about 3 actions\n") != 2 {
		t.Fatalf("log %q", log.String())
	}
}

// The failures of a Player's code each give a log line and a legal move:
// an error, a panic, an index out of range, an action chosen by value that
// is not legal, a view that does not decode.
func TestPlayerFallbacks(t *testing.T) {
	type action struct {
		Type   string `json:"type"`
		Square string `json:"square"`
	}
	for _, tc := range []struct {
		name string
		bot  sdk.Bot
		want string
	}{
		{"error", sdk.NewPlayer(func(*json.RawMessage, []json.RawMessage, *sdk.Context) (int, error) {
			return 0, errors.New("no idea")
		}), "turn 1: no idea; playing legal["},
		{"panic", sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, _ *sdk.Context) (int, error) {
			return int(legal[99][0]), nil
		}), "turn 1: panic: runtime error: index out of range [99] with length 3; playing legal["},
		{"index", sdk.NewPlayer(func(*json.RawMessage, []json.RawMessage, *sdk.Context) (int, error) {
			return 3, nil
		}), "turn 1: index 3 out of range 0..2; playing legal["},
		{"choose", &sdk.Player[json.RawMessage, action]{Choose: func(*json.RawMessage, []action, *sdk.Context) (action, error) {
			return action{"flip", "d1"}, nil
		}}, "turn 1: chose {Type:flip Square:d1}, which is not one of the 3 legal actions; playing legal["},
		{"view", sdk.NewPlayer(func(*[]int, []json.RawMessage, *sdk.Context) (int, error) {
			return 0, nil
		}), "turn 1: decoding the view: json: cannot unmarshal object into Go value of type []int; playing legal["},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log, out bytes.Buffer
			var fallbacks []int64
			opt := sdk.Options{Name: "b", Log: &log, Fallback: func(id int64, err error) { fallbacks = append(fallbacks, id) }}
			in := hello1 + "\n" + turn1 + "\n" + strings.Replace(turn1, `"id":1`, `"id":2`, 1) + "\n"
			if err := sdk.Run(strings.NewReader(in), &out, tc.bot, opt); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != 3 {
				t.Fatalf("output %q", out.String())
			}
			for i, l := range lines[1:] {
				a, ok := protocol.DecodeIndexAction([]byte(l))
				if !ok || a.ID != int64(i+1) || *a.Index < 0 || *a.Index > 2 {
					t.Fatalf("reply %q: want a legal index for turn %d", l, i+1)
				}
			}
			if !strings.Contains(log.String(), "b: "+tc.want) {
				t.Fatalf("log %q\nwant %q", log.String(), tc.want)
			}
			if len(fallbacks) != 2 || fallbacks[0] != 1 || fallbacks[1] != 2 {
				t.Fatalf("Fallback called for %v", fallbacks)
			}
		})
	}
}

// Choose picks by value; the index it stands for is sent.
func TestPlayerChoose(t *testing.T) {
	type action struct {
		Type   string `json:"type"`
		Square string `json:"square"`
	}
	p := &sdk.Player[json.RawMessage, action]{Choose: func(_ *json.RawMessage, legal []action, _ *sdk.Context) (action, error) {
		return action{"flip", "c8"}, nil
	}}
	var out bytes.Buffer
	if err := sdk.Run(strings.NewReader(hello1+"\n"+turn1+"\n"), &out, p, sdk.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), `{"type":"action","id":1,"index":2}`+"\n") {
		t.Fatalf("output %q", out.String())
	}
}

// A refused game (an error OnStart returns) is an error line to the
// referee, and Run's error.
func TestPlayerRefuses(t *testing.T) {
	p := sdk.NewPlayer(func(*json.RawMessage, []json.RawMessage, *sdk.Context) (int, error) { return 0, nil })
	p.OnStart = func(c *sdk.Context) error {
		if c.Game() != "uno" {
			return fmt.Errorf("this bot only plays uno, not %q", c.Game())
		}
		return nil
	}
	var out bytes.Buffer
	err := sdk.Run(strings.NewReader(hello1+"\n"+turn1+"\n"), &out, p, sdk.Options{Log: io.Discard})
	if err == nil || !strings.Contains(err.Error(), `refused game m-g0000: this bot only plays uno, not "banqi"`) {
		t.Fatalf("error %v", err)
	}
	if want := `{"type":"error","message":"this bot only plays uno, not \"banqi\""}` + "\n"; out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
}

// A panic in OnStart is a bug, not a refusal: its stack goes to the log
// and the game is played (as a panic in Move falls back to a legal move).
func TestPlayerPanicInOnStartPlays(t *testing.T) {
	p := sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, _ *sdk.Context) (int, error) {
		return len(legal) - 1, nil
	})
	p.OnStart = func(*sdk.Context) error {
		panic("start broke")
	}
	var out, log bytes.Buffer
	if err := sdk.Run(strings.NewReader(hello1+"\n"+turn1+"\n"), &out, p, sdk.Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), `{"type":"ready"`) || !strings.HasSuffix(out.String(), `{"type":"action","id":1,"index":2}`+"\n") {
		t.Fatalf("output %q: want ready, then the move", out.String())
	}
	if !strings.Contains(log.String(), "panic: start broke") {
		t.Fatalf("log %q: want the panic", log.String())
	}
}

// The Bot methods of a Player work without Run, for a harness of one's own.
func TestPlayerAsBot(t *testing.T) {
	p := sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, c *sdk.Context) (int, error) {
		if c.Seat() != 1 || c.MoveTime() != 250*time.Millisecond {
			return 0, fmt.Errorf("context: seat %d, move %v", c.Seat(), c.MoveTime())
		}
		return len(legal) - 1, nil
	})
	var h protocol.Hello
	var turn protocol.Turn
	json.Unmarshal([]byte(hello1), &h)
	json.Unmarshal([]byte(turn1), &turn)
	if err := p.Start(&h); err != nil {
		t.Fatal(err)
	}
	if i, err := p.Act(&turn); i != 2 || err != nil {
		t.Fatalf("Act: %d, %v", i, err)
	}
	p.End(&protocol.End{})
}
