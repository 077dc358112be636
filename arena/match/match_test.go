package match_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/proctest"
	"github.com/arena-dev/arena/internal/testkit"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/seed"
	_ "github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

const (
	envBot     = "ARENA_TEST_BOT"     // "random", "memory", "crash-once" or "hang"
	envToken   = "ARENA_TEST_TOKEN"   // per-test token, to find survivors
	envPidFile = "ARENA_TEST_PIDFILE" // the bot appends "<game_id> <pid>" per hello, "bye <pid>" at bye
	envFlag    = "ARENA_TEST_FLAG"    // crash-once: crash in the first game where this file does not exist yet
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envBot); mode != "" {
		os.Exit(runBot(mode))
	}
	os.Exit(m.Run())
}

// runBot is a deterministic random bot: its choices depend only on the
// seed in hello. It logs its pid on every hello, to stderr (the per-game
// log) and to the pid file.
//
// In mode "memory" it is the bot duplicate deals must be kept from: it
// remembers every hello seed it has seen, and a seed seen before means
// this process is replaying a deal (a bot's seed is the same in every game
// of a rotation block). It then shows it could cheat by answering its
// first turn with an illegal index, which the referee records as an
// illegal_action forfeit.
func runBot(mode string) int {
	lr := protocol.NewLineReader(os.Stdin, protocol.DefaultMaxLine)
	out := bufio.NewWriter(os.Stdout)
	note := func(s string) {
		f, err := os.OpenFile(os.Getenv(envPidFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			os.Exit(10)
		}
		fmt.Fprintln(f, s)
		f.Close()
	}
	var rng *rand.Rand
	crash, turn := false, 0
	seen, repeat := map[uint64]bool{}, false
	for {
		line, err := lr.ReadLine()
		if err != nil {
			return 0
		}
		typ, _ := protocol.PeekType(line)
		switch typ {
		case protocol.TypeHello:
			var h protocol.Hello
			if err := json.Unmarshal(line, &h); err != nil {
				return 1
			}
			rng = rand.New(rand.NewPCG(h.Seed, 0))
			turn = 0
			repeat = seen[h.Seed]
			seen[h.Seed] = true
			fmt.Fprintf(os.Stderr, "pid=%d game=%s\n", os.Getpid(), h.GameID)
			note(fmt.Sprintf("%s %d %d", h.GameID, os.Getpid(), h.Seed))
			if mode == "crash-once" {
				if f, err := os.OpenFile(os.Getenv(envFlag), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
					f.Close()
					crash = true
				}
			}
			fmt.Fprintf(out, `{"type":"ready","name":%q}`+"\n", mode)
		case protocol.TypeTurn:
			var t protocol.Turn
			if err := json.Unmarshal(line, &t); err != nil {
				return 1
			}
			turn++
			if crash && turn == 2 {
				return 3
			}
			if mode == "hang" {
				continue // never answers a turn
			}
			if mode == "memory" && repeat && turn == 1 {
				fmt.Fprintf(os.Stderr, "pid=%d has played this deal before\n", os.Getpid())
				fmt.Fprintf(out, `{"type":"action","id":%d,"index":%d}`+"\n", t.ID, len(t.Legal))
				break
			}
			fmt.Fprintf(out, `{"type":"action","id":%d,"index":%d}`+"\n", t.ID, rng.IntN(len(t.Legal)))
		case protocol.TypeBye:
			note(fmt.Sprintf("bye %d", os.Getpid()))
			return 0
		}
		if err := out.Flush(); err != nil {
			return 1
		}
	}
}

var tokenSeq atomic.Int64

type fixture struct {
	dir   string
	token string
	bots  []bot.Spec
}

// newFixture makes bots running this test binary in the given modes, each
// with its own pid file, and checks after the test that none survived.
func newFixture(t *testing.T, names, modes []string) *fixture {
	t.Helper()
	fx := &fixture{dir: t.TempDir(), token: fmt.Sprintf("m%d-%d", os.Getpid(), tokenSeq.Add(1))}
	for i, name := range names {
		fx.bots = append(fx.bots, stdio.Command{
			Name: name,
			Argv: []string{os.Args[0]},
			Env: append(os.Environ(), envBot+"="+modes[i], envToken+"="+fx.token,
				envPidFile+"="+fx.pidFile(name), envFlag+"="+filepath.Join(fx.dir, name+".flag"),
				"GORACE=atexit_sleep_ms=0"), // a race-enabled bot would sleep 1s at exit
		}.Spec())
	}
	t.Cleanup(func() { checkNoSurvivors(t, fx.token) })
	return fx
}

func (fx *fixture) pidFile(bot string) string { return filepath.Join(fx.dir, bot+".pids") }

// pids returns game id -> pid from a bot's pid file, and the pids that
// got bye.
func (fx *fixture) pids(t *testing.T, bot string) (map[string]int, []string) {
	pids, _, byes := fx.hellos(t, bot)
	return pids, byes
}

// hellos returns game id -> pid and game id -> seed from a bot's pid
// file, and the pids that got bye.
func (fx *fixture) hellos(t *testing.T, bot string) (map[string]int, map[string]uint64, []string) {
	t.Helper()
	b, err := os.ReadFile(fx.pidFile(bot))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int{}
	seeds := map[string]uint64{}
	var byes []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "bye" {
			byes = append(byes, f[1])
			continue
		}
		if len(f) != 3 {
			t.Fatalf("pid file line %q", line)
		}
		id := f[0]
		n, err := strconv.Atoi(f[1])
		seed, err2 := strconv.ParseUint(f[2], 10, 64)
		if err != nil || err2 != nil {
			t.Fatalf("pid file line %q", line)
		}
		if _, dup := m[id]; dup {
			t.Fatalf("%s got hello for %s twice", bot, id)
		}
		m[id], seeds[id] = n, seed
	}
	return m, seeds, byes
}

