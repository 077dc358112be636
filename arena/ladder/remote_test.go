package ladder_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/internal/natstest"
	"github.com/arena-dev/arena/internal/testkit"
)

func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

// connectProc is a real arena connect serving bot id with the bundled
// random bot, in a process group of its own (killed whole).
func connectProc(t *testing.T, arena, url, id string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(arena, "connect", "--nats", url, "--bot", id, "--sessions", "2", "-q", "--", arena, "bot", "random")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr testkit.SyncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	return cmd
}

// remoteLog follows a ladder run's games, for the test's goroutine:
// each game counted, and who forfeited it.
type remoteLog struct {
	mu    sync.Mutex
	games []ledger.Record
	moved chan struct{} // a game was counted
}

func (r *remoteLog) add(rec ledger.Record) {
	r.mu.Lock()
	r.games = append(r.games, rec)
	r.mu.Unlock()
	select {
	case r.moved <- struct{}{}:
	default:
	}
}

// await waits until cond holds of the games so far (from index from).
func (r *remoteLog) await(t *testing.T, what string, cond func([]ledger.Record) bool) int {
	t.Helper()
	limit := time.After(2 * time.Minute) // a bound on a hang, not a measure
	for {
		r.mu.Lock()
		n, ok := len(r.games), cond(r.games)
		r.mu.Unlock()
		if ok {
			return n
		}
		select {
		case <-r.moved:
		case <-limit:
			t.Fatalf("%s: not after %d games", what, n)
		}
	}
}

// plays counts the games of recs bot played (in a seat) and forfeited.
func plays(recs []ledger.Record, name string) (played, forfeited int) {
	for _, r := range recs {
		for _, b := range r.Bots {
			if b == name {
				played++
			}
		}
		for _, f := range r.Forfeits {
			if f.Bot == name {
				forfeited++
			}
		}
	}
	return played, forfeited
}

// A ladder's remote bot (nats:alice in the ladder file) plays while a
// real arena connect serves it. Its server is killed: the ladder goes on
// with the others, alice's games in play end as forfeits, no table is
// made for it while nobody serves it, and it is not suspended (even at
// max_startup_failures 1). Served again, it plays again.
func TestRunRemoteBot(t *testing.T) {
	t.Parallel()
	arena := testkit.Build(t, "./cmd/arena")
	url := natstest.Server(t, remote.ServerOptions{})
	file := filepath.Join(t.TempDir(), "ladder.yaml")
	yaml := "name: cup\ngame: uno\nseats: 2\nseed: 7\nconcurrency: 2\nclock:\n  move: 5s\n  startup: 5s\nfailure:\n  max_startup_failures: 1\nbots:\n" +
		"  - {name: b0, command: 'mem:random'}\n  - {name: b1, command: 'mem:first'}\n  - {name: alice, command: 'nats:alice'}\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		t.Fatal(err)
	}
	nc := natstest.Dial(t, url)
	presence, err := remote.NewPresence(nc, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer presence.Close()
	binding := &remote.Binding{NC: nc, Wait: 5 * time.Second, Grace: 500 * time.Millisecond, Presence: presence}
	server := connectProc(t, arena, url, "alice")

	log := &remoteLog{moved: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var res *ladder.Result
	done := make(chan error, 1)
	go func() {
		var err error
		res, err = ladder.Run(ctx, dir, ladder.RunOptions{Presence: presence,
			Bindings: bot.Bindings{remote.SchemeName: binding},
			OnGame:   func(p ladder.Progress) { log.add(p.Last) }})
		done <- err
	}()
	const alice = "alice.v1"
	playedClean := func(n int) func([]ledger.Record) bool {
		return func(recs []ledger.Record) bool { p, f := plays(recs, alice); return p-f >= n }
	}
	log.await(t, "alice plays", playedClean(2))

	syscall.Kill(-server.Process.Pid, syscall.SIGKILL)
	server.Wait()
	killed := log.await(t, "killed", func([]ledger.Record) bool { return true })
	away := log.await(t, "the others play on", func(recs []ledger.Record) bool { return len(recs) >= killed+30 })
	log.mu.Lock()
	after := append([]ledger.Record(nil), log.games[killed:away]...)
	log.mu.Unlock()
	// Its games in play when its server died (one unit: two games) are
	// its forfeits; then no table seats it.
	p, f := plays(after, alice)
	t.Logf("after the kill: %d games, alice in %d, forfeited %d", len(after), p, f)
	if p > 2 || f > 2 {
		t.Errorf("in the %d games after its server was killed alice played %d and forfeited %d; want at most its unit in play (2)", len(after), p, f)
	}

	connectProc(t, arena, url, "alice")
	back := log.await(t, "alice served again", func(recs []ledger.Record) bool { p, f := plays(recs[away:], alice); return p-f >= 2 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	recs := checkLedger(t, dir, res)
	if len(recs) < back {
		t.Errorf("ledger: %d games, the run counted %d", len(recs), back)
	}
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if b := l.Roster.State().Bot("alice"); b == nil || b.Status != ladder.StatusActive {
		t.Errorf("alice after being away: %+v; want active, not suspended", b)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ladder.RosterName))
	if strings.Contains(string(data), fmt.Sprintf(`"event":%q`, ladder.Suspended)) {
		t.Errorf("the roster log suspends a bot:\n%s", data)
	}
}
