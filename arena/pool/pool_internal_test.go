package pool

import (
	"os"
	"path/filepath"
	"testing"
)

// A spare's start-up output, held in a log without a path, goes to the
// front of its first game's log, before what the game's log already has.
func TestGameLogPrepend(t *testing.T) {
	pre := &gameLog{}
	pre.Write([]byte("loading model\n"))
	path := filepath.Join(t.TempDir(), "g.stderr.log")
	game := &gameLog{path: path, open: File(path).Open}
	game.Write([]byte("thinking\n"))
	game.prepend(pre)
	pre.close()
	pre.Write([]byte("late\n")) // dropped: pre is closed
	game.close()
	if b, _ := os.ReadFile(path); string(b) != "loading model\nthinking\n" {
		t.Fatalf("log %q", b)
	}
	// A log that never got a game keeps nothing.
	lone := &gameLog{}
	lone.Write([]byte("x"))
	lone.flush()
	if lone.buf.Len() != 0 || !lone.done {
		t.Fatalf("a pathless log kept %d bytes after flush", lone.buf.Len())
	}
}
