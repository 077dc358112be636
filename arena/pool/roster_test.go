package pool_test

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/internal/proctest"
)

// TestAddAndRetire: a bot added to a running pool gets the next index
// and plays; a retired bot's idle processes are gone when Retire
// returns, its process in a game is closed when given back, no other
// bot's is touched, and it is never started again (ErrRetired), its
// index never reused.
func TestAddAndRetire(t *testing.T) {
	t.Parallel()
	bots := waiters(t, "a")
	pl := pool.New(bots, bot.LaunchOptions{})
	pl.Spare = 4
	defer pl.KillAll()
	// Each added bot's processes carry a token of their own, so that the
	// test can tell whose are left.
	token := func(name string) string {
		return fmt.Sprintf("ARENA_POOL_ROSTER=%d-%s-%d", os.Getpid(), name, tokens.Add(1))
	}
	tb, tc := token("b"), token("c")
	// cat itself, not through sh: a process the test counts is the one
	// the pool started from the moment Get returns (a shell's exec of
	// cat would leave a moment in which neither shows its environment).
	b := pl.Add(stdio.Command{Name: "b", Argv: []string{"cat"}, Env: []string{tb}}.Spec())
	c := pl.Add(stdio.Command{Name: "c", Argv: []string{"cat"}, Env: []string{tc}}.Spec())
	if b != 1 || c != 2 {
		t.Fatalf("Add gave indices %d, %d: want 1, 2", b, c)
	}
	get := func(bot int, deal uint64) bot.Endpoint {
		t.Helper()
		proc, err := pl.Get(bot, deal)
		if err != nil {
			t.Fatalf("Get(%d, %d): %v", bot, deal, err)
		}
		return proc
	}
	// b: one process idle, one in a game; a and c one idle each.
	pa, pb1, pb2, pc := get(0, 1), get(b, 1), get(b, 2), get(c, 1)
	pl.Put(0, pa, false)
	pl.Put(b, pb1, false)
	pl.Put(c, pc, false)
	if n := len(proctest.WithEnv(tb)); n != 2 {
		t.Fatalf("%d processes of b before Retire: want 2", n)
	}

	pl.Retire(b)
	if left := proctest.WithEnv(tb); len(left) != 1 {
		t.Fatalf("processes of b after Retire: %v, want only the one in a game", left)
	}
	if pb2.Send([]byte("still playing"), time.Now().Add(time.Second)) != nil {
		t.Error("Retire closed a process in a game")
	}
	pl.Put(b, pb2, false)
	if left := proctest.WithEnv(tb); len(left) != 0 {
		t.Errorf("processes of b after its game: %v, want none", left)
	}
	if proc, err := pl.Get(b, 3); !errors.Is(err, pool.ErrRetired) || proc != nil {
		t.Errorf("Get of a retired bot = %v, %v: want ErrRetired", proc, err)
	}
	if pl.Claim([]int{b}, 4) {
		t.Error("Claim holds a process of a retired bot")
	}
	if d := pl.Add(stdio.Command{Name: "d", Argv: []string{"sh", "-c", "exec cat >/dev/null"}, Env: []string{token("d")}}.Spec()); d != 3 {
		t.Errorf("Add after Retire gave index %d: want 3 (a retired index is never reused)", d)
	}
	// The other bots' idle processes are still there and play on.
	if n := len(proctest.WithEnv(tc)); n != 1 {
		t.Errorf("%d processes of c after b's Retire: want 1", n)
	}
	if p := get(c, 2); p != pc {
		t.Error("c's idle process was not reused")
	} else {
		pl.Put(c, p, false)
	}
	if _, err := pl.Get(9, 1); err == nil {
		t.Error("Get of a bot never added: want an error")
	}
	if st := pl.Stats(); st.InGame != 0 {
		t.Errorf("pool stats %+v: want nothing in games", st)
	}
	pl.KillAll()
	if left := proctest.WithEnv(tc); len(left) != 0 {
		t.Errorf("processes of c after KillAll: %v", left)
	}
}

// TestRetireClosesItsSpare: a bot's spare started ahead (idle, or still
// on its way) when it is retired is closed too, by the time Retire
// returns.
func TestRetireClosesItsSpare(t *testing.T) {
	t.Parallel()
	token := fmt.Sprintf("ARENA_POOL_ROSTER=%d-spare-%d", os.Getpid(), tokens.Add(1))
	pl := pool.New(nil, bot.LaunchOptions{})
	pl.Spare, pl.OneGame = 2, true // every Get starts the bot's next process ahead
	defer pl.KillAll()
	// cat itself: no child of its own (a process a bot forks dies after
	// the bot is reaped: its group is killed, not waited for) and no
	// shell's exec, in which its environment cannot be read.
	b := pl.Add(stdio.Command{Name: "spare", Argv: []string{"cat"}, Env: []string{token}}.Spec())
	proc, err := pl.Get(b, 1)
	if err != nil {
		t.Fatal(err)
	}
	pl.Retire(b) // the spare is on its way
	if left := proctest.WithEnv(token); len(left) != 1 {
		t.Errorf("processes after Retire: %v, want only the one in a game", left)
	}
	pl.Put(b, proc, false)
	pl.KillAll()
	if left := proctest.WithEnv(token); len(left) != 0 {
		t.Errorf("processes left: %v", left)
	}
}
