package remote_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/internal/natstest"
	"github.com/arena-dev/arena/internal/testkit"
)

// keyed starts a server whose only users are the arena and the bots
// named, with keys made in a directory of the test's; it returns the URL
// and the directory.
func keyed(t *testing.T, bots ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range append([]string{remote.ArenaKey}, bots...) {
		if _, err := remote.AddKey(dir, name); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(filepath.Join(dir, bots[0]+remote.SeedExt))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("seed file mode %v: want 0600", info.Mode())
	}
	keys, err := remote.ReadKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	return natstest.Server(t, remote.ServerOptions{Keys: keys}), dir
}

// as connects with name's seed (the bot's own inbox prefix if it is a
// bot); violations, reported asynchronously, are counted.
func as(t *testing.T, url, dir, name string, violations *refusals) *nats.Conn {
	t.Helper()
	id := name
	if name == remote.ArenaKey {
		id = ""
	}
	opts, err := remote.ConnectOptions(remote.Client{Creds: filepath.Join(dir, name+remote.SeedExt), BotID: id})
	if err != nil {
		t.Fatal(err)
	}
	opts = append(opts, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) && violations != nil {
			violations.add()
		}
	}))
	return natstest.Dial(t, url, opts...)
}

// A bot with its own key plays; a bot that tries to listen to another
// bot's or the referee's subjects, or to speak for another bot, is
// refused by the server and receives nothing; no key, or a wrong one,
// cannot connect at all.
func TestBotPermissions(t *testing.T) {
	url, dir := keyed(t, "alice", "eve")
	arena := as(t, url, dir, remote.ArenaKey, nil)
	alice := as(t, url, dir, "alice", nil)
	refused := newRefusals()
	eve := as(t, url, dir, "eve", refused)

	// Eve listens wherever she can think of.
	var overheard atomic.Int64
	for _, subject := range []string{">", "arena.>", "arena.bot.alice.>", "arena.ref.>", "arena.ref.alice.>", "_INBOX.>", "_INBOX_alice.>"} {
		if _, err := eve.Subscribe(subject, func(*nats.Msg) { overheard.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}
	eve.Flush()

	serveOn(t, alice, "alice", 1, inMemory(membot.First))
	e, err := (&remote.Launcher{NC: arena, ID: "alice", Wait: 5 * time.Second}).Launch("alice", bot.LaunchOptions{})
	if err != nil {
		t.Fatalf("alice with her own key: %v", err)
	}
	if err := e.Send([]byte(`{"type":"hello","protocol":1,"game":"banqi","seat":0,"seats":2}`), time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	if line, err := e.Receive(time.Now().Add(5 * time.Second)); err != nil || string(line) != `{"type":"ready"}` {
		t.Fatalf("alice's ready: %q, %v", line, err)
	}
	// Eve speaks for alice, and for the referee.
	eve.Publish("arena.ref.alice.x", []byte(`{"type":"action","id":1,"index":0}`))
	eve.Publish("arena.bot.alice.open", []byte(`{}`))
	eve.Flush()
	e.Close()
	if n := refused.waitFor(9, 5*time.Second); n < 9 {
		t.Errorf("%d permission violations reported to eve, want 9 (7 subscriptions, 2 publishes)", n)
	}
	if n := overheard.Load(); n != 0 {
		t.Errorf("eve received %d messages", n)
	}

	// Without a key, nothing.
	if _, err := nats.Connect(url); !errors.Is(err, nats.ErrAuthorization) {
		t.Errorf("no key: %v, want an authorization violation", err)
	}
}

// A second server of one bot id is refused while the first serves it,
// and of servers started at the same moment exactly one serves.
func TestSecondServerOfABotIsRefused(t *testing.T) {
	url := server(t)
	serve(t, url, "solo", 1, membot.First)
	srv := remote.Server{NC: connect(t, url), ID: "solo", Start: func(bot.LaunchOptions) (bot.Endpoint, error) {
		return nil, errors.New("not reached")
	}}
	if err := srv.Serve(context.Background()); !errors.Is(err, remote.ErrServedElsewhere) {
		t.Fatalf("got %v, want ErrServedElsewhere", err)
	}

	const n = 6
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	claimed, refused := make(chan int, n), make(chan error, n)
	for i := range n {
		srv := remote.Server{NC: connect(t, url), ID: "twin", Start: inMemory(membot.First), Claimed: func() { claimed <- i }}
		go func() { refused <- srv.Serve(ctx) }()
	}
	for range n - 1 {
		if err := <-refused; !errors.Is(err, remote.ErrServedElsewhere) {
			t.Fatalf("got %v, want ErrServedElsewhere", err)
		}
	}
	select {
	case <-claimed:
	case err := <-refused:
		t.Fatalf("none of %d servers started together serves: the last returned %v", n, err)
	}
	cancel()
	if err := <-refused; !errors.Is(err, context.Canceled) {
		t.Errorf("the server that won: %v", err)
	}
	if len(claimed) != 0 {
		t.Errorf("%d more servers claimed the bot", len(claimed))
	}
}

// A bot that keeps trying forbidden subjects is logged, but a thousand
// attempts make a handful of lines, not a thousand.
func TestViolationsAreLoggedRateLimited(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{remote.ArenaKey, "eve"} {
		if _, err := remote.AddKey(dir, n); err != nil {
			t.Fatal(err)
		}
	}
	keys, _ := remote.ReadKeys(dir)
	var log testkit.SyncBuffer
	url := natstest.Server(t, remote.ServerOptions{Keys: keys, Violations: &log})
	refused := newRefusals()
	eve := as(t, url, dir, "eve", refused)
	for i := range 1000 {
		eve.Publish(fmt.Sprintf("arena.ref.alice.s%d", i), []byte("x"))
	}
	eve.Flush()
	refused.waitFor(1000, 10*time.Second)
	lines := strings.Count(log.String(), "\n")
	if lines == 0 || lines > 5 || !strings.Contains(log.String(), "Publish Violation") || !strings.Contains(log.String(), "key eve") {
		t.Fatalf("%d attempts refused, %d log lines: %q", refused.count(), lines, log.String())
	}
	t.Logf("%d violations, %d lines: %s", refused.count(), lines, strings.SplitN(log.String(), "\n", 2)[0])
}

// With a store directory the server runs JetStream there, within bounds:
// a stream can be made, and its files are in that directory.
func TestServerJetStreamStore(t *testing.T) {
	dir := t.TempDir()
	ns, err := remote.StartServer(remote.ServerOptions{StoreDir: dir, MaxStore: 64 << 20, MaxMemory: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	nc := connect(t, ns.ClientURL())
	js, err := nc.JetStream()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.AddStream(&nats.StreamConfig{Name: "PROBE", Subjects: []string{"probe.>"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish("probe.x", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if cfg := ns.JetStreamConfig(); cfg == nil || cfg.MaxStore != 64<<20 || cfg.MaxMemory != 16<<20 {
		t.Errorf("JetStream %+v: want 64 MiB on disk, 16 MiB in memory", cfg)
	}
	if _, err := os.Stat(filepath.Join(dir, "jetstream")); err != nil {
		t.Errorf("no store in %s: %v", dir, err)
	}
}

// refusals counts the permission violations a client is told of, which
// arrive asynchronously, and lets a test wait for them.
type refusals struct {
	mu   sync.Mutex
	n    int
	more chan struct{} // a token after each one
}

func newRefusals() *refusals { return &refusals{more: make(chan struct{}, 1)} }

func (r *refusals) add() {
	r.mu.Lock()
	r.n++
	r.mu.Unlock()
	select {
	case r.more <- struct{}{}:
	default:
	}
}

func (r *refusals) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// waitFor waits until n have arrived, or limit has passed; it returns
// how many have.
func (r *refusals) waitFor(n int, limit time.Duration) int {
	timeout := time.After(limit)
	for {
		if c := r.count(); c >= n {
			return c
		}
		select {
		case <-r.more:
		case <-timeout:
			return r.count()
		}
	}
}

// TestAddBot: the first bot's key brings the arenas' key with it; later
// ones do not; a bad id, and a bot whose key is there, are refused.
func TestAddBot(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		id        string
		arenaSeed bool
		exists    bool // refused: ErrKeyExists
		badID     bool // refused: CheckID's error
	}{
		{id: "alice", arenaSeed: true},
		{id: "bob"},
		{id: "alice", exists: true},
		{id: "no spaces", badID: true},
	}
	for _, tc := range tests {
		arenaSeed, seed, err := remote.AddBot(dir, tc.id)
		refused := tc.exists || tc.badID
		if (arenaSeed != "") != tc.arenaSeed || refused != (err != nil) || tc.exists != errors.Is(err, remote.ErrKeyExists) ||
			(!refused && seed != filepath.Join(dir, tc.id+remote.SeedExt)) {
			t.Fatalf("AddBot(%q) = %q, %q, %v", tc.id, arenaSeed, seed, err)
		}
	}
	keys, err := remote.ReadKeys(dir)
	if err != nil || len(keys) != 3 {
		t.Fatalf("ReadKeys: %d keys (%v), want the arenas', alice's and bob's", len(keys), err)
	}
}
