package run_test

// The runner with in-memory bots (membot.Launcher: sessions are
// goroutines on transport.Pipe), so these tests exercise the runner, the
// pool and the referee without processes, and a test can count sessions
// and byes exactly.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/replays"
)

// tables is a fixed Source of n banqi games between bots 0 and 1, each
// on a deal of its own; recorded[i] marks game i as already recorded.
type tables struct {
	n, next  int
	recorded map[int]bool
	results  []string // game ids, in the order Result saw them
}

func (s *tables) Next() (run.Table, schedule.Status) {
	if s.next >= s.n {
		return run.Table{}, schedule.Done
	}
	i := s.next
	s.next++
	t := run.Table{Game: schedule.Game{Seats: []int{i % 2, 1 - i%2}}, Index: i, GameID: fmt.Sprintf("t-g%02d", i), Seed: uint64(100 + i)}
	if s.recorded[i] {
		t.Recorded = &ledger.Record{GameID: t.GameID, Bots: []string{"a", "b"}, Ranks: []int{1, 2}}
	}
	return t, schedule.Ready
}

func (s *tables) Result(t run.Table, _ ledger.Record) error {
	s.results = append(s.results, t.GameID)
	return nil
}

// afterN is a StopRule that stops at the n-th counted game.
type afterN struct{ n, seen int }

func (r *afterN) Stop(run.Table, ledger.Record) bool { r.seen++; return r.seen >= r.n }

// memorySink keeps what a Files sink would write.
type memorySink struct {
	mu      sync.Mutex
	replays map[string]bool
	lines   []ledger.Record
	fail    error // Record's error, if set
}

func (s *memorySink) Log(string, string) pool.LogFile { return pool.LogFile{} }
func (s *memorySink) Replay(t run.Table, r run.Replay) (string, *replays.Span, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.replays == nil {
		s.replays = map[string]bool{}
	}
	s.replays[t.GameID] = true
	return t.GameID + replays.Ext, nil, nil
}
func (s *memorySink) Record(t run.Table, rec ledger.Record) error {
	if s.fail != nil {
		return s.fail
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.replays[t.GameID] {
		return fmt.Errorf("%s: ledger line before its replay", t.GameID)
	}
	s.lines = append(s.lines, rec)
	return nil
}

func config(t testing.TB, l *membot.Launcher, concurrency int) run.Config {
	t.Helper()
	g, err := engine.Lookup("banqi")
	if err != nil {
		t.Fatal(err)
	}
	opts, err := engine.Setup(g, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	return run.Config{
		Settings: run.Settings{Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second}},
		Game:     g, Options: opts, MatchID: "t", Concurrency: concurrency, Rotation: 2,
		Bots: []bot.Spec{{Name: "a", Launcher: l}, {Name: "b", Launcher: l}},
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name        string
		games       int
		recorded    map[int]bool
		stopAt      int // 0: no stop rule
		concurrency int
		restart     bool // Settings.RestartBots
		// want: games counted, of them resumed; played (recorded by the
		// sink); byes sent at the end (a run that ends by its stop rule
		// closes its bots without one).
		done, resumed, played int
		stopped, byes         bool
	}{
		{name: "a fixed list plays out", games: 6, concurrency: 1, done: 6, played: 6, byes: true},
		{name: "in parallel", games: 8, concurrency: 3, done: 8, played: 8, byes: true},
		{name: "recorded games are counted, not played", games: 5, recorded: map[int]bool{0: true, 3: true}, concurrency: 2,
			done: 5, resumed: 2, played: 3, byes: true},
		{name: "a stop rule ends the run", games: 20, stopAt: 4, concurrency: 1, done: 4, played: 4, stopped: true},
		{name: "restart bots: fresh sessions for every game", games: 4, concurrency: 2, restart: true, done: 4, played: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &membot.Launcher{Policy: membot.First}
			src := &tables{n: tc.games, recorded: tc.recorded}
			sink := &memorySink{}
			var stop run.StopRule
			if tc.stopAt > 0 {
				stop = &afterN{n: tc.stopAt}
			}
			var progress []run.Progress
			cfg := config(t, l, tc.concurrency)
			cfg.RestartBots = tc.restart
			cfg.OnGame = func(p run.Progress) { progress = append(progress, p) }
			res, err := run.Run(context.Background(), cfg, src, stop, sink)
			if err != nil {
				t.Fatal(err)
			}
			if res.Done != tc.done || res.Resumed != tc.resumed || res.Played != tc.played || res.Stopped != tc.stopped {
				t.Errorf("done %d resumed %d played %d stopped %v, want %d %d %d %v",
					res.Done, res.Resumed, res.Played, res.Stopped, tc.done, tc.resumed, tc.played, tc.stopped)
			}
			if len(sink.lines) != tc.played {
				t.Errorf("%d ledger lines, want %d", len(sink.lines), tc.played)
			}
			for i, rec := range sink.lines {
				if rec.Replay != rec.GameID+replays.Ext || len(rec.Ranks) != 2 {
					t.Errorf("line %d: %+v", i, rec)
				}
			}
			if len(src.results) != tc.done || len(progress) != tc.done-tc.resumed {
				t.Errorf("the source saw %d results and OnGame %d, want %d and %d", len(src.results), len(progress), tc.done, tc.done-tc.resumed)
			}
			// Every game has a deal of its own, so a bot needs one
			// session per game running at once, never more: no restarts,
			// whatever the number of games.
			n, byes := l.Launched()
			switch {
			case tc.restart && (n < 2*tc.played || n > 2*tc.played+2):
				t.Errorf("%d sessions launched for %d games with fresh bots every game: want one per game and seat, and at most one started ahead per bot", n, tc.played)
			case !tc.restart && (n > 2*tc.concurrency || n < 2 && tc.played > 0):
				t.Errorf("%d sessions launched", n)
			}
			want := 0 // byes
			switch {
			case tc.restart:
				// Those that played were closed after their games; the
				// next ones started ahead are ended with a bye.
				want = n - 2*tc.played
			case tc.byes:
				want = n
			}
			if byes != want {
				t.Errorf("%d byes to %d sessions, want %d", byes, n, want)
			}
		})
	}
}