func survivors(token string) []int { return proctest.WithEnv(envToken + "=" + token) }

// checkNoSurvivors polls /proc (10ms steps, up to 5s) until no bot of
// this test is alive.
func checkNoSurvivors(t *testing.T, token string) {
	var left []int
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(10 * time.Millisecond) {
		if left = survivors(token); len(left) == 0 {
			return
		}
	}
	t.Errorf("bot processes survived the match: %v", left)
}

// testSecret keys the deals of the tests that need the same games from
// the same seed.
var testSecret = &deal.Secret{1, 2, 3}

func config(t *testing.T, games int, seed uint64, out string) match.Config {
	return gameConfig(t, "banqi", 2, map[string]string{"max_plies": "150"}, games, seed, out)
}

// gameConfig is a match of game with seats seats and the given rule options.
func gameConfig(t *testing.T, game string, seats int, options map[string]string, games int, seed uint64, out string) match.Config {
	g, opts := testkit.Setup(t, game, seats, options)
	return match.Config{
		Game: g, Options: opts, Games: games, Seed: seed, Secret: testSecret, OutDir: out, Version: "test",
		Settings: run.Settings{Limits: clock.Limits{Startup: 20 * time.Second, Move: 10 * time.Second, Margin: 50 * time.Millisecond}},
	}
}

// processOrder numbers a bot's processes in the order they first played
// and returns, for each game of recs, the number of the process that
// played it, and the pids in that order.
func processOrder(t *testing.T, bot string, pids map[string]int, recs []ledger.Record) ([]int, []int) {
	t.Helper()
	var order, started []int
	number := map[int]int{}
	for _, r := range recs {
		pid, ok := pids[r.GameID]
		if !ok {
			t.Fatalf("%s got no hello for %s", bot, r.GameID)
		}
		n, ok := number[pid]
		if !ok {
			n = len(started)
			number[pid] = n
			started = append(started, pid)
		}
		order = append(order, n)
	}
	return order, started
}

// results reads results.jsonl as records and as raw field maps.
func results(t *testing.T, out string) ([]ledger.Record, []map[string]json.RawMessage) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []ledger.Record
	var raws []map[string]json.RawMessage
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var r ledger.Record
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("results.jsonl line %q: %v", line, err)
		}
		json.Unmarshal([]byte(line), &raw)
		recs = append(recs, r)
		raws = append(raws, raw)
	}
	return recs, raws
}

// checkReplay reads and verifies a game's replay and checks it against
// its results.jsonl record.
func checkReplay(t *testing.T, out string, r ledger.Record) *replays.Replay {
	t.Helper()
	rp, err := r.ReplaySource(out).Read()
	if err != nil {
		t.Fatal(err)
	}
	if err := replays.Verify(rp); err != nil {
		t.Fatalf("game %d: %v", r.Index, err)
	}
	h := rp.Header
	if h.Seed != r.Seed || h.GameID != r.GameID || len(h.Seats) != len(r.Bots) {
		t.Errorf("game %d: replay header %+v does not match record %+v", r.Index, h, r)
	}
	for i, s := range h.Seats {
		if s.Seat != i || s.Bot != r.Bots[i] {
			t.Errorf("game %d: replay seat %+v, record bots %v", r.Index, s, r.Bots)
		}
	}
	if !reflect.DeepEqual(rp.Result.Ranks, r.Ranks) || rp.Result.Plies != r.Plies || rp.Result.Reason != r.Reason {
		t.Errorf("game %d: replay result %+v, record %+v", r.Index, rp.Result, r)
	}
	return rp
}

