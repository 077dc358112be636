package referee_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/proctest"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// Limits for tests whose bots fail without the clock's help: generous, so
// a loaded machine cannot turn them into timeouts.
var relaxed = clock.Limits{Startup: 20 * time.Second, Move: 10 * time.Second, Margin: 50 * time.Millisecond}

// Limits for tests about the clock itself.
var tight = clock.Limits{Startup: 10 * time.Second, Move: 100 * time.Millisecond, Margin: 20 * time.Millisecond}

type setup struct {
	limits     clock.Limits
	policy     referee.Policy
	maxStrikes int
	maxLine    int
	stderrCap  int64
	seed       uint64
	maxPlies   int          // banqi max_plies option (default 200)
	env        []string     // extra environment for both bots
	stderr     [2]io.Writer // per-seat stderr log during the game
	// conn, if set, is the Conn the referee plays seat's process through.
	conn func(seat int, p *transport.Process) transport.Conn
}

type played struct {
	res     *referee.Result
	replay  *replays.Replay
	procs   [2]*transport.Process
	elapsed time.Duration
}

var tokenSeq atomic.Int64

// newToken returns a token unique to this test process; every bot started
// with it carries it in its environment, and so do its children.
func newToken() string {
	return fmt.Sprintf("t%d-%d", os.Getpid(), tokenSeq.Add(1))
}

// survivors lists the live processes whose environment holds token.
// Zombies have an empty environ and are not listed.
func survivors(token string) []int { return proctest.WithEnv(envToken + "=" + token) }

// checkNoSurvivors waits (bounded, polling /proc every 10ms for up to 5s)
// until no process carrying token is alive.
func checkNoSurvivors(t *testing.T, token string) {
	t.Helper()
	var left []int
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(10 * time.Millisecond) {
		if left = survivors(token); len(left) == 0 {
			return
		}
	}
	for _, pid := range left {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		t.Errorf("bot process survived the test: %s", stat)
	}
}

// startBot starts a helper bot; cleanup closes it and checks that it (and
// anything it started) is gone.
func startBot(t *testing.T, token, mode string, s setup) *transport.Process {
	t.Helper()
	// GORACE: a race-enabled helper would otherwise sleep 1s at exit.
	env := append(os.Environ(), envBot+"="+mode, envToken+"="+token, "GORACE=atexit_sleep_ms=0")
	env = append(env, s.env...)
	p, err := transport.Start(transport.ProcessConfig{
		Argv: []string{os.Args[0]}, Env: env, MaxLine: s.maxLine, StderrCap: s.stderrCap,
	})
	if err != nil {
		t.Fatalf("starting bot %s: %v", mode, err)
	}
	t.Cleanup(func() {
		p.Close()
		select {
		case <-p.Exited():
		default:
			t.Errorf("bot %s (pid %d) not reaped after Close", mode, p.Pid())
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.Pid())); err == nil {
			stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid()))
			t.Errorf("bot %s still in the process table after Close: %s", mode, stat)
		}
	})
	return p
}

