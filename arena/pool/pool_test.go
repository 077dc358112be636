package pool_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/internal/proctest"
)

// waiters are bots that wait for hello (read their input to its end) and
// exit when closed: real processes, which the pool starts and closes.
// None of them is left once the test is over.
func waiters(t *testing.T, names ...string) []bot.Spec {
	t.Helper()
	token := fmt.Sprintf("ARENA_POOL_TEST=%d-%d", os.Getpid(), tokens.Add(1))
	var out []bot.Spec
	for _, name := range names {
		out = append(out, stdio.Command{Name: name, Argv: []string{"sh", "-c", "exec cat >/dev/null"}, Env: []string{token}}.Spec())
	}
	t.Cleanup(func() {
		var left []int
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if left = proctest.WithEnv(token); len(left) == 0 {
				return
			}
		}
		t.Errorf("bot processes survived the pool: %v", left)
	})
	return out
}

var tokens atomic.Int64

// TestGetOfABotThatCannotStart: Get says why, with the bot's name, and
// counts no process in a game; the run records the failure (as a broken
// connection, which the referee reads as the seat's start-up failure).
func TestGetOfABotThatCannotStart(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-bot")
	pl := pool.New([]bot.Spec{stdio.Command{Name: "ghost", Argv: []string{missing}}.Spec()}, bot.LaunchOptions{})
	defer pl.KillAll()
	proc, err := pl.Get(0, 1)
	if err == nil || proc != nil {
		t.Fatalf("Get = %v, %v: want no process and an error", proc, err)
	}
	if !strings.Contains(err.Error(), "bot ghost") {
		t.Errorf("error %q does not name the bot", err)
	}
	if st := pl.Stats(); st.InGame != 0 || st.Started != 0 {
		t.Errorf("pool stats %+v after a failed start: want nothing in games, nothing started", st)
	}
}

// TestGameLogStaysInMemoryUntilTheGameEnds: what a bot writes to stderr
// during a game reaches no file an opponent could read before the game
// is over; then it is all there, and so is what follows until the next game.
func TestGameLogStaysInMemoryUntilTheGameEnds(t *testing.T) {
	t.Parallel()
	pl := pool.New([]bot.Spec{stdio.Command{Name: "talker", Argv: []string{"sh", "-c", "read x; echo my hand is secret >&2; read x; echo after the game >&2; sleep 5"}}.Spec()}, bot.LaunchOptions{})
	defer pl.KillAll()
	proc, err := pl.Get(0, 1)
	if err != nil {
		t.Fatal("not started:", err)
	}
	log := filepath.Join(t.TempDir(), "g1.stderr.log")
	pl.AttachLog(proc, pool.File(log))
	proc.Send([]byte("start"), time.Now().Add(time.Second))
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(proc.StderrTail(), "secret"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the bot wrote nothing")
		}
	}
	if b, _ := os.ReadFile(log); len(b) != 0 {
		t.Fatalf("a running game's log is on disk: %q", b)
	}
	pl.Put(0, proc, false)
	if b, _ := os.ReadFile(log); string(b) != "my hand is secret\n" {
		t.Fatalf("log after the game: %q", b)
	}
	proc.Send([]byte("x"), time.Now().Add(time.Second))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if b, _ := os.ReadFile(log); strings.Contains(string(b), "after the game") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("what the bot wrote after the game did not reach its log")
		}
	}
}