// When the stop rule fires with games still running, those are abandoned
// (their bots closed, nothing recorded of them) and no game is counted
// after the one that stopped the run.
func TestStopAbandonsRunningGames(t *testing.T) {
	// Game 0 is between free bots; games 1 and 2, started with it, are
	// between bots held for good, so they can end only by being abandoned
	// (a runner that waited for them would hang).
	held := heldLauncher(t)
	cfg := config(t, &membot.Launcher{Policy: membot.First}, 3)
	cfg.Bots = append(cfg.Bots, bot.Spec{Name: "c", Launcher: held}, bot.Spec{Name: "d", Launcher: held})
	src := &seated{seats: [][]int{{0, 1}, {2, 3}, {3, 2}, {0, 1}}}
	sink := &memorySink{}
	stop := &firstFinished{}
	res, err := run.Run(context.Background(), cfg, src, stop, sink)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Done != 1 || stop.calls != 1 {
		t.Fatalf("stopped %v, %d counted, stop rule asked %d times: want one", res.Stopped, res.Done, stop.calls)
	}
	if res.Played != 1 || res.Abandoned != 2 || src.next != 3 {
		t.Errorf("played %d, abandoned %d, %d started: want 1, the 2 held, and no game started after the stop", res.Played, res.Abandoned, src.next)
	}
	if len(sink.lines) != res.Played {
		t.Errorf("%d lines for %d games played", len(sink.lines), res.Played)
	}
}

// seated is a Source of games with the given seats, each on a deal of
// its own.
type seated struct {
	seats [][]int
	next  int
}