func banqi(t *testing.T) engine.Game {
	g, err := engine.Lookup("banqi")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// play runs one game of Banqi between two helper bots, records the replay
// to disk, reads it back and verifies it.
func play(t *testing.T, s setup, modes [2]string) *played {
	t.Helper()
	token := newToken()
	t.Cleanup(func() { checkNoSurvivors(t, token) }) // runs after the Close cleanups
	var procs [2]*transport.Process
	for i, m := range modes {
		procs[i] = startBot(t, token, m, s)
	}
	return playWith(t, s, procs, modes)
}

// playWith is play with bots already started.
func playWith(t *testing.T, s setup, procs [2]*transport.Process, modes [2]string) *played {
	t.Helper()
	g := banqi(t)
	if s.maxPlies == 0 {
		s.maxPlies = 200
	}
	if s.seed == 0 {
		s.seed = 42
	}
	opts, err := engine.Setup(g, 2, map[string]string{"max_plies": strconv.Itoa(s.maxPlies)})
	if err != nil {
		t.Fatal(err)
	}
	pl := &played{procs: procs}
	players := make([]referee.Player, 2)
	seats := make([]replays.SeatInfo, 2)
	for i, m := range modes {
		if s.stderr[i] != nil {
			pl.procs[i].SetStderr(s.stderr[i])
		}
		players[i] = referee.Player{Name: m, Conn: pl.procs[i]}
		if s.conn != nil {
			players[i].Conn = s.conn(i, pl.procs[i])
		}
		seats[i] = replays.SeatInfo{Seat: i, Bot: m}
	}
	rec := replays.NewRecorder(replays.Header{
		Arena: "test", Game: "banqi", Options: opts, Seed: s.seed, Match: "m", GameID: t.Name(),
		Seats: seats, Clock: s.limits.Protocol(), Started: time.Now().UTC(),
	})
	start := time.Now()
	res, err := referee.Play(context.Background(), referee.Config{
		Game: g, Options: opts, Seed: s.seed, Match: "m", GameID: t.Name(),
		Limits: s.limits, Policy: s.policy, MaxStrikes: s.maxStrikes, Recorder: rec,
	}, players)
	pl.elapsed = time.Since(start)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	for i := range pl.procs {
		if s.stderr[i] != nil {
			pl.procs[i].SetStderr(nil)
		}
	}
	pl.res = res
	rec.Finish(replays.ResultOf(res.Outcome))
	path := filepath.Join(t.TempDir(), "game"+replays.Ext)
	if err := rec.WriteFile(path); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	rp, err := replays.ReadFile(path)
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	if err := replays.Verify(rp); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	pl.replay = rp
	if !reflect.DeepEqual(rp.Result.Ranks, res.Outcome.Ranks) || rp.Result.Plies != res.Plies {
		t.Fatalf("replay result %+v, referee result %+v (plies %d)", rp.Result, res.Outcome, res.Plies)
	}
	return pl
}

// wantForfeit checks that seat forfeited once, for reason, with detail in
// the failure's detail, and that the other seat won.
func wantForfeit(t *testing.T, pl *played, seat int, reason protocol.Reason, detail string) {
	t.Helper()
	res := pl.res
	if len(res.Forfeits) != 1 {
		t.Fatalf("forfeits %+v, want exactly one by seat %d", res.Forfeits, seat)
	}
	f := res.Forfeits[0]
	t.Logf("forfeit: seat %d ply %d %s: %s", f.Seat, f.Ply, f.Reason, f.Detail)
	if f.Seat != seat || f.Reason != reason {
		t.Errorf("forfeit by seat %d for %q, want seat %d for %q (detail %q)", f.Seat, f.Reason, seat, reason, f.Detail)
	}
	if !strings.Contains(f.Detail, detail) {
		t.Errorf("forfeit detail %q does not contain %q", f.Detail, detail)
	}
	want := []int{1, 1}
	want[seat] = 2
	if !reflect.DeepEqual(res.Outcome.Ranks, want) {
		t.Errorf("ranks %v, want %v (the other seat wins)", res.Outcome.Ranks, want)
	}
	if !res.Failed[seat] || res.Failed[1-seat] {
		t.Errorf("failed %v, want only seat %d", res.Failed, seat)
	}
	if len(res.Strikes) != 0 {
		t.Errorf("strikes %+v under the forfeit policy", res.Strikes)
	}
	var lines []protocol.Failure
	for _, e := range pl.replay.Events {
		if e.Forfeit != nil {
			lines = append(lines, *e.Forfeit)
		}
	}
	if len(lines) != 1 || lines[0].Seat != seat || lines[0].Reason != reason || lines[0].Ply != f.Ply {
		t.Errorf("replay forfeit lines %+v, want one for seat %d %s at ply %d", lines, seat, reason, f.Ply)
	}
	if got := pl.replay.Result.Forfeits; len(got) != 1 || got[0].Seat != seat {
		t.Errorf("replay result forfeits %+v", got)
	}
}

// wantPly checks the forfeit happened at the bot's nth turn.
func wantPly(t *testing.T, pl *played, seat, turn int) {
	t.Helper()
	if got, want := pl.res.Forfeits[0].Ply, 2*(turn-1)+seat; got != want {
		t.Errorf("forfeit at ply %d, want %d (turn %d of seat %d)", got, want, turn, seat)
	}
}

func TestWellBehavedGame(t *testing.T) {
	t.Parallel()
	pl := play(t, setup{limits: relaxed}, [2]string{"random", "random"})
	res := pl.res
	if len(res.Forfeits) != 0 || len(res.Strikes) != 0 || res.Failed[0] || res.Failed[1] {
		t.Fatalf("a clean game has failures: %+v", res)
	}
	if res.Plies == 0 || len(res.Think[0])+len(res.Think[1]) != res.Plies {
		t.Errorf("plies %d, think times %d+%d", res.Plies, len(res.Think[0]), len(res.Think[1]))
	}
	for _, e := range pl.replay.Events {
		if e.Move == nil || e.Move.By != "" {
			t.Fatalf("unexpected event in a clean game: %+v", e)
		}
	}
	t.Logf("%d plies in %v: %s %v", res.Plies, pl.elapsed, res.Outcome.Reason, res.Outcome.Ranks)
}

// TestFailures covers every way a bot can fail that does not depend on
// the clock: one game each, the failing bot in alternating seats.
func TestFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode    string
		maxLine int
		reason  protocol.Reason
		detail  string
		turn    int // the bot's turn it failed at (0: during startup)
	}{
		{mode: "exit-now", reason: protocol.ReasonCrash, detail: "connection closed"},
		{mode: "hello-error", reason: protocol.ReasonBadMessage, detail: "unsupported protocol"},
		{mode: "index9999", reason: protocol.ReasonIllegalAction, detail: "index 9999 out of range", turn: 1},
		{mode: "illegal-object", reason: protocol.ReasonIllegalAction, detail: "is not a legal action", turn: 1},
		{mode: "unreadable-object", reason: protocol.ReasonIllegalAction, detail: "unreadable action", turn: 1},
		{mode: "no-choice", reason: protocol.ReasonBadMessage, detail: `neither "action" nor "index"`, turn: 1},
		{mode: "garbage", reason: protocol.ReasonBadMessage, detail: `not a JSON object (invalid character 'h' looking for beginning of value): "hello world"`, turn: 1},
		{mode: "wrong-id", reason: protocol.ReasonBadMessage, detail: "reply id", turn: 1},
		{mode: "bad-utf8", reason: protocol.ReasonBadMessage, detail: "not valid UTF-8", turn: 1},
		{mode: "oversize", maxLine: 1024, reason: protocol.ReasonBadMessage, detail: "line too long", turn: 1},
		{mode: "nested", reason: protocol.ReasonBadMessage, detail: "exceeded max depth", turn: 1},
		{mode: "crash", reason: protocol.ReasonCrash, detail: "stdout closed", turn: 3},
		{mode: "close-stdout", reason: protocol.ReasonCrash, detail: "process still running", turn: 3},
		// The second copy of the first answer is read at the next turn,
		// where its id is stale.
		{mode: "duplicate", reason: protocol.ReasonBadMessage, detail: "reply id", turn: 2},
	}
	for i, tc := range cases {
		seat := i % 2
		t.Run(fmt.Sprintf("%s/seat%d", tc.mode, seat), func(t *testing.T) {
			t.Parallel()
			modes := [2]string{"random", "random"}
			modes[seat] = tc.mode
			pl := play(t, setup{limits: relaxed, maxLine: tc.maxLine}, modes)
			wantForfeit(t, pl, seat, tc.reason, tc.detail)
			if tc.turn > 0 {
				wantPly(t, pl, seat, tc.turn)
			} else if pl.res.Plies != 0 {
				t.Errorf("startup failure, yet %d plies were played", pl.res.Plies)
			}
		})
	}
}

