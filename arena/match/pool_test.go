package match_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/match"
)

// TestGameLogStaysInMemoryUntilTheGameEnds: what a bot writes to stderr
// during a game reaches no file an opponent could read before the game
// is over; then it is all there, and so is what follows until the next game.
func TestGameLogStaysInMemoryUntilTheGameEnds(t *testing.T) {
	t.Parallel()
	pool := match.NewPool([]match.Bot{{Name: "talker", Argv: []string{"sh", "-c", "read x; echo my hand is secret >&2; read x; echo after the game >&2; sleep 5"}}}, 0, 0)
	defer pool.KillAll()
	conn, proc := pool.Get(0)
	if proc == nil {
		t.Fatal("not started")
	}
	log := filepath.Join(t.TempDir(), "g1.stderr.log")
	if err := pool.AttachLog(proc, log); err != nil {
		t.Fatal(err)
	}
	conn.Send([]byte("start"), time.Now().Add(time.Second))
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(proc.StderrTail(), "secret"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the bot wrote nothing")
		}
	}
	if b, _ := os.ReadFile(log); len(b) != 0 {
		t.Fatalf("a running game's log is on disk: %q", b)
	}
	pool.Put(0, proc, false)
	if b, _ := os.ReadFile(log); string(b) != "my hand is secret\n" {
		t.Fatalf("log after the game: %q", b)
	}
	conn.Send([]byte("x"), time.Now().Add(time.Second))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if b, _ := os.ReadFile(log); strings.Contains(string(b), "after the game") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("what the bot wrote after the game did not reach its log")
		}
	}
}