func (s *seated) Next() (run.Table, schedule.Status) {
	if s.next >= len(s.seats) {
		return run.Table{}, schedule.Done
	}
	i := s.next
	s.next++
	return run.Table{Game: schedule.Game{Seats: s.seats[i]}, Index: i, GameID: fmt.Sprintf("s-g%02d", i), Seed: uint64(i)}, schedule.Ready
}

func (s *seated) Result(run.Table, ledger.Record) error { return nil }

// heldLauncher's bots wait on hold before each answer; the test's end
// lets any still waiting go (to find their connection closed).
func heldLauncher(t *testing.T) *membot.Launcher {
	l := &membot.Launcher{Policy: membot.First, Hold: make(chan struct{})}
	t.Cleanup(func() { close(l.Hold) })
	return l
}

// firstFinished stops at the first counted game.
type firstFinished struct{ calls int }

func (f *firstFinished) Stop(run.Table, ledger.Record) bool {
	f.calls++
	return true
}

func TestRunErrors(t *testing.T) {
	diskFull := errors.New("no space left on device")
	t.Run("a sink that cannot record stops the run", func(t *testing.T) {
		res, err := run.Run(context.Background(), config(t, &membot.Launcher{Policy: membot.First}, 2), &tables{n: 6}, nil, &memorySink{fail: diskFull})
		var ge *run.GameError
		if !errors.As(err, &ge) || !errors.Is(err, diskFull) || res.Done != 0 {
			t.Fatalf("got %v (done %d), want a *GameError wrapping the sink's", err, res.Done)
		}
	})
	t.Run("an interrupt", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		l := heldLauncher(t)
		go func() {
			l.Hold <- struct{}{} // one move, then the interrupt
			cancel()
		}()
		res, err := run.Run(ctx, config(t, l, 1), &tables{n: 6}, nil, &memorySink{})
		if !errors.Is(err, run.ErrInterrupted) || !errors.Is(err, context.Canceled) || res.Abandoned != 1 || res.Done != 0 {
			t.Fatalf("got %v, abandoned %d, done %d: want ErrInterrupted with the one running game abandoned", err, res.Abandoned, res.Done)
		}
	})
	t.Run("a schedule that waits on nothing", func(t *testing.T) {
		_, err := run.Run(context.Background(), config(t, &membot.Launcher{Policy: membot.First}, 1), waiting{}, nil, nil)
		if !errors.Is(err, run.ErrStalled) {
			t.Fatalf("got %v, want ErrStalled", err)
		}
	})
}

type waiting struct{}

func (waiting) Next() (run.Table, schedule.Status)    { return run.Table{}, schedule.Wait }
func (waiting) Result(run.Table, ledger.Record) error { return nil }

// capped is a launcher of a bot that serves cap sessions at once
// (bot.Capacity), recording the most it ever had live.
type capped struct {
	membot.Launcher
	cap        int
	mu         sync.Mutex
	live, peak int
}

func (c *capped) Capacity() int { return c.cap }

func (c *capped) Launch(name string, opt bot.LaunchOptions) (bot.Endpoint, error) {
	e, err := c.Launcher.Launch(name, opt)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.live++
	c.peak = max(c.peak, c.live)
	c.mu.Unlock()
	return &cappedSession{Endpoint: e, c: c}, nil
}

// cappedSession counts as live until it is closed.
type cappedSession struct {
	bot.Endpoint
	c    *capped
	once sync.Once
}

func (s *cappedSession) Close() error {
	s.once.Do(func() {
		s.c.mu.Lock()
		s.c.live--
		s.c.mu.Unlock()
	})
	return s.Endpoint.Close()
}

// rotations is a Source of n games, seats rotating, perDeal games to a
// deal (the deal seeds seed, seed+1, ...): no session may play two games
// of one deal. Game ids are prefix-gNN.
type rotations struct {
	n, perDeal int
	prefix     string
	seed       uint64
	next       int
}