// TestClockFailures are the failures the clock detects. They run one at a
// time, before the parallel tests, so their short limits are not eaten by
// other tests' load.
func TestClockFailures(t *testing.T) {
	startup := clock.Limits{Startup: 300 * time.Millisecond, Move: time.Second, Margin: 20 * time.Millisecond}
	cases := []struct {
		mode   string
		limits clock.Limits
		reason protocol.Reason
		detail string
		turn   int
		max    time.Duration // the game must not take longer
	}{
		{mode: "silent-hello", limits: startup, reason: protocol.ReasonStartup, detail: "waiting for ready: timed out", max: 5 * time.Second},
		{mode: "no-read", limits: startup, reason: protocol.ReasonStartup, detail: "waiting for ready: timed out", max: 5 * time.Second},
		// An unconfined bot is not metered: the detail says so, rather
		// than that it ran and waited 0s.
		{mode: "timeout:3", limits: tight, reason: protocol.ReasonTimeout, detail: "no reply within 100ms (+20ms margin): its CPU use could not be read", turn: 3, max: 5 * time.Second},
		{mode: "half-line", limits: tight, reason: protocol.ReasonTimeout, detail: "no reply within 100ms", turn: 1, max: 5 * time.Second},
	}
	for i, tc := range cases {
		seat := (i + 1) % 2
		t.Run(fmt.Sprintf("%s/seat%d", tc.mode, seat), func(t *testing.T) {
			modes := [2]string{"random", "random"}
			modes[seat] = tc.mode
			pl := play(t, setup{limits: tc.limits}, modes)
			wantForfeit(t, pl, seat, tc.reason, tc.detail)
			if tc.turn > 0 {
				wantPly(t, pl, seat, tc.turn)
			}
			if pl.elapsed > tc.max {
				t.Errorf("the game took %v", pl.elapsed)
			}
		})
	}
}

