//go:build unix

package stdio_test

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/stdio"
)

// TestParseCommandDoesNotReadAFIFO: a program that is a FIFO (a process
// substitution's /dev/fd/N, say) is judged without being read: opening
// it would wait for a writer that never comes, and the arena with it.
func TestParseCommandDoesNotReadAFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "bot.py")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := stdio.ParseCommand(fifo, "")
		done <- err
	}()
	select {
	case err := <-done:
		t.Logf("%s: %v", fifo, err)
	case <-time.After(10 * time.Second):
		t.Fatalf("ParseCommand(%s) still waits after 10 s: it opened the FIFO", fifo)
	}
}