func (s *rotations) Next() (run.Table, schedule.Status) {
	if s.next >= s.n {
		return run.Table{}, schedule.Done
	}
	i := s.next
	s.next++
	return run.Table{Game: schedule.Game{Seats: []int{i % 2, 1 - i%2}}, Index: i, GameID: fmt.Sprintf("%s-g%02d", s.prefix, i), Seed: s.seed + uint64(i/s.perDeal)}, schedule.Ready
}

func (s *rotations) Result(run.Table, ledger.Record) error { return nil }

// A bot that serves one session at once still plays every game of a
// deal (each on a fresh session, the played one closed to make room),
// and never has two sessions live, spares included.
func TestCapacityIsRespected(t *testing.T) {
	a := &capped{Launcher: membot.Launcher{Policy: membot.First}, cap: 1}
	cfg := config(t, &membot.Launcher{Policy: membot.First}, 1)
	cfg.Bots[0].Launcher = a
	res, err := run.Run(context.Background(), cfg, &rotations{n: 6, perDeal: 6, prefix: "d", seed: 7}, nil, &memorySink{})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := a.Launched()
	if res.Done != 6 || n != 6 {
		t.Errorf("%d games, %d sessions of the capped bot: want 6 and 6 (one per game of the deal)", res.Done, n)
	}
	if a.peak > 1 {
		t.Errorf("the capped bot had %d sessions live at once, over its 1", a.peak)
	}
}

// unitsOf is a UnitExecutor that plays each unit's games in turn with
// Local, noting the units it was given.
type unitsOf struct {
	*run.Local
	mu    sync.Mutex
	sizes []int
}

func (u *unitsOf) PlayUnit(ctx context.Context, unit []run.Table, done func(int, ledger.Record, run.Replay, error)) {
	u.mu.Lock()
	u.sizes = append(u.sizes, len(unit))
	u.mu.Unlock()
	for i, t := range unit {
		rec, rp, err := u.Play(ctx, t)
		done(i, rec, rp, err)
	}
}

// Run hands a UnitExecutor the games of one deal between the same bots
// together (pairs come as units of two, at every concurrency), and every
// game is counted.
func TestUnitsAreGathered(t *testing.T) {
	for _, tc := range []struct {
		concurrency int
		want        []int
	}{
		{1, []int{2, 2, 2}},
		{2, []int{2, 2, 2}},
		{4, []int{2, 2, 2}},
	} {
		t.Run(fmt.Sprint(tc.concurrency), func(t *testing.T) {
			cfg := config(t, &membot.Launcher{Policy: membot.First}, tc.concurrency)
			u := &unitsOf{Local: run.NewLocal(cfg, nil)}
			cfg.Executor = u
			pairs := &rotations{n: 6, perDeal: 2, prefix: "p", seed: 100} // games 2k and 2k+1 share a deal
			res, err := run.Run(context.Background(), cfg, pairs, nil, nil)
			if err != nil || res.Done != 6 {
				t.Fatalf("%v, %d games counted", err, res.Done)
			}
			if !slices.Equal(u.sizes, tc.want) {
				t.Errorf("units %v, want %v", u.sizes, tc.want)
			}
		})
	}
}

// groupSink is a memorySink made durable in groups: its lines count once
// SyncRecords returns; its syncs fail from failAt on.
type groupSink struct {
	memorySink
	syncs, failAt int
	durable       int // lines synced
}

var errSync = errors.New("sync failed")

func (s *groupSink) SyncReplays() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.syncs++; s.failAt > 0 && s.syncs >= s.failAt {
		return errSync
	}
	return nil
}

func (s *groupSink) SyncRecords() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.durable = len(s.lines)
	return nil
}