// TestRandomPolicy: under the random policy a bot that times out gets a
// strike and a referee move; its late answer is skipped when it arrives;
// it forfeits only at MaxStrikes.
func TestRandomPolicy(t *testing.T) {
	for _, tc := range []struct {
		skips   int // the bot skips its turns 2, 4, ... 2*skips
		forfeit bool
	}{{skips: 2}, {skips: 3, forfeit: true}} {
		t.Run(fmt.Sprintf("skips%d", tc.skips), func(t *testing.T) {
			const seat = 1
			// 40 plies under a 200ms limit: the opponent's own (rare, load
			// induced) timeouts would be strikes of seat 0; only seat 1's
			// are checked.
			limits := clock.Limits{Startup: 10 * time.Second, Move: 200 * time.Millisecond, Margin: 30 * time.Millisecond}
			pl := play(t, setup{limits: limits, policy: referee.Random, maxStrikes: 3, maxPlies: 40},
				[2]string{"random", fmt.Sprintf("late:%d", tc.skips)})
			res := pl.res
			var strikes []referee.Failure
			for _, s := range res.Strikes {
				if s.Seat == seat {
					strikes = append(strikes, s)
				} else {
					t.Logf("the well-behaved seat was struck (machine under load?): %+v", s)
				}
			}
			if len(strikes) != tc.skips {
				t.Fatalf("strikes %+v, want %d for seat %d", res.Strikes, tc.skips, seat)
			}
			for k, s := range strikes {
				// Turn 2(k+1) of seat 1 is ply 2*(2(k+1)-1)+1.
				if s.Seat != seat || s.Reason != protocol.ReasonTimeout || s.Ply != 4*k+3 {
					t.Errorf("strike %d: %+v, want seat %d timeout at ply %d", k, s, seat, 4*k+3)
				}
			}
			// Strikes at plies 3, 7, 11: the bot's own answers at its odd
			// turns (plies 1, 5, 9) were read past the stale late answers.
			refereeMoves := map[int]bool{}
			strikeLines := 0
			for _, e := range pl.replay.Events {
				switch {
				case e.Strike != nil && e.Strike.Seat == seat:
					strikeLines++
				case e.Move != nil && e.Move.By == replays.ByReferee && e.Move.Seat == seat:
					refereeMoves[e.Move.Ply] = true
				}
			}
			if strikeLines != tc.skips {
				t.Errorf("%d strike lines in the replay, want %d", strikeLines, tc.skips)
			}
			wantRef := map[int]bool{}
			for k := range tc.skips {
				if !tc.forfeit || k < tc.skips-1 {
					wantRef[4*k+3] = true
				}
			}
			if !reflect.DeepEqual(refereeMoves, wantRef) {
				t.Errorf("referee moves at plies %v, want %v", refereeMoves, wantRef)
			}
			if !tc.forfeit {
				if len(res.Forfeits) != 0 {
					t.Fatalf("forfeit before MaxStrikes: %+v", res.Forfeits)
				}
				if res.Plies != 40 {
					t.Errorf("game stopped at ply %d, want the max_plies limit 40", res.Plies)
				}
				return
			}
			wantForfeit2(t, pl, seat, protocol.ReasonTimeout, "3 strikes, last: no reply within")
			if f := res.Forfeits[0]; f.Ply != strikes[2].Ply {
				t.Errorf("forfeit at ply %d, third strike at %d", f.Ply, strikes[2].Ply)
			}
		})
	}
}

