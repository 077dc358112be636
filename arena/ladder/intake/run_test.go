package intake_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/sandbox"
)

// memLadder inits a ladder of ladderFile whose bundled bot is in
// memory: a command "arena bot random" would run this test binary.
func memLadder(t *testing.T) string {
	t.Helper()
	return initLadder(t, strings.Replace(ladderFile, "command: arena bot random", "command: mem:random", 1))
}

// running is a ladder run in the background, its intake polling often.
type running struct {
	mu     sync.Mutex
	played map[string]int // games counted, by bot version
	// counted is told (without blocking) of every game counted, for
	// await to look at played again.
	counted chan struct{}
	res     *ladder.Result
	err     error
	cancel  context.CancelFunc
	done    chan struct{}
}

func startRun(t *testing.T, dir string) *running {
	t.Helper()
	return startRunEvery(t, dir, 50*time.Millisecond)
}

// startRunEvery is startRun with its intake polling every every.
func startRunEvery(t *testing.T, dir string, every time.Duration) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{played: map[string]int{}, counted: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.res, r.err = ladder.Run(ctx, dir, ladder.RunOptions{Intake: intake.Take, IntakeEvery: every,
			OnGame: func(p ladder.Progress) {
				r.mu.Lock()
				defer r.mu.Unlock()
				for _, b := range p.Last.Bots {
					r.played[b]++
				}
				select {
				case r.counted <- struct{}{}:
				default: // await has one to see already
				}
			}})
	}()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// await waits until version name has played a game: it looks again
// each time a game is counted.
func (r *running) await(t *testing.T, name string) {
	t.Helper()
	r.awaitGames(t, name, 1)
}

// awaitGames waits until version name has played n games.
func (r *running) awaitGames(t *testing.T, name string, n int) {
	t.Helper()
	limit := time.NewTimer(90 * time.Second)
	defer limit.Stop()
	for {
		r.mu.Lock()
		played := r.played[name]
		r.mu.Unlock()
		if played >= n {
			return
		}
		select {
		case <-r.counted:
		case <-r.done:
			t.Fatalf("the run ended before %s played: %v", name, r.err)
		case <-limit.C:
			t.Fatalf("%s played %d games of %d in 90s", name, played, n)
		}
	}
}

func (r *running) stop(t *testing.T) *ladder.Result {
	t.Helper()
	r.cancel()
	<-r.done
	if r.err != nil {
		t.Fatalf("run: %v", r.err)
	}
	return r.res
}

// TestRunTakesSubmissions: a running ladder of one bundled bot (too few
// for a table: it waits) takes a submission in, which plays; a second
// version retires the first, which is not seated again; the live
// ratings equal a fold of the ledger.
func TestRunTakesSubmissions(t *testing.T) {
	t.Parallel()
	dir := memLadder(t)
	r := startRun(t, dir)
	submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
	r.await(t, "alice.v1")
	submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t) + "# v2\n"}, "python3 bot.py")
	r.await(t, "alice.v2")
	res := r.stop(t)

	recs, _, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if len(rec.Forfeits) > 0 {
			t.Errorf("game %s: forfeits %+v", rec.GameID, rec.Forfeits)
		}
	}
	first := slices.IndexFunc(recs, func(rec ledger.Record) bool { return slices.Contains(rec.Bots, "alice.v2") })
	for _, rec := range recs[first:] {
		if slices.Contains(rec.Bots, "alice.v1") {
			t.Errorf("game %s seats alice.v1 after alice.v2 replaced it", rec.GameID)
		}
	}
	b := roster(t, dir).Bot("alice")
	if b == nil || b.ActiveName() != "alice.v2" || !b.Versions[0].Retired {
		t.Errorf("alice in the roster: %+v", b)
	}
	st, err := ladder.ReadStandings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Check(res.Ratings); err != nil { // a fold of the ledger, as a resume makes it
		t.Errorf("live ratings differ from a fold of the %d games of the ledger: %v", len(recs), err)
	}
}

// TestRunHidesLadder: a submitted bot playing in the ladder cannot read
// the ladder's files (the deal secret, the ledger, the roster), where
// this machine can isolate bots. It tells what it could read on its
// stderr, which the run keeps in logs/.
func TestRunHidesLadder(t *testing.T) {
	t.Parallel()
	if _, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateYes}); err != nil {
		t.Skip("no isolation here: ", err)
	}
	dir := memLadder(t)
	var paths, quoted []string
	for _, name := range []string{"deal-secret", ledger.FileName, ladder.RosterName, ladder.FileName} {
		paths = append(paths, filepath.Join(dir, name))
		quoted = append(quoted, fmt.Sprintf("%q", paths[len(paths)-1]))
	}
	probe := fmt.Sprintf(`
def probe():
    for p in [%s]:
        try:
            open(p).read(1)
            sys.stderr.write("LEAK %%s\n" %% p)
        except Exception:
            sys.stderr.write("hidden %%s\n" %% p)
    sys.stderr.flush()

`, strings.Join(quoted, ", "))
	src := strings.Replace(goodBot(t), "\ndef main():", probe+"\ndef main():", 1)
	src = strings.Replace(src, "        if kind == \"hello\":\n", "        if kind == \"hello\":\n            probe()\n", 1)
	r := startRun(t, dir)
	submit(t, dir, "spy", map[string]string{"bot.py": src}, "python3 bot.py")
	r.await(t, "spy.v1")
	r.stop(t)

	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "spy.v1", "*.stderr.log"))
	if len(logs) == 0 {
		t.Fatal("spy.v1 left no stderr log")
	}
	for _, log := range logs {
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if !strings.Contains(string(data), "hidden "+p+"\n") {
				t.Errorf("%s does not say %s is hidden:\n%s", log, p, data)
			}
		}
	}
}