// TestPoolNeverHandsOutADealTwice drives the pool directly: Get reuses an
// idle process only if it has not played the deal, prefers one that has
// not over one that has, and when every idle process has played it starts
// a fresh one; a process given back when Spare processes are outside
// games already has the least recently used idle one closed first.
func TestPoolNeverHandsOutADealTwice(t *testing.T) {
	t.Parallel()
	type step struct {
		put  bool   // give the process in slot back (else get one into slot)
		slot int    // a game in progress, 0 or 1
		deal uint64 // get: the game's deal
		want int    // get: which process, numbered in start order
	}
	get := func(slot int, deal uint64, want int) step { return step{slot: slot, deal: deal, want: want} }
	put := func(slot int) step { return step{put: true, slot: slot} }
	cases := []struct {
		name  string
		spare int // Pool.Spare
		steps []step
		alive []int // processes still running at the end
	}{
		{"a repeated deal gets a fresh process, a new deal the same one", 1,
			[]step{get(0, 1, 0), put(0), get(0, 1, 1), put(0), get(0, 2, 1), put(0), get(0, 2, 2), put(0), get(0, 1, 2)},
			[]int{2}},
		{"an idle process that has not played the deal goes first", 2,
			[]step{get(0, 1, 0), get(1, 2, 1), put(0), put(1), get(0, 2, 0), put(0), get(0, 1, 1)},
			[]int{0, 1}},
		{"two games of one deal at once, then both again", 3,
			[]step{get(0, 1, 0), get(1, 1, 1), put(0), put(1), get(0, 1, 2), get(1, 1, 3), put(1), put(0), get(0, 2, 2)},
			[]int{2, 3}},
		{"an idle process that played the deal stays for later deals", 2,
			[]step{get(0, 1, 0), get(1, 2, 1), put(0), put(1), get(0, 1, 1), get(1, 1, 2)},
			[]int{0, 1, 2}},
		{"with no room the least recently used idle process goes", 1,
			[]step{get(0, 1, 0), get(1, 2, 1), put(0), put(1), get(0, 1, 1), get(1, 1, 2)},
			[]int{1, 2}},
		{"a block's worth of idle processes is kept: no restarts", 2,
			[]step{get(0, 1, 0), put(0), get(0, 1, 1), put(0), get(0, 2, 1), put(0), get(0, 2, 0), put(0), get(0, 3, 0), put(0), get(0, 3, 1)},
			[]int{0, 1}},
		{"a spare started ahead counts toward Spare", 3,
			[]step{get(0, 1, 0), put(0), get(0, 1, 1), put(0), get(0, 1, 2), put(0), get(0, 2, 2)},
			[]int{1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pl := pool.New(waiters(t, "idle"), bot.LaunchOptions{})
			pl.Spare = tc.spare
			defer pl.KillAll()
			var started []bot.Endpoint
			var slots [2]bot.Endpoint
			for i, s := range tc.steps {
				if s.put {
					pl.Put(0, slots[s.slot], false)
					slots[s.slot] = nil
					continue
				}
				proc, err := pl.Get(0, s.deal)
				if err != nil {
					t.Fatalf("step %d: not started: %v", i, err)
				}
				got := slices.Index(started, proc)
				if got < 0 {
					got = len(started)
					started = append(started, proc)
				}
				if got != s.want {
					t.Fatalf("step %d (deal %d): process %d, want %d", i, s.deal, got, s.want)
				}
				slots[s.slot] = proc
			}
			var alive []int
			for i, proc := range started {
				select {
				case <-proc.Done():
				default:
					alive = append(alive, i)
				}
			}
			if !slices.Equal(alive, tc.alive) {
				t.Errorf("processes running at the end: %v, want %v (a replaced one is closed before Get returns)", alive, tc.alive)
			}
		})
	}
}