var pidLine = regexp.MustCompile(`pid=(\d+) game=(\S+)`)

// logPids returns the pids a bot's per-game stderr log shows.
func logPids(t *testing.T, out, bot, gameID string) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "logs", bot, gameID+".stderr.log"))
	if err != nil {
		t.Fatalf("per-game log: %v", err)
	}
	var pids []int
	for _, m := range pidLine.FindAllStringSubmatch(string(b), -1) {
		if m[2] != gameID {
			t.Errorf("%s's log for %s has a line of game %s", bot, gameID, m[2])
		}
		n, _ := strconv.Atoi(m[1])
		pids = append(pids, n)
	}
	return pids
}

// checkLogs checks that each game's stderr log of bot exists and shows the
// pid the bot reported for that game. The drain of stderr is asynchronous,
// so a log may in principle miss the line; every line present must match
// and each bot must have its lines captured somewhere.
func checkLogs(t *testing.T, out, bot string, pids map[string]int) {
	t.Helper()
	seen := 0
	for id, pid := range pids {
		for _, p := range logPids(t, out, bot, id) {
			seen++
			if p != pid {
				t.Errorf("%s's log for %s shows pid %d, the bot had pid %d", bot, id, p, pid)
			}
		}
	}
	if seen == 0 {
		t.Errorf("no pid line in any stderr log of %s", bot)
	}
}

func TestMatchKeepsBotsAlive(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"alpha", "beta"}, []string{"random", "random"})
	out := filepath.Join(fx.dir, "out")
	cfg := config(t, 4, 99, out)
	cfg.MatchID = "keep"
	var seen []ledger.Record
	cfg.OnGame = func(r ledger.Record) { seen = append(seen, r) }
	t0 := time.Now()
	sum, err := match.Run(context.Background(), cfg, fx.bots)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("4 games in %v", time.Since(t0))

	recs, raws := results(t, out)
	if len(recs) != 4 || len(seen) != 4 || sum.Games != 4 {
		t.Fatalf("%d results.jsonl lines, %d OnGame calls, summary of %d games; want 4", len(recs), len(seen), sum.Games)
	}
	for i, raw := range raws {
		for _, k := range []string{"index", "game_id", "seed", "bots", "ranks", "scores", "reason", "plies", "forfeits", "replay"} {
			if _, ok := raw[k]; !ok {
				t.Errorf("results.jsonl line %d has no %q: %v", i, k, raw)
			}
		}
		if f := string(raw["forfeits"]); f != "[]" {
			t.Errorf("line %d: forfeits %s, want []", i, f)
		}
	}
	for i, r := range recs {
		if r.Index != i || r.GameID != fmt.Sprintf("keep-g%04d", i) || !reflect.DeepEqual(r, seen[i]) {
			t.Errorf("record %d: %+v (OnGame saw %+v)", i, r, seen[i])
		}
		// Seats rotate: each game swaps the bots.
		want := []string{"alpha", "beta"}
		if i%2 == 1 {
			want = []string{"beta", "alpha"}
		}
		if !reflect.DeepEqual(r.Bots, want) {
			t.Errorf("game %d: bots %v, want %v", i, r.Bots, want)
		}
		// Paired games share a seed.
		if want := match.GameSeed(testSecret, 99, i, 2); r.Seed != want {
			t.Errorf("game %d: seed %d, want %d", i, r.Seed, want)
		}
		checkReplay(t, out, r)
	}
	if recs[0].Seed != recs[1].Seed || recs[2].Seed != recs[3].Seed || recs[0].Seed == recs[2].Seed {
		t.Errorf("seeds %d %d %d %d: want pairs sharing a seed, different pairs different", recs[0].Seed, recs[1].Seed, recs[2].Seed, recs[3].Seed)
	}
	// A process never plays a deal twice: game 1 replays game 0's deal and
	// game 3 game 2's, so each bot has two processes, one for each game of
	// a block, kept across blocks: processes 0, 1, 1, 0. Both get bye.
	alive := map[int]string{}
	for b, bot := range []string{"alpha", "beta"} {
		pids, seeds, byes := fx.hellos(t, bot)
		// A bot's seed follows the bot, not the seat.
		for _, r := range recs {
			if want := seed.Bot(r.Seed, b); seeds[r.GameID] != want {
				t.Errorf("%s got seed %d in game %d, want BotSeed(game seed, %d) = %d", bot, seeds[r.GameID], r.Index, b, want)
			}
		}
		if len(pids) != 4 {
			t.Fatalf("%s saw %d hellos, want 4: %v", bot, len(pids), pids)
		}
		order, started := processOrder(t, bot, pids, recs)
		if want := []int{0, 1, 1, 0}; !reflect.DeepEqual(order, want) {
			t.Errorf("%s: games played by processes %v, want %v (pids %v)", bot, order, want, started)
		}
		sort.Strings(byes)
		want := []string{strconv.Itoa(started[0]), strconv.Itoa(started[1])}
		sort.Strings(want)
		if !reflect.DeepEqual(byes, want) {
			t.Errorf("%s: byes %v, want one from each process %v", bot, byes, want)
		}
		for _, pid := range started {
			if other, dup := alive[pid]; dup {
				t.Errorf("%s and %s share pid %d", bot, other, pid)
			}
			alive[pid] = bot
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
				t.Errorf("%s (pid %d) still in the process table after Run", bot, pid)
			}
		}
		checkLogs(t, out, bot, pids)
	}
	for _, b := range sum.Bots {
		if b.Games != 4 || b.Wins+b.Draws+b.Losses != 4 || b.Forfeits != 0 {
			t.Errorf("summary %+v", b)
		}
	}
}

