package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// With envBot set this test binary is a bot: the bundled greedy bot, or
// with "strict" one that refuses any hello carrying a field it does not
// know (a decoder with DisallowUnknownFields), or with "ownids" one that
// gives up unless each game's turn ids run 1, 2, 3, ... (the referee
// numbers a seat's own turns only), or with "noid" one that answers every
// turn without an id, or with "illegal" one that answers every turn with
// an index out of range.
const envBot = "ARENA_CHECK_PKG_BOT"

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // TestByeGraceForgivesWaitingForACPU confines its bot
	if mode := os.Getenv(envBot); mode != "" {
		os.Exit(pkgBot(mode))
	}
	os.Exit(m.Run())
}

// extraModes are bot modes that other test files add (a platform's own).
var extraModes = map[string]func() int{}

func pkgBot(mode string) int {
	if f, ok := extraModes[mode]; ok {
		return f()
	}
	if mode == "eof" || mode == "noid" || mode == "illegal" {
		// eof plays, but exits only at the end of its input; noid answers
		// every turn without an id; illegal with index 9999.
		lr := protocol.NewLineReader(os.Stdin, protocol.DefaultMaxLine)
		for {
			line, err := lr.ReadLine()
			if err != nil {
				return 0
			}
			switch t, _ := protocol.PeekType(line); {
			case t == protocol.TypeHello:
				fmt.Println(`{"type":"ready"}`)
			case t == protocol.TypeTurn && mode == "noid":
				fmt.Println(`{"type":"action","index":0}`)
			case t == protocol.TypeTurn:
				var tr protocol.Turn
				_ = json.Unmarshal(line, &tr)
				index := 0
				if mode == "illegal" {
					index = 9999
				}
				fmt.Printf("{\"type\":\"action\",\"id\":%d,\"index\":%d}\n", tr.ID, index)
			case t == protocol.TypeBye && mode != "eof":
				return 0
			}
		}
	}
	b, _ := bots.New("greedy")
	in := io.Reader(os.Stdin)
	if mode == "strict" || mode == "ownids" {
		refuse := func(msg string) {
			fmt.Printf("{\"type\":\"error\",\"message\":%q}\n", msg)
			os.Exit(1)
		}
		pr, pw := io.Pipe()
		go func() {
			lr := protocol.NewLineReader(os.Stdin, protocol.DefaultMaxLine)
			var turns int64
			for {
				line, err := lr.ReadLine()
				if err != nil {
					pw.Close()
					return
				}
				switch t, _ := protocol.PeekType(line); {
				case t == protocol.TypeHello && mode == "strict":
					// Refuse a hello with a field protocol.Hello does not have.
					dec := json.NewDecoder(bytes.NewReader(line))
					dec.DisallowUnknownFields()
					var h protocol.Hello
					if err := dec.Decode(&h); err != nil {
						refuse(err.Error())
					}
				case t == protocol.TypeHello:
					turns = 0
				case t == protocol.TypeTurn && mode == "ownids":
					var tr protocol.Turn
					if err := json.Unmarshal(line, &tr); err != nil {
						refuse(err.Error())
					}
					if turns++; tr.ID != turns {
						refuse(fmt.Sprintf("turn %d of this game has id %d", turns, tr.ID))
					}
				}
				pw.Write(append(line, '\n'))
			}
		}()
		in = pr
	}
	if err := sdk.Run(in, os.Stdout, b, sdk.Options{Name: mode}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func config(t *testing.T, game string, seats int, mode string) Config {
	t.Helper()
	g, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := engine.Setup(g, seats, nil)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		// GORACE: under -race a Go program sleeps 1s at exit by default,
		// the whole grace a bot has after bye.
		Game: g, Options: opts, Seats: seats, Command: []string{self},
		Bot:   stdio.Command{Argv: []string{self}, Env: []string{envBot + "=" + mode, "GORACE=atexit_sleep_ms=0"}},
		Games: seats + 1, Seed: 3, Startup: 5 * time.Second, Move: time.Second, Margin: 50 * time.Millisecond,
	}
}

// TestMultiSeat: in games with more seats the bot plays one seat, a
// different one each game, and the checker all the others.
func TestMultiSeat(t *testing.T) {
	t.Parallel()
	for _, game := range []struct {
		name  string
		seats int
	}{{"uno", 3}, {"boon", 4}} {
		t.Run(game.name, func(t *testing.T) {
			t.Parallel()
			rep, err := Run(config(t, game.name, game.seats, "greedy"))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK || rep.Passed != len(Checks) || rep.GamesPlayed != game.seats+1 || rep.Think == nil {
				t.Fatalf("report: %+v", rep)
			}
			if rep.Bot == nil || rep.Bot.Name != "greedy" {
				t.Errorf("ready name not reported: %+v", rep.Bot)
			}
		})
	}
}

// TestOwnTurnIDs: the checker numbers turns as the referee does, each
// seat's own from 1 in every game, whichever seat the bot plays.
func TestOwnTurnIDs(t *testing.T) {
	t.Parallel()
	for _, game := range []struct {
		name  string
		seats int
	}{{"banqi", 2}, {"uno", 3}, {"boon", 4}} {
		t.Run(game.name, func(t *testing.T) {
			t.Parallel()
			rep, err := Run(config(t, game.name, game.seats, "ownids"))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK || rep.GamesPlayed != game.seats+1 {
				t.Fatalf("a bot that expects its own turn ids 1, 2, 3, ... fails the check: %+v", rep.Checks)
			}
		})
	}
}

// TestUnknownFieldsBlamed: the strict bot only fails because of the
// unknown fields, which the plain probe proves.
func TestUnknownFieldsBlamed(t *testing.T) {
	t.Parallel()
	rep, err := Run(config(t, "banqi", 2, "strict"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, r := range rep.Checks {
		got[r.Name] = r.Status
	}
	if got[CheckReady] != Fail || got[CheckUnknownFields] != Fail || got[CheckProtocolVersion] != Pass || rep.Failed != 2 {
		t.Fatalf("checks: %+v", rep.Checks)
	}
}

func TestStartFailure(t *testing.T) {
	t.Parallel()
	cfg := config(t, "banqi", 2, "greedy")
	cfg.Command = []string{"/nonexistent/bot"}
	cfg.Bot = stdio.Command{Argv: cfg.Command}
	rep, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Checks[0].Name != CheckStart || rep.Checks[0].Status != Fail || rep.Failed != 1 || rep.Skipped != len(Checks)-1 {
		t.Fatalf("checks: %+v", rep.Checks)
	}
}

func TestAddField(t *testing.T) {
	for in, want := range map[string]string{
		`{}`:          `{"x":1}`,
		` { } `:       `{ "x":1}`,
		`{"a":2}`:     `{"a":2,"x":1}`,
		`{"a":{}}`:    `{"a":{},"x":1}`,
		`[1]`:         `[1]`,
		`"not a map"`: `"not a map"`,
	} {
		if got := string(addField([]byte(in), `"x":1`)); got != want {
			t.Errorf("addField(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestRecorder(t *testing.T) {
	r := newRecorder()
	r.pass(CheckIDs, "fine")
	r.skip(CheckIDs, "ignored: already judged")
	r.fail(CheckLegal, "first %d", 1)
	r.fail(CheckLegal, "second")
	r.pass(CheckLegal, "ignored: failed")
	r.warn(CheckProtocolVersion, "hmm")
	cases := []struct {
		name   string
		strict bool
		want   Status
		detail string
	}{
		{CheckIDs, false, Pass, "fine"},
		{CheckLegal, false, Fail, "first 1 (and 1 more)"},
		{CheckProtocolVersion, false, Warn, "hmm"},
		{CheckProtocolVersion, true, Fail, "hmm (--strict)"},
		{CheckBye, false, Skip, "not reached"},
	}
	for _, c := range cases {
		if got := r.result(c.name, c.strict); got.Status != c.want || got.Detail != c.detail {
			t.Errorf("%s strict=%v: %+v, want %s %q", c.name, c.strict, got, c.want, c.detail)
		}
	}
}

func TestGroupMembers(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	pgid, err := syscall.Getpgid(0)
	if err != nil {
		t.Skip(err)
	}
	me := fmt.Sprintf("%d (", os.Getpid())
	found := false
	for _, m := range groupMembers(pgid) {
		found = found || strings.HasPrefix(m, me)
	}
	if !found {
		t.Fatalf("this process is not listed in its own group %d: %v", pgid, groupMembers(pgid))
	}
}

func TestTiming(t *testing.T) {
	tm := timing([]time.Duration{3 * time.Millisecond, time.Millisecond, 2 * time.Millisecond})
	if tm.Count != 3 || tm.Min != 1 || tm.Median != 2 || tm.Max != 3 {
		t.Fatalf("%+v", tm)
	}
	if timing(nil) != nil {
		t.Fatal("timing of nothing")
	}
}

// TestProgress: the session reports the start of every game and of every
// later stage, and, with a ProgressEvery shorter than any turn's round
// trip, every turn sent.
func TestProgress(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode   string
		stages []Stage // in order, repeats collapsed
		games  int     // game starts reported
	}{
		{"greedy", []Stage{StageGame, StageBye, StageVersion}, 3},
		{"noid", []Stage{StageGame, StageProbe, StageVersion}, 1},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			cfg := config(t, "banqi", 2, tc.mode)
			var got []Progress
			cfg.Progress = func(p Progress) { got = append(got, p) }
			cfg.ProgressEvery = time.Nanosecond
			rep, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var stages []Stage
			starts, turns := 0, 0
			for i, p := range got {
				if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
					stages = append(stages, p.Stage)
				}
				if p.Games != cfg.Games {
					t.Errorf("report %d: %+v, want %d games", i, p, cfg.Games)
				}
				switch {
				case p.Stage == StageGame && p.Turn == 0:
					starts++
					if p.Game != starts || p.Seat != (starts-1)%2 {
						t.Errorf("report %d: %+v, want game %d starting", i, p, starts)
					}
				case p.Stage == StageGame:
					turns++
					if p.Turns != turns {
						t.Errorf("report %d: %+v, want turn %d of the session", i, p, turns)
					}
				}
			}
			if !slices.Equal(stages, tc.stages) || starts != tc.games || turns != rep.Turns {
				t.Fatalf("stages %v, %d game starts, %d turns reported of %d; want %v, %d, all", stages, starts, turns, rep.Turns, tc.stages, tc.games)
			}
		})
	}
}

// TestStopsAtProtocolError: a bot that answers without an id is stopped
// at its first answer, with the transcript and the hint.
func TestStopsAtProtocolError(t *testing.T) {
	t.Parallel()
	rep, err := Run(config(t, "banqi", 2, "noid"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Failed != 1 || rep.Turns != 1 || rep.GamesPlayed != 0 || rep.Stopped != "game 1 turn 1" {
		t.Fatalf("report: %+v", rep)
	}
	for _, r := range rep.Checks {
		if r.Name != CheckIDs {
			continue
		}
		want := []string{"R> {\"type\":\"turn\",\"id\":1,", `B> {"type":"action","index":0}`}
		n := len(r.Transcript)
		if r.Status != Fail || r.Hint != `echo the turn's id in every answer: {"type":"action","id":1,"index":0}` ||
			n < 2 || !strings.HasPrefix(r.Transcript[n-2], want[0]) || r.Transcript[n-1] != want[1] {
			t.Fatalf("%+v", r)
		}
	}
}

func TestAnswerProblem(t *testing.T) {
	g, err := engine.Lookup("banqi")
	if err != nil {
		t.Fatal(err)
	}
	s := &session{cfg: &Config{Game: g}}
	legalJSON := []json.RawMessage{[]byte(`{"type":"flip","square":"a8"}`), []byte(`{"type":"flip","square":"b8"}`)}
	cases := []struct {
		line, check, hint, detail string
	}{
		{"hello world", CheckReplyFormat, `one JSON object on one line, such as {"type":"action","id":7,"index":0}`, "not a JSON object (invalid character 'h'"},
		{"", CheckReplyFormat, "one JSON object on one line", "not a JSON object (unexpected end of JSON input)"},
		{"[1]", CheckReplyFormat, "one JSON object on one line", "not a JSON object"},
		{"{\"type\":\"action\",\"id\":7,\"index\":0,\"x\":\"\xff\"}", CheckReplyFormat, "UTF-8 only", "not valid UTF-8"},
		{`{"type":"action","id":"7","index":0}`, CheckReplyFormat, `"id" and "index" are integers`, "wrong type"},
		{`{"type":"action","id":7,"index":1.0}`, CheckReplyFormat, `"id" and "index" are integers`, "wrong type"},
		{`{"type":"error","message":"no idea"}`, CheckReplyFormat, "send an error only to give up", "the bot sent an error: no idea"},
		{`{"type":"move","id":7,"index":1}`, CheckReplyFormat, `type "action": {"type":"action","id":7,"index":1}`, `got type "move"`},
		{`{"id":7,"index":1}`, CheckReplyFormat, `type "action"`, `got no "type"`},
		{`{"type":"flip","square":"b8"}`, CheckReplyFormat,
			`{"type":"action","id":7,"action":{"type":"flip","square":"b8"}}, or, simpler, give its position in "legal": {"type":"action","id":7,"index":1}`,
			"a bare banqi action instead of an action message"},
		{`{"square":"d1","type":"flip"}`, CheckReplyFormat, `{"type":"action","id":7,"action":{"type":"flip","square":"d1"}}`, "a bare banqi action"},
		{`{"type":"action","index":1}`, CheckIDs, `echo the turn's id in every answer: {"type":"action","id":7,"index":1}`, `no "id" (expected 7)`},
		{`{"type":"action","id":6,"index":5}`, CheckIDs, `never compute it) and answer each turn once: {"type":"action","id":7,"index":0}`, "answer id 6, expected 7"},
	}
	for _, c := range cases {
		_, f := referee.JudgeReply(g, []byte(c.line), 7, legalJSON)
		check, hint, detail := s.answerProblem(*f, legalJSON)
		if check != c.check || !strings.Contains(hint, c.hint) || !strings.Contains(detail, c.detail) {
			t.Errorf("%q: %s, hint %q, detail %q; want %s, %q, %q", c.line, check, hint, detail, c.check, c.hint, c.detail)
		}
	}
}

func TestTranscriptLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"ok":1}`, `{"ok":1}`},
		{"0123456789", "0123456789"},
		{"0123456789abc", "0123456789... (13 bytes)"},
		{"012345678\u00e9abc", "012345678... (14 bytes)"}, // not within the é
		{"tab\there", `"tab\there"`},
		{"\xff", `"\xff"`},
		{"", ""},
	}
	for _, c := range cases {
		if got := transcriptLine([]byte(c.in), 10); got != c.want {
			t.Errorf("transcriptLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestProgressString(t *testing.T) {
	cases := []struct {
		p    Progress
		want string
	}{
		{Progress{Stage: StageGame, Game: 1, Games: 2, Seat: 0}, "game 1/2 (seat 0): starting"},
		{Progress{Stage: StageGame, Game: 2, Games: 4, Seat: 1, Turn: 37, Turns: 150}, "game 2/4 (seat 1): turn 37 (150 turns in all)"},
		{Progress{Stage: StageProbe}, "unknown-fields: replaying the start in a fresh process without unknown fields"},
		{Progress{Stage: StageBye, Games: 2, Turns: 219}, "bye: sent after 2 games and 219 turns, waiting for the exit"},
		{Progress{Stage: StageVersion}, "protocol-version: offering a fresh process protocol 2"},
	}
	for _, c := range cases {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// TestByeAtEndOfInput: a bot that exits only once its stdin is closed
// (which a match does just after bye) is warned, not failed; one that
// exits on reading bye passes.
func TestByeAtEndOfInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode   string
		want   Status
		detail string
	}{
		{"eof", Warn, "after its stdin was closed"},
		{"greedy", Pass, "within"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			rep, err := Run(config(t, "banqi", 2, tc.mode))
			if err != nil {
				t.Fatal(err)
			}
			judged := false
			for _, c := range rep.Checks {
				if c.Name == CheckBye {
					judged = true
					if c.Status != tc.want || !strings.Contains(c.Detail, tc.detail) {
						t.Fatalf("bye: %s %q, want %s naming %q", c.Status, c.Detail, tc.want, tc.detail)
					}
				}
			}
			if !judged {
				t.Fatalf("no bye check in %+v", rep.Checks)
			}
			if !rep.OK {
				t.Fatalf("not compliant: %+v", rep.Checks)
			}
		})
	}
}
