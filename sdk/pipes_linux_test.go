package sdk

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/arena-dev/arena/protocol"
)

// botPipes are a bot's stdin and stdout as the arena gives them: blocking
// pipe ends (not the os package's pollable ones), and the test's ends.
type botPipes struct {
	stdin, stdout *os.File // the bot's
	toBot         *os.File
	fromBot       *bufio.Reader
	fromBotFile   *os.File
}

func newBotPipes(t *testing.T) *botPipes {
	var in, out [2]int
	if err := syscall.Pipe2(in[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	p := &botPipes{stdin: os.NewFile(uintptr(in[0]), "stdin"), stdout: os.NewFile(uintptr(out[1]), "stdout"),
		toBot: os.NewFile(uintptr(in[1]), "to-bot"), fromBotFile: os.NewFile(uintptr(out[0]), "from-bot")}
	p.fromBot = bufio.NewReader(p.fromBotFile)
	t.Cleanup(func() {
		for _, f := range []*os.File{p.stdin, p.stdout, p.toBot, p.fromBotFile} {
			f.Close()
		}
	})
	return p
}

// nonblocking reports whether f's pipe is in non-blocking mode.
func nonblocking(t *testing.T, f *os.File) bool {
	conn, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags uintptr
	var errno syscall.Errno
	conn.Control(func(fd uintptr) { flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0) })
	if errno != 0 {
		t.Fatal(errno)
	}
	return flags&syscall.O_NONBLOCK != 0
}

// turnLine is a small turn line with id and two legal actions.
func turnLine(id int) string {
	return fmt.Sprintf(`{"type":"turn","id":%d,"view":{"n":%d},"legal":["a","b"],"clock":{"move_ms":1000}}`+"\n", id, id)
}

// Run on a bot's pipes serves them through the poller (non-blocking while
// it runs), answers every turn, and leaves them as it found them: blocking.
func TestRunServesPipesAndRestoresThem(t *testing.T) {
	p := newBotPipes(t)
	done := make(chan error, 1)
	go func() {
		done <- Run(p.stdin, p.stdout, Func(func(t *protocol.Turn) (int, error) { return 1, nil }), Options{Log: io.Discard})
	}()
	io.WriteString(p.toBot, `{"type":"hello","protocol":1,"game":"uno","seat":0,"seats":2}`+"\n")
	if line, err := p.fromBot.ReadString('\n'); err != nil || !strings.HasPrefix(line, `{"type":"ready"`) {
		t.Fatalf("ready: %q, %v", line, err)
	}
	if !nonblocking(t, p.stdin) || !nonblocking(t, p.stdout) {
		t.Error("Run does not serve the pipes through the poller")
	}
	for id := 1; id <= 100; id++ {
		io.WriteString(p.toBot, turnLine(id))
		want := fmt.Sprintf(`{"type":"action","id":%d,"index":1}`+"\n", id)
		if line, err := p.fromBot.ReadString('\n'); err != nil || line != want {
			t.Fatalf("turn %d: %q, %v, want %q", id, line, err, want)
		}
	}
	io.WriteString(p.toBot, `{"type":"bye"}`+"\n")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if nonblocking(t, p.stdin) || nonblocking(t, p.stdout) {
		t.Error("Run left its pipes non-blocking")
	}
}

// fSetPipeSize is F_SETPIPE_SZ (Linux), which the syscall package lacks.
const fSetPipeSize = 1031

// A reader slower than the bot fills its stdout: Run waits for room and
// loses no byte. The stdout pipe is shrunk to a page so that the replies
// to turns queued up on stdin fill it many times over.
func TestRunWaitsForRoomOnAFullStdout(t *testing.T) {
	p := newBotPipes(t)
	var errno syscall.Errno
	conn, _ := p.stdout.SyscallConn()
	conn.Control(func(fd uintptr) { _, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, 4096) })
	if errno != 0 {
		t.Fatal(errno)
	}
	const turns = 1000 // replies of ~35 bytes: 35 KB through 4 KB
	var in strings.Builder
	for id := 1; id <= turns; id++ {
		in.WriteString(turnLine(id))
	}
	in.WriteString(`{"type":"bye"}` + "\n")
	go io.WriteString(p.toBot, in.String())
	done := make(chan error, 1)
	go func() {
		done <- Run(p.stdin, p.stdout, Func(func(t *protocol.Turn) (int, error) { return 0, nil }), Options{Log: io.Discard})
	}()
	// Wait until the bot has filled its stdout, so that it waits for room.
	for deadline := time.Now().Add(10 * time.Second); pipeBytes(t, p.fromBotFile) < 4096-64; {
		if time.Now().After(deadline) {
			t.Fatalf("stdout holds %d bytes, never full", pipeBytes(t, p.fromBotFile))
		}
		time.Sleep(time.Millisecond)
	}
	for id := 1; id <= turns; id++ {
		want := fmt.Sprintf(`{"type":"action","id":%d,"index":0}`+"\n", id)
		if line, err := p.fromBot.ReadString('\n'); err != nil || line != want {
			t.Fatalf("reply %d: %q, %v, want %q", id, line, err, want)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// pipeBytes is how many bytes wait in f's pipe (FIONREAD).
func pipeBytes(t *testing.T, f *os.File) int {
	conn, _ := f.SyscallConn()
	var n int32
	var errno syscall.Errno
	conn.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	})
	if errno != 0 {
		t.Fatal(errno)
	}
	return int(n)
}

// A referee gone away: Run's write fails with EPIPE, as the os package's
// would for a file that is not stdout or stderr (for those the process
// ends by SIGPIPE, as any Go program's).
func TestRunReportsAClosedStdout(t *testing.T) {
	p := newBotPipes(t)
	p.fromBotFile.Close()
	io.WriteString(p.toBot, `{"type":"hello","protocol":1,"game":"uno","seat":0,"seats":2}`+"\n")
	err := Run(p.stdin, p.stdout, Func(func(t *protocol.Turn) (int, error) { return 0, nil }), Options{Log: io.Discard})
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Run: %v, want EPIPE", err)
	}
}