// TestClaimHoldsIdleProcesses drives Claim with two bots: it takes a
// game's processes only if every seat's bot has an idle one that has not
// played the deal, and the game's Gets then return those; otherwise it
// takes none, and Get goes on as without it.
func TestClaimHoldsIdleProcesses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		played []int  // bots whose process played deal 1 and is idle now
		deal   uint64 // the deal claimed for, seats 0 and 1 (bots 0 and 1)
		want   bool
		// reused are the seats whose Get returns the idle process.
		reused []int
	}{
		{"both bots idle, a new deal", []int{0, 1}, 2, true, []int{0, 1}},
		{"both bots idle, but the deal played", []int{0, 1}, 1, false, nil},
		{"one bot has none idle", []int{0}, 2, false, []int{0}},
		{"neither has one", nil, 2, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pl := pool.New(waiters(t, "a", "b"), bot.LaunchOptions{})
			pl.Spare = 4
			defer pl.KillAll()
			idle := map[int]bot.Endpoint{}
			for _, b := range tc.played {
				proc, err := pl.Get(b, 1)
				if err != nil {
					t.Fatal("not started:", err)
				}
				idle[b] = proc
			}
			for b, proc := range idle {
				pl.Put(b, proc, false)
			}
			if got := pl.Claim([]int{0, 1}, tc.deal); got != tc.want {
				t.Fatalf("Claim = %v, want %v", got, tc.want)
			}
			wantInGame := 0 // a refused claim takes none
			if tc.want {
				wantInGame = 2 // claimed ones count in their game
			}
			if st := pl.Stats(); st.InGame != wantInGame {
				t.Errorf("%d processes in games after the claim, want %d", st.InGame, wantInGame)
			}
			var reused []int
			for b := range 2 {
				proc, err := pl.Get(b, tc.deal)
				if err != nil {
					t.Fatal("not started:", err)
				}
				if proc == idle[b] {
					reused = append(reused, b)
				}
				defer pl.Put(b, proc, false)
			}
			if !slices.Equal(reused, tc.reused) {
				t.Errorf("seats given their idle process: %v, want %v", reused, tc.reused)
			}
		})
	}
}

// TestSpareProcessWhenProcessesChurn: once a bot's processes are being
// replaced (every idle one has played the next deal, twice in a row), the
// pool has the next one started ahead, making room for it in the budget:
// the game after that gets a process that was already running, with what
// it wrote while starting in that game's log; KillAll leaves no spare
// behind.
func TestSpareProcessWhenProcessesChurn(t *testing.T) {
	t.Parallel()
	token := fmt.Sprintf("ARENA_POOL_SPARE=%d-%d", os.Getpid(), time.Now().UnixNano())
	pl := pool.New([]bot.Spec{stdio.Command{Name: "churn", Argv: []string{"sh", "-c", `echo "up $$" >&2; exec cat >/dev/null`},
		Env: []string{token}}.Spec()}, bot.LaunchOptions{})
	pl.Spare = 2
	defer pl.KillAll()
	get := func() bot.Endpoint {
		t.Helper()
		proc, err := pl.Get(0, 7) // one deal, again and again
		if err != nil {
			t.Fatal("not started:", err)
		}
		return proc
	}
	waitFor := func(n int) []int {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			if pids := proctest.WithEnv(token); len(pids) == n {
				return pids
			} else if time.Now().After(deadline) {
				t.Fatalf("%d processes of the bot, want %d", len(pids), n)
			}
		}
	}
	p0 := get()
	pl.Put(0, p0, false)
	p1 := get() // p0 has played the deal: a fresh one (a pair's second game misses once)
	pl.Put(0, p1, false)
	p2 := get() // missed again: a spare is started, p0 closed to make room
	pl.Put(0, p2, false)
	before := waitFor(2) // p2 idle and the spare: p1 made room for p2
	p3 := get()          // the spare
	if p3 == p0 || p3 == p1 || p3 == p2 || !slices.Contains(before, pid(p3)) {
		t.Fatalf("fourth game got pid %d, want the spare started before it (running: %v; earlier %d, %d, %d)", pid(p3), before, pid(p0), pid(p1), pid(p2))
	}
	if st := pl.Stats(); st.PeakOutside > 2 || st.PeakInGame != 1 {
		t.Errorf("pool stats %+v: want at most 2 processes outside games and 1 in", st)
	}
	p2 = p3
	log := filepath.Join(t.TempDir(), "g3.stderr.log")
	pl.AttachLog(p2, pool.File(log))
	// Written before or after the log was attached, as the shell got to
	// it: either way it lands in this log, once the game is over (what
	// comes after that waits for the next game's log to be attached).
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(p2.StderrTail(), "up"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the spare wrote nothing")
		}
	}
	pl.Put(0, p2, false)
	want := fmt.Sprintf("up %d\n", pid(p2))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		b, _ := os.ReadFile(log)
		if string(b) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the spare's start-up output is not in its first game's log: %q (tail %q, pid %d)", b, p2.StderrTail(), pid(p2))
		}
	}
	pl.KillAll()
	if left := proctest.WithEnv(token); len(left) != 0 {
		t.Errorf("processes left after KillAll: %v", left)
	}
}

