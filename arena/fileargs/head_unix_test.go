//go:build unix

package fileargs_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/fileargs"
)

// TestHead: the start of a regular file, and nothing of what is not one:
// a directory, a file that is not there, and a FIFO, whose open would
// wait for a writer that never comes.
func TestHead(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(script, []byte("#!/usr/bin/env python3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.py")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{script, "#!/usr/bin/env python3\n"},
		{dir, ""},
		{filepath.Join(dir, "nope"), ""},
		{fifo, ""},
	} {
		done := make(chan []byte, 1)
		go func() { done <- fileargs.Head(tc.path) }()
		select {
		case head := <-done:
			if string(head) != tc.want || (head == nil) != (tc.want == "") {
				t.Errorf("Head(%s) = %q, want %q", tc.path, head, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Head(%s) still waits after 10 s", tc.path)
		}
	}
}