// TestMatchInterrupt: cancelling the context mid-game kills the bots at
// once, records nothing for the unfinished game, keeps the finished ones,
// and leaves no process behind (the fixture counts them).
func TestMatchInterrupt(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"hang", "steady"}, []string{"hang", "random"})
	out := filepath.Join(fx.dir, "out")
	cfg := config(t, 2, 9, out)
	cfg.Limits.Move = time.Minute // without the interrupt, game 0 would end only by timeout
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	stop := errors.New("the test's stop") // the cause the error must carry (a signal's, in arena match)
	// Interrupt once both bots are in game 0 (their hellos are logged).
	go func() {
		for range 5000 {
			pids, _ := os.ReadFile(fx.pidFile("hang"))
			steady, _ := os.ReadFile(fx.pidFile("steady"))
			if len(pids) > 0 && len(steady) > 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel(stop)
	}()
	sum, err := match.Run(ctx, cfg, fx.bots)
	if !errors.Is(err, stop) || !strings.Contains(err.Error(), "interrupted (the test's stop) during game 1") {
		t.Fatalf("error %v, want an interruption by the test's stop during game 1", err)
	}
	if sum.Games != 0 {
		t.Errorf("summary counts %d games, want 0", sum.Games)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "results.jsonl")); len(b) != 0 {
		t.Errorf("the interrupted game was recorded: %s", b)
	}
	if replays, _ := filepath.Glob(filepath.Join(out, "replays", "*")); len(replays) != 0 {
		t.Errorf("replays of the interrupted game: %v", replays)
	}
}

// TestRestartBots: with RestartBots every game gets fresh processes (a new
// pid per game for each bot), and nothing is forfeited for it.
func TestRestartBots(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
	out := filepath.Join(fx.dir, "out")
	cfg := config(t, 4, 6, out)
	cfg.RestartBots = true
	sum, err := match.Run(context.Background(), cfg, fx.bots)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range sum.Bots {
		if b.Forfeits != 0 || b.Games != 4 {
			t.Errorf("%s: %+v", b.Name, b)
		}
	}
	for _, bot := range []string{"a", "b"} {
		pids, _ := fx.pids(t, bot)
		seen := map[int]bool{}
		for _, pid := range pids {
			seen[pid] = true
		}
		if len(pids) != 4 || len(seen) != 4 {
			t.Errorf("bot %s: games %d, distinct processes %d; want a fresh process for each of 4 games", bot, len(pids), len(seen))
		}
	}
}