// pid is the process id of a Command bot's session.
func pid(e bot.Endpoint) int { return e.(interface{ Pid() int }).Pid() }

// TestOneGameStartsTheNextProcessAhead: with OneGame (a run that restarts
// its bots) no process plays a second game, and each game after the
// first gets a process that was started while the game before it ran;
// its start-up output is in that game's log. A process given back after
// a failure is gone when Put returns; the others are closed in the
// background, and KillAll waits for them: once it returns every game's
// log is complete and no process of the bot is left.
func TestOneGameStartsTheNextProcessAhead(t *testing.T) {
	t.Parallel()
	token := fmt.Sprintf("ARENA_POOL_ONEGAME=%d-%d", os.Getpid(), time.Now().UnixNano())
	pl := pool.New([]bot.Spec{stdio.Command{Name: "fresh", Argv: []string{"sh", "-c", `echo "up $$" >&2; exec cat >/dev/null`},
		Env: []string{token}}.Spec()}, bot.LaunchOptions{})
	pl.Spare, pl.OneGame = 2, true
	defer pl.KillAll()
	dir := t.TempDir()
	const games = 5
	played := map[int]bool{}
	logs := map[string]int{} // log file: the pid of its game's process
	var spare []int          // the bot's processes running before a Get, the one in a game aside
	for g := range games {
		deal := uint64(g / 2) // game pairs share a deal, as in a match
		proc, err := pl.Get(0, deal)
		if err != nil {
			t.Fatalf("game %d: not started: %v", g, err)
		}
		p := pid(proc)
		if played[p] {
			t.Fatalf("game %d: process %d played an earlier game", g, p)
		}
		played[p] = true
		if g > 0 && !slices.Contains(spare, p) {
			t.Errorf("game %d got process %d, not one started ahead (running before its Get: %v)", g, p, spare)
		}
		log := filepath.Join(dir, fmt.Sprintf("g%d.stderr.log", g))
		logs[log] = p
		pl.AttachLog(proc, pool.File(log))
		// The next game's process is on its way while this one plays.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			// (The processes of earlier games may still be closing.)
			spare = slices.DeleteFunc(proctest.WithEnv(token), func(q int) bool { return played[q] })
			if len(spare) == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %d: other processes of the bot %v, want one started ahead", g, spare)
			}
		}
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(proc.StderrTail(), "up"); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("game %d: the process wrote nothing", g)
			}
		}
		failed := g == 2
		pl.Put(0, proc, failed)
		if failed {
			select {
			case <-proc.Done():
			default:
				t.Errorf("game %d: a failed process is still running after Put", g)
			}
		}
	}
	st := pl.Stats()
	for deadline := time.Now().Add(5 * time.Second); st.Started < games+1 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		st = pl.Stats() // the last spare runs (above); its start may not be counted yet
	}
	if st.Started != games+1 || st.PeakOutside > 2 {
		t.Errorf("pool stats %+v: want %d started (one spare left) and at most 2 outside games", st, games+1)
	}
	pl.KillAll()
	for log, p := range logs {
		if b, _ := os.ReadFile(log); string(b) != fmt.Sprintf("up %d\n", p) {
			t.Errorf("%s: %q, want the start-up line of process %d", filepath.Base(log), b, p)
		}
	}
	if left := proctest.WithEnv(token); len(left) != 0 {
		t.Errorf("processes left after KillAll: %v", left)
	}
}
