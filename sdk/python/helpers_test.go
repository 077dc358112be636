package python

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/testkit"
)

// kitDir is a starter kit as `arena new python` will write it: a
// directory, open to other users (an isolated bot of a root arena runs as
// a uid of its own), holding arenabot.py and the given files.
func kitDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "arena-py-kit-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), Source, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// bot is a Python bot process driven line by line by a test: a scripted
// referee.
type bot struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *testkit.SyncBuffer
	done   chan struct{}
	err    error
}

// startBot runs python3 on script (the text of bot.py) in a kit directory.
func startBot(t testing.TB, script string, args ...string) *bot {
	t.Helper()
	py := testkit.Tool(t, "python3")
	dir := kitDir(t, map[string]string{"bot.py": script})
	cmd := exec.Command(py, append([]string{filepath.Join(dir, "bot.py")}, args...)...)
	cmd.Dir = dir
	b := &bot{t: t, cmd: cmd, lines: make(chan string, 1024), stderr: &testkit.SyncBuffer{}, done: make(chan struct{})}
	var err error
	if b.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			b.lines <- sc.Text()
		}
		close(b.lines)
		b.err = cmd.Wait()
		close(b.done)
	}()
	t.Cleanup(func() {
		b.stdin.Close()
		select {
		case <-b.done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-b.done
		}
	})
	return b
}

// send writes lines to the bot's stdin, each with its newline.
func (b *bot) send(lines ...string) {
	b.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(b.stdin, l+"\n"); err != nil {
			b.t.Fatalf("writing to the bot: %v (stderr: %s)", err, b.stderr)
		}
	}
}

// recv is the bot's next stdout line, failing the test after timeout.
func (b *bot) recv(timeout time.Duration) string {
	b.t.Helper()
	select {
	case l, ok := <-b.lines:
		if !ok {
			b.t.Fatalf("the bot closed stdout (stderr: %s)", b.stderr)
		}
		return l
	case <-time.After(timeout):
		b.t.Fatalf("no line from the bot within %v (stderr: %s)", timeout, b.stderr)
	}
	return ""
}

// exit waits for the bot to exit, within timeout, and returns its status
// with any stdout lines it wrote meanwhile.
func (b *bot) exit(timeout time.Duration) (int, []string) {
	b.t.Helper()
	select {
	case <-b.done:
	case <-time.After(timeout):
		b.t.Fatalf("the bot did not exit within %v (stderr: %s)", timeout, b.stderr)
	}
	var rest []string
	for l := range b.lines {
		rest = append(rest, l)
	}
	code := 0
	if b.err != nil {
		ee, ok := b.err.(*exec.ExitError)
		if !ok {
			b.t.Fatal(b.err)
		}
		code = ee.ExitCode()
	}
	return code, rest
}

// moduleRoot is the directory of go.mod.
func moduleRoot(t testing.TB) string { return testkit.ModuleRoot(t) }

// arena is the arena binary, built once for the package's tests.
func arena(t testing.TB) string { return testkit.Build(t, "./cmd/arena") }

func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

// lastLines is the end of a long output, for failure messages.
func lastLines(b []byte, n int) string {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// run runs the arena binary, failing the test unless it exits 0, and
// returns its standard output.
func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		out = append(out, stderr.Bytes()...)
		t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, lastLines(out, 30))
	}
	return string(out)
}