// TestRefereeMoveThinkTime: replays.Move documents think_us of a referee
// move as "the time spent before the referee stepped in"; after a timeout
// that is at least the move limit.
func TestRefereeMoveThinkTime(t *testing.T) {
	pl := play(t, setup{limits: tight, policy: referee.Random, maxStrikes: 3, maxPlies: 10},
		[2]string{"random", "late:1"})
	found := false
	for _, e := range pl.replay.Events {
		if m := e.Move; m != nil && m.By == replays.ByReferee && m.Seat == 1 {
			found = true
			if m.Think() < tight.Move {
				t.Errorf("referee move at ply %d after a timeout records think_us %d, want the %v the bot was given", m.Ply, m.ThinkUs, tight.Move)
			}
		}
	}
	if !found {
		t.Fatal("no referee move for the late bot")
	}
}

// TestRandomPolicyOversize: under the random policy an oversize reply is a
// bad_message (a strike, or a forfeit since the stream is out of step);
// the bot did not crash, so it must never be recorded as a crash.
func TestRandomPolicyOversize(t *testing.T) {
	t.Parallel()
	pl := play(t, setup{limits: relaxed, policy: referee.Random, maxStrikes: 3, maxLine: 1024, maxPlies: 40},
		[2]string{"oversize", "random"})
	res := pl.res
	all := append(append([]referee.Failure(nil), res.Strikes...), res.Forfeits...)
	if len(all) == 0 || all[0].Seat != 0 || all[0].Ply != 0 || all[0].Reason != protocol.ReasonBadMessage {
		t.Fatalf("strikes %+v, forfeits %+v: want seat 0's bad_message at ply 0 first", res.Strikes, res.Forfeits)
	}
	for _, f := range all {
		if f.Reason != protocol.ReasonBadMessage {
			t.Errorf("seat %d recorded %s at ply %d (%s), but the bot only sent one oversize line and never crashed",
				f.Seat, f.Reason, f.Ply, f.Detail)
		}
	}
	t.Logf("strikes %+v, forfeits %+v", res.Strikes, res.Forfeits)
}

// wantForfeit2 is wantForfeit for the random policy, where strikes precede
// the forfeit.
func wantForfeit2(t *testing.T, pl *played, seat int, reason protocol.Reason, detail string) {
	t.Helper()
	strikes := pl.res.Strikes
	pl.res.Strikes = nil
	defer func() { pl.res.Strikes = strikes }()
	wantForfeit(t, pl, seat, reason, detail)
}

// TestStderrFlood: a bot writing 20 MiB to stderr while it plays neither
// stalls the game nor fills the disk: its log stops at StderrCap.
func TestStderrFlood(t *testing.T) {
	t.Parallel()
	const capBytes = 64 << 10
	logPath := filepath.Join(t.TempDir(), "seat0.stderr.log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	pl := play(t, setup{limits: relaxed, stderrCap: capBytes, stderr: [2]io.Writer{f}}, [2]string{"stderr-flood", "random"})
	f.Close()
	if len(pl.res.Forfeits) != 0 || pl.res.Failed[0] || pl.res.Failed[1] {
		t.Fatalf("flooding bot failed: %+v", pl.res)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	marker := fmt.Sprintf("\n[arena: stderr truncated at %d bytes]\n", capBytes)
	if len(b) != capBytes+len(marker) || !strings.HasSuffix(string(b), marker) {
		t.Fatalf("log is %d bytes ending %q, want %d bytes of stderr plus the marker", len(b), b[max(0, len(b)-80):], capBytes)
	}
	if strings.Trim(string(b[:capBytes]), "x\n") != "" {
		t.Errorf("log does not start with the bot's stderr")
	}
	t.Logf("%d plies in %v with a 20 MiB stderr flood", pl.res.Plies, pl.elapsed)
}

// TestProcessGroupKill: a bot that forked a child is killed with it, both
// when it misbehaves (referee closes it) and when it exits by itself
// leaving its child running.
func TestProcessGroupKill(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode   string
		reason protocol.Reason
	}{{"fork-garbage", protocol.ReasonBadMessage}, {"fork-exit", protocol.ReasonCrash}} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			var pl *played
			t.Run("game", func(t *testing.T) {
				pl = play(t, setup{limits: relaxed, env: []string{envChildPid + "=" + pidFile}}, [2]string{tc.mode, "random"})
				wantForfeit(t, pl, 0, tc.reason, "")
			}) // cleanups ran: bots closed, no live survivor
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatalf("the bot did not record its child: %v", err)
			}
			child, _ := strconv.Atoi(string(b))
			waitChildKilled(t, child)
		})
	}
}