// At concurrency 1 with no stop rule, games that finish within syncEvery
// of the last group go to the syncer together (a game shorter than a
// sync no longer pays one of its own); with a stop rule, which sees each
// game before the next starts, every game is synced at once, alone.
func TestGroupsGatherShortGames(t *testing.T) {
	const games = 40
	for _, withRule := range []bool{false, true} {
		sink := &groupSink{}
		var stop run.StopRule
		if withRule {
			stop = &afterN{n: games + 1}
		}
		res, err := run.Run(context.Background(), config(t, &membot.Launcher{Policy: membot.First}, 1), &tables{n: games}, stop, sink)
		if err != nil || res.Done != games || sink.durable != games {
			t.Fatalf("stop rule %v: %v: %d counted, %d durable, want %d", withRule, err, res.Done, sink.durable, games)
		}
		if withRule && sink.syncs != games {
			t.Errorf("with a stop rule: %d syncs for %d games, want one each", sink.syncs, games)
		}
		if !withRule && sink.syncs >= games {
			t.Errorf("no stop rule: %d syncs for %d games, want games gathered into fewer groups", sink.syncs, games)
		}
		t.Logf("stop rule %v: %d games in %d groups", withRule, games, sink.syncs)
	}
}

// recordRule is afterN as a RecordRule: asked as each game finishes.
type recordRule struct{ afterN }

func (*recordRule) ByRecord() {}

// A RecordRule is asked as games finish, so at concurrency 1 the next game
// does not wait for the last one's sync (games are gathered into groups);
// its verdict still leaves exactly the games it saw counted, all durable,
// and no game started after it.
func TestRecordRuleJudgesBeforeSync(t *testing.T) {
	const games, verdictAt = 40, 30
	sink := &groupSink{}
	rule := &recordRule{afterN{n: verdictAt}}
	res, err := run.Run(context.Background(), config(t, &membot.Launcher{Policy: membot.First}, 1), &tables{n: games}, rule, sink)
	if err != nil || !res.Stopped {
		t.Fatalf("%v, stopped %v: want a verdict", err, res.Stopped)
	}
	if res.Done != verdictAt || res.Played != verdictAt || sink.durable != verdictAt || res.Abandoned != 0 {
		t.Errorf("%d counted, %d played, %d durable, %d abandoned: want %d, %d, %d, 0", res.Done, res.Played, sink.durable, res.Abandoned, verdictAt, verdictAt, verdictAt)
	}
	if sink.syncs >= verdictAt {
		t.Errorf("%d syncs for %d games: want games gathered into fewer groups", sink.syncs, verdictAt)
	}
}

// When the games a RecordRule judged cannot be made durable, the run's
// error stands, verdict or not.
func TestRecordRuleVerdictNeedsDurableGames(t *testing.T) {
	sink := &groupSink{failAt: 2}
	rule := &recordRule{afterN{n: 8}}
	res, err := run.Run(context.Background(), config(t, &membot.Launcher{Policy: membot.First}, 1), &tables{n: 8}, rule, sink)
	if !errors.Is(err, errSync) {
		t.Fatalf("got %v (stopped %v), want the sync's error", err, res.Stopped)
	}
	if res.Done != sink.durable {
		t.Errorf("%d counted, %d durable: want them equal", res.Done, sink.durable)
	}
}

// With a GroupSink, a game counts once its group is synced: all of them
// when the syncs succeed; when one fails, the run stops with the error
// and counts exactly the games made durable before it.
func TestGroupSinkCountsDurableGames(t *testing.T) {
	// 2: the first group goes to the syncer at once (there was none
	// before it), so the games after it make at least a second.
	for _, failAt := range []int{0, 1, 2} {
		t.Run(fmt.Sprint(failAt), func(t *testing.T) {
			sink := &groupSink{failAt: failAt}
			res, err := run.Run(context.Background(), config(t, &membot.Launcher{Policy: membot.First}, 2), &tables{n: 8}, nil, sink)
			if failAt == 0 {
				if err != nil || res.Done != 8 || sink.durable != 8 {
					t.Fatalf("%v: %d counted, %d durable, want 8", err, res.Done, sink.durable)
				}
				return
			}
			if !errors.Is(err, errSync) {
				t.Fatalf("got %v, want the sync's error", err)
			}
			if res.Done != sink.durable || res.Played != sink.durable {
				t.Errorf("%d counted, %d played, %d durable: want them equal", res.Done, res.Played, sink.durable)
			}
		})
	}
}