func TestMatchRestartsCrashedBot(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"crashy", "steady"}, []string{"crash-once", "random"})
	out := filepath.Join(fx.dir, "out")
	cfg := config(t, 4, 5, out)
	// No deal repeats, so the pool replaces a process only for failing.
	cfg.FreshDeals = true
	sum, err := match.Run(context.Background(), cfg, fx.bots)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := results(t, out)
	if len(recs) != 4 {
		t.Fatalf("%d games recorded, want 4", len(recs))
	}
	for _, r := range recs {
		checkReplay(t, out, r)
	}
	// Game 0: crashy is seat 0 and exits at its second turn.
	r0 := recs[0]
	if len(r0.Forfeits) != 1 || r0.Forfeits[0] != (ledger.SeatFailure{Failure: protocol.Failure{Seat: 0, Reason: "crash", Detail: r0.Forfeits[0].Detail}, Bot: "crashy"}) {
		t.Fatalf("game 0 forfeits %+v, want crashy's crash", r0.Forfeits)
	}
	if !reflect.DeepEqual(r0.Ranks, []int{2, 1}) || r0.Plies != 2 {
		t.Errorf("game 0: ranks %v after %d plies, want [2 1] after 2", r0.Ranks, r0.Plies)
	}
	for i, r := range recs {
		if !strings.HasPrefix(r.GameID, "banqi-") || !strings.HasSuffix(r.GameID, fmt.Sprintf("-g%04d", i)) {
			t.Errorf("game %d: id %q with the default match id", i, r.GameID)
		}
	}
	for _, r := range recs[1:] {
		if len(r.Forfeits) != 0 {
			t.Errorf("game %d: forfeits %+v after the restart", r.Index, r.Forfeits)
		}
	}
	crashy, _ := fx.pids(t, "crashy")
	steady, _ := fx.pids(t, "steady")
	if len(crashy) != 4 || len(steady) != 4 {
		t.Fatalf("hellos: crashy %v, steady %v", crashy, steady)
	}
	first := crashy[recs[0].GameID]
	second := crashy[recs[1].GameID]
	if first == second {
		t.Errorf("crashy was not restarted after crashing: pid %d in games 0 and 1", first)
	}
	for _, r := range recs[1:] {
		if crashy[r.GameID] != second {
			t.Errorf("crashy restarted again in game %d (pid %d, was %d)", r.Index, crashy[r.GameID], second)
		}
		if steady[r.GameID] != steady[recs[0].GameID] {
			t.Errorf("steady was restarted in game %d though it never failed", r.Index)
		}
	}
	checkLogs(t, out, "crashy", crashy)
	checkLogs(t, out, "steady", steady)
	if sum.Bots[0].Forfeits != 1 || sum.Bots[1].Forfeits != 0 || sum.Bots[1].Wins < 1 {
		t.Errorf("summary %+v", sum.Bots)
	}
}

// TestMatchDeterministic: the same seed and deterministic bots give the
// same games, move for move.
func TestMatchDeterministic(t *testing.T) {
	t.Parallel()
	var runs [2][]*replays.Replay
	var lines [2]string
	for k := range runs {
		fx := newFixture(t, []string{"alpha", "beta"}, []string{"random", "random"})
		out := filepath.Join(fx.dir, "out")
		cfg := config(t, 2, 7, out)
		cfg.MatchID = "det" // the default id is made from the time
		if _, err := match.Run(context.Background(), cfg, fx.bots); err != nil {
			t.Fatal(err)
		}
		recs, _ := results(t, out)
		for _, r := range recs {
			runs[k] = append(runs[k], checkReplay(t, out, r))
			// Where in the pack a replay lies follows the sizes of
			// the replays before it, which hold think times.
			r.ReplayAt = nil
			b, _ := json.Marshal(r)
			lines[k] += string(b) + "\n"
		}
	}
	if lines[0] != lines[1] {
		t.Errorf("results.jsonl differs:\n%s\n%s", lines[0], lines[1])
	}
	if len(runs[0]) != 2 || len(runs[1]) != 2 {
		t.Fatalf("games: %d and %d", len(runs[0]), len(runs[1]))
	}
	for g := range runs[0] {
		a, b := runs[0][g], runs[1][g]
		ha, hb := a.Header, b.Header
		ha.Started, hb.Started = time.Time{}, time.Time{}
		if !reflect.DeepEqual(ha, hb) {
			t.Errorf("game %d headers differ: %+v vs %+v", g, ha, hb)
		}
		if !reflect.DeepEqual(a.Result, b.Result) {
			t.Errorf("game %d results differ: %+v vs %+v", g, a.Result, b.Result)
		}
		if len(a.Events) != len(b.Events) {
			t.Fatalf("game %d: %d vs %d events", g, len(a.Events), len(b.Events))
		}
		for i := range a.Events {
			ea, eb := a.Events[i], b.Events[i]
			if ea.Move == nil || eb.Move == nil {
				t.Fatalf("game %d event %d: %+v vs %+v", g, i, ea, eb)
			}
			ma, mb := *ea.Move, *eb.Move
			ma.ThinkUs, mb.ThinkUs = 0, 0
			if ma.Ply != mb.Ply || ma.Seat != mb.Seat || ma.By != mb.By || !bytes.Equal(ma.Action, mb.Action) {
				t.Fatalf("game %d differs at event %d: %+v vs %+v", g, i, ma, mb)
			}
		}
	}
}