// waitChildKilled waits (bounded poll, 10ms steps, 5s) until pid is gone.
// Because the test process is a child subreaper, an orphaned grandchild is
// re-parented here and reaped with its wait status, which must say it was
// killed by SIGKILL. A zombie that stays is reported, not accepted.
func waitChildKilled(t *testing.T, pid int) {
	t.Helper()
	statPath := fmt.Sprintf("/proc/%d/stat", pid)
	var last string
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(10 * time.Millisecond) {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if got == pid {
			t.Logf("reaped grandchild %d: %v", pid, ws)
			if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Errorf("grandchild %d ended with %v, want killed by SIGKILL", pid, ws)
			}
			return
		}
		if err != nil && !errors.Is(err, syscall.ECHILD) {
			t.Fatalf("wait4 %d: %v", pid, err)
		}
		stat, err := os.ReadFile(statPath)
		if err != nil {
			return // gone: reaped by someone
		}
		last = string(stat)
	}
	fields := strings.Fields(last[strings.LastIndexByte(last, ')')+1:])
	if len(fields) >= 2 && fields[0] == "Z" {
		t.Fatalf("grandchild %d is dead but was not reaped within 5s (zombie, parent %s, PID 1 is %q): %s; "+
			"the kill worked, the reaping did not (is this process its subreaper?)", pid, fields[1], comm(1), last)
	}
	proctest.Hold(pid, "", envBot+"=sleeper").Kill() // do not leave it running for 300s
	t.Fatalf("grandchild %d survived Close: %s", pid, last)
}

func comm(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(b))
}

// TestHello checks what a bot is told at hello.
func TestHello(t *testing.T) {
	t.Parallel()
	helloFile := filepath.Join(t.TempDir(), "hello")
	limits := clock.Limits{Move: 5 * time.Second, Margin: 50 * time.Millisecond} // Startup left at its default
	pl := play(t, setup{limits: limits, seed: 7, env: []string{envHello + "=" + helloFile}}, [2]string{"random", "random"})
	if len(pl.res.Forfeits) != 0 {
		t.Fatalf("forfeits %+v", pl.res.Forfeits)
	}
	for seat := range 2 {
		b, err := os.ReadFile(helloFile + "." + strconv.Itoa(seat))
		if err != nil {
			t.Fatal(err)
		}
		var h protocol.Hello
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatal(err)
		}
		if h.Type != "hello" || h.Protocol != protocol.Version || h.Game != "banqi" || h.Seat != seat || h.Seats != 2 ||
			!reflect.DeepEqual(h.Players, []string{"random", "random"}) || h.Match != "m" || h.GameID != t.Name() ||
			h.Seed != seed.Bot(7, seat) || h.Options["max_plies"] != "200" || h.Options["ranks"] != "taiwan" {
			t.Errorf("seat %d hello: %s", seat, b)
		}
		if h.Clock.MoveMs != 5000 || h.Clock.MarginMs != 50 {
			t.Errorf("seat %d hello clock %+v", seat, h.Clock)
		}
		// protocol.Clock: "zero means the limit is not in force"; the
		// referee enforces clock.Defaults.Startup when Limits.Startup is 0,
		// so that is what the bot must be told.
		if want := clock.Defaults.Startup.Milliseconds(); h.Clock.StartupMs != want {
			t.Errorf("seat %d hello says startup_ms %d, but the referee enforces %d ms", seat, h.Clock.StartupMs, want)
		}
	}
}
