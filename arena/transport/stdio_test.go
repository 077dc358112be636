//go:build linux

package transport_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/proctest"
	"github.com/arena-dev/arena/internal/testkit"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

const (
	envBot   = "ARENA_TEST_BOT"
	envToken = "ARENA_TEST_TOKEN"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envBot); mode != "" {
		os.Exit(helper(mode))
	}
	// Orphaned grandchildren are re-parented here (not to PID 1, which may
	// never reap them), so the process-group test can reap them and read
	// how they died.
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0); errno != 0 {
		fmt.Fprintln(os.Stderr, "warning: PR_SET_CHILD_SUBREAPER:", errno)
	}
	os.Exit(m.Run())
}

// helper is the child side of the tests.
func helper(mode string) int {
	name, arg, _ := strings.Cut(mode, ":")
	n, _ := strconv.Atoi(arg)
	switch name {
	case "conntest":
		return conntestBot(arg)
	case "exit":
		return n
	case "noread", "sleeper":
		time.Sleep(time.Hour)
		return 0
	case "one-line-exit":
		os.Stdout.WriteString("last words\n")
		return 5
	case "close-then-exit":
		// Its stdout closed, an exit that takes a while: as a loaded
		// machine's reaping of a sandboxed bot does.
		os.Stdout.Close()
		time.Sleep(time.Duration(n) * time.Millisecond)
		return 4
	case "long":
		os.Stdout.WriteString(strings.Repeat("a", n) + "\nafter\n")
		time.Sleep(time.Hour)
		return 0
	case "flood-stdout":
		line := []byte(strings.Repeat("f", 1000) + "\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				return 1
			}
		}
	case "ignore-eof":
		io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour)
		return 0
	case "fork":
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), envBot+"=sleeper")
		if err := cmd.Start(); err != nil {
			return 1
		}
		fmt.Printf("%d\n", cmd.Process.Pid)
	}
	// echo, with commands.
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		line := sc.Text()
		cmd, rest, _ := strings.Cut(line, " ")
		switch cmd {
		case "exit":
			code, _ := strconv.Atoi(rest)
			return code
		case "stderr":
			k, _ := strconv.Atoi(rest)
			os.Stderr.Write(bytes.Repeat([]byte("e"), k))
			line = "ok"
		case "say-stderr":
			os.Stderr.WriteString(rest)
			line = "ok"
		}
		if _, err := os.Stdout.WriteString(line + "\n"); err != nil {
			return 1
		}
	}
	return 0
}

var tokenSeq atomic.Int64

// start runs a helper and registers cleanup: Close, the process reaped,
// and no process of this test left alive (polling /proc up to 5s).
func start(t *testing.T, mode string, cfg transport.ProcessConfig) *transport.Process {
	t.Helper()
	token := fmt.Sprintf("s%d-%d", os.Getpid(), tokenSeq.Add(1))
	cfg.Argv = []string{os.Args[0]}
	// GORACE: a race-enabled helper would otherwise sleep 1s at exit.
	cfg.Env = append(os.Environ(), envBot+"="+mode, envToken+"="+token, "GORACE=atexit_sleep_ms=0")
	p, err := transport.Start(cfg)
	if err != nil {
		t.Fatalf("Start %s: %v", mode, err)
	}
	t.Cleanup(func() {
		p.Close()
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.Pid())); err == nil {
			t.Errorf("helper %d still in the process table after Close", p.Pid())
		}
		want := []byte(envToken + "=" + token)
		for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
			left := procsWithEnv(want)
			if len(left) == 0 {
				return
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("processes survived the test: %v", left)
				return
			}
		}
	})
	return p
}

func procsWithEnv(kv []byte) []int { return proctest.WithEnv(string(kv)) }

func recvString(t *testing.T, p *transport.Process) string {
	t.Helper()
	b, err := p.Receive(in(10 * time.Second))
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	return string(b)
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	p := start(t, "echo", transport.ProcessConfig{})
	var first []byte
	for i := range 200 {
		msg := fmt.Sprintf(`{"n":%d}`, i)
		if err := p.Send([]byte(msg), in(10*time.Second)); err != nil {
			t.Fatalf("Send %d: %v", i, err)
		}
		b, err := p.Receive(in(10 * time.Second))
		if err != nil {
			t.Fatalf("Receive %d: %v", i, err)
		}
		if string(b) != msg {
			t.Fatalf("got %q, want %q", b, msg)
		}
		if i == 0 {
			first = b
		}
	}
	if string(first) != `{"n":0}` {
		t.Errorf("the first line returned was overwritten: %q (Receive must return an owned slice)", first)
	}
	// A \r before the newline is not part of the line.
	p.Send([]byte("crlf\r"), in(10*time.Second))
	if got := recvString(t, p); got != "crlf" {
		t.Errorf("got %q, want %q", got, "crlf")
	}
}

func TestReceiveTimeout(t *testing.T) {
	t.Parallel()
	p := start(t, "echo", transport.ProcessConfig{})
	t0 := time.Now()
	_, err := p.Receive(in(100 * time.Millisecond))
	if el := time.Since(t0); !errors.Is(err, transport.ErrTimeout) || el < 100*time.Millisecond || el > 3*time.Second {
		t.Fatalf("Receive of a silent bot: %v after %v, want ErrTimeout after 100ms", err, el)
	}
	if _, err := p.Receive(time.Now().Add(-time.Second)); !errors.Is(err, transport.ErrTimeout) {
		t.Fatalf("Receive with a past deadline: %v", err)
	}
	// The connection (and its timer) still works after timeouts.
	for i := range 3 {
		p.Send([]byte("again"), in(10*time.Second))
		if got := recvString(t, p); got != "again" {
			t.Fatalf("round %d: got %q", i, got)
		}
	}
}

func TestExitStatus(t *testing.T) {
	t.Parallel()
	p := start(t, "exit:3", transport.ProcessConfig{})
	_, err := p.Receive(in(10 * time.Second))
	if !errors.Is(err, transport.ErrClosed) || !strings.Contains(err.Error(), "stdout closed") {
		t.Fatalf("Receive from an exited bot: %v", err)
	}
	<-p.Exited()
	_, err = p.Receive(in(10 * time.Second))
	if !errors.Is(err, transport.ErrClosed) || !strings.Contains(err.Error(), "exited with status 3") {
		t.Errorf("second Receive: %v, want ErrClosed naming status 3", err)
	}
	err = p.Send([]byte("x"), in(10*time.Second))
	if !errors.Is(err, transport.ErrClosed) || !strings.Contains(err.Error(), "exited with status 3") {
		t.Errorf("Send to an exited bot: %v", err)
	}
}

// TestEOFSaysHowTheBotEnded: a read that meets the end of a bot's output
// waits for its exit to say how it ended, however short the read's own
// deadline (arena connect polls its bot's output every 50 ms): a crash
// is worded the same whatever the load and whoever reads.
func TestEOFSaysHowTheBotEnded(t *testing.T) {
	t.Parallel()
	p := start(t, "close-then-exit:300", transport.ProcessConfig{})
	var err error
	for {
		_, err = p.Receive(in(20 * time.Millisecond))
		if !errors.Is(err, transport.ErrTimeout) {
			break
		}
	}
	var ce *transport.ClosedError
	if !errors.As(err, &ce) || !strings.Contains(ce.Detail, "exited with status 4") {
		t.Fatalf("Receive with a 20 ms deadline from a bot that closed its stdout 300 ms before exiting: %v; want its exit status", err)
	}
}

func TestKilledBySignal(t *testing.T) {
	t.Parallel()
	p := start(t, "echo", transport.ProcessConfig{})
	syscall.Kill(p.Pid(), syscall.SIGTERM)
	<-p.Exited()
	_, err := p.Receive(in(10 * time.Second))
	if !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Receive: %v", err)
	}
	_, err = p.Receive(in(10 * time.Second))
	if !errors.Is(err, transport.ErrClosed) || !strings.Contains(err.Error(), "killed by signal terminated") {
		t.Errorf("Receive after SIGTERM: %v", err)
	}
}

// TestSendToNonReader: a bot that never reads cannot block the referee:
// Send gives up at its deadline.
func TestSendToNonReader(t *testing.T) {
	t.Parallel()
	p := start(t, "noread", transport.ProcessConfig{})
	big := bytes.Repeat([]byte("z"), 4<<20)
	t0 := time.Now()
	err := p.Send(big, in(200*time.Millisecond))
	if el := time.Since(t0); !errors.Is(err, transport.ErrTimeout) || el > 3*time.Second {
		t.Fatalf("Send to a bot that does not read: %v after %v, want ErrTimeout at ~200ms", err, el)
	}
}

func TestLineLimit(t *testing.T) {
	t.Parallel()
	t.Run("at limit", func(t *testing.T) {
		t.Parallel()
		p := start(t, "long:1024", transport.ProcessConfig{MaxLine: 1024})
		if got := recvString(t, p); len(got) != 1024 {
			t.Fatalf("got %d bytes, want 1024", len(got))
		}
		if got := recvString(t, p); got != "after" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("over limit", func(t *testing.T) {
		t.Parallel()
		p := start(t, "long:10240", transport.ProcessConfig{MaxLine: 1024})
		_, err := p.Receive(in(10 * time.Second))
		if !errors.Is(err, protocol.ErrLineTooLong) {
			t.Fatalf("Receive of a 10 KB line with MaxLine 1024: %v", err)
		}
		// The stream is out of step: nothing more comes through, not even
		// the well-formed line after the bad one.
		for i := range 3 {
			line, err := p.Receive(in(time.Second))
			if err == nil {
				t.Fatalf("Receive %d after the oversize line returned %q", i, line)
			}
			if !errors.Is(err, protocol.ErrLineTooLong) && !errors.Is(err, transport.ErrClosed) {
				t.Fatalf("Receive %d after the oversize line: %v, want ErrLineTooLong or ErrClosed", i, err)
			}
		}
	})
}

// waitFor polls cond every 10ms for up to 5s: it waits on an event the
// test cannot be told about (the stderr drain goroutine having run).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestStderr(t *testing.T) {
	t.Parallel()
	const capBytes = 1000
	p := start(t, "echo", transport.ProcessConfig{StderrCap: capBytes})
	var log1, log2 testkit.SyncBuffer
	p.SetStderr(&log1)
	// 200 KB, far past the cap, then a marker: once the tail ends with
	// the marker, everything before it went through the sink.
	p.Send([]byte("stderr 200000"), in(10*time.Second))
	if got := recvString(t, p); got != "ok" {
		t.Fatal(got)
	}
	p.Send([]byte("say-stderr END1"), in(10*time.Second))
	recvString(t, p)
	waitFor(t, "the first log", func() bool { return strings.HasSuffix(p.StderrTail(), "END1") })
	marker := fmt.Sprintf("\n[arena: stderr truncated at %d bytes]\n", capBytes)
	if got := log1.String(); got != strings.Repeat("e", capBytes)+marker {
		t.Fatalf("capped log is %d bytes: %.60q...%q", len(got), got, got[max(0, len(got)-60):])
	}
	// A new log starts a fresh cap.
	p.SetStderr(&log2)
	p.Send([]byte("say-stderr second-log"), in(10*time.Second))
	recvString(t, p)
	waitFor(t, "the second log", func() bool { return strings.Contains(p.StderrTail(), "second-log") })
	if got := log2.String(); !strings.HasSuffix(got, "second-log") || len(got) > capBytes+len(marker) {
		t.Errorf("second log %q", got[max(0, len(got)-100):])
	}
	if got := log1.String(); len(got) != capBytes+len(marker) {
		t.Errorf("first log grew after SetStderr switched logs: %d bytes", len(got))
	}
	// nil discards, the tail still keeps the end for error messages.
	p.SetStderr(nil)
	p.Send([]byte("say-stderr discarded"), in(10*time.Second))
	recvString(t, p)
	waitFor(t, "the tail", func() bool { return strings.HasSuffix(p.StderrTail(), "discarded") })
	if strings.Contains(log2.String(), "discarded") {
		t.Errorf("stderr written after SetStderr(nil) reached the old log")
	}
	if n := len(p.StderrTail()); n > 2048 {
		t.Errorf("StderrTail is %d bytes", n)
	}
}

// TestCloseKillsGroup: Close kills everything the bot started.
func TestCloseKillsGroup(t *testing.T) {
	t.Parallel()
	p := start(t, "fork", transport.ProcessConfig{})
	child, err := strconv.Atoi(recvString(t, p))
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(10 * time.Millisecond) {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(child, &ws, syscall.WNOHANG, nil)
		if got == child {
			if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("child ended with %v, want SIGKILL", ws)
			}
			return
		}
		if err != nil && !errors.Is(err, syscall.ECHILD) {
			t.Fatalf("wait4: %v", err)
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", child)); err != nil {
			return
		}
	}
	stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
	t.Fatalf("the bot's child survived Close: %s", stat)
}

// TestCloseFloodingBot: a bot blocked writing to stdout that nobody reads
// does not make Close hang.
func TestCloseFloodingBot(t *testing.T) {
	t.Parallel()
	p := start(t, "flood-stdout", transport.ProcessConfig{})
	recvString(t, p)
	done := make(chan struct{})
	go func() {
		p.Close()
		p.Close() // idempotent
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close hangs on a bot flooding stdout")
	}
	// Lines buffered before Close may still be handed out (a few KB);
	// then the connection reports closed.
	for i := 0; ; i++ {
		_, err := p.Receive(in(time.Second))
		if err == nil && i < 100 {
			continue
		}
		if !errors.Is(err, transport.ErrClosed) {
			t.Errorf("Receive after Close: %v, want ErrClosed", err)
		}
		break
	}
}

func TestShutdown(t *testing.T) {
	t.Parallel()
	t.Run("exits on EOF", func(t *testing.T) {
		t.Parallel()
		p := start(t, "echo", transport.ProcessConfig{})
		t0 := time.Now()
		p.Shutdown(20 * time.Second)
		if el := time.Since(t0); el > 10*time.Second {
			t.Errorf("Shutdown of a bot that exits on EOF took %v", el)
		}
		p.Send([]byte("x"), in(time.Second))
		if _, err := p.Receive(in(time.Second)); !errors.Is(err, transport.ErrClosed) || !strings.Contains(err.Error(), "status 0") {
			t.Errorf("after Shutdown: %v, want a clean exit", err)
		}
	})
	t.Run("ignores EOF", func(t *testing.T) {
		t.Parallel()
		p := start(t, "ignore-eof", transport.ProcessConfig{})
		t0 := time.Now()
		p.Shutdown(100 * time.Millisecond)
		if el := time.Since(t0); el < 100*time.Millisecond || el > 5*time.Second {
			t.Errorf("Shutdown took %v, want the 100ms grace then a kill", el)
		}
		select {
		case <-p.Exited():
		default:
			t.Fatal("not reaped after Shutdown")
		}
	})
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	if _, err := transport.Start(transport.ProcessConfig{}); err == nil {
		t.Error("Start with no command succeeded")
	}
	if _, err := transport.Start(transport.ProcessConfig{Argv: []string{"/nonexistent/bot"}}); err == nil {
		t.Error("Start of a missing program succeeded")
	}
}

func TestBroken(t *testing.T) {
	t.Parallel()
	c := transport.Broken(errors.New("no such bot"))
	if err := c.Send([]byte("x"), in(time.Second)); !errors.Is(err, transport.ErrClosed) || !strings.Contains(err.Error(), "no such bot") {
		t.Errorf("Send: %v", err)
	}
	if _, err := c.Receive(in(time.Second)); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Receive: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// openFDs counts this process's open file descriptors.
func openFDs() int {
	ents, _ := os.ReadDir("/proc/self/fd")
	return len(ents)
}

// transportGoroutines counts goroutines running transport code.
func transportGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			c := 0
			for _, g := range strings.Split(string(buf[:n]), "\n\n") {
				if strings.Contains(g, "arena/transport.") && !strings.Contains(g, "transport_test.") {
					c++
				}
			}
			return c
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestNoLeaks: however a bot ends, once it is closed the transport keeps
// no file descriptor and no goroutine for it. Not parallel: it counts
// process-wide resources.
func TestNoLeaks(t *testing.T) {
	// Warm up the runtime poller and the os/exec machinery.
	p := start(t, "echo", transport.ProcessConfig{})
	p.Close()
	fds, gs := openFDs(), transportGoroutines()
	ends := []struct {
		mode string
		do   func(p *transport.Process)
	}{
		// Wrote a line nobody read, then exited.
		{"one-line-exit", func(p *transport.Process) { <-p.Exited() }},
		// Still running, blocked writing stdout nobody reads.
		{"flood-stdout", func(p *transport.Process) { recvString(t, p) }},
		// Sent an oversize line.
		{"long:10240", func(p *transport.Process) { p.Receive(in(10 * time.Second)) }},
		// Timed out, then closed while a reply could still come.
		{"echo", func(p *transport.Process) { p.Receive(in(10 * time.Millisecond)) }},
		// Shut down cleanly.
		{"echo", func(p *transport.Process) { p.Shutdown(10 * time.Second) }},
		// Exited by itself, and was never read.
		{"exit:0", func(p *transport.Process) { <-p.Exited() }},
	}
	for _, e := range ends {
		p := start(t, e.mode, transport.ProcessConfig{MaxLine: 1024})
		e.do(p)
		p.Close()
	}
	for start := time.Now(); openFDs() > fds || transportGoroutines() > gs; time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 2*time.Second {
			buf := make([]byte, 1<<16)
			n := runtime.Stack(buf, true)
			var stuck []string
			for _, g := range strings.Split(string(buf[:n]), "\n\n") {
				if strings.Contains(g, "arena/transport.") && !strings.Contains(g, "transport_test.") {
					stuck = append(stuck, g)
				}
			}
			t.Fatalf("after closing %d bots: %d fds (was %d), %d transport goroutines (was %d):\n%s",
				len(ends), openFDs(), fds, transportGoroutines(), gs, strings.Join(stuck, "\n\n"))
		}
	}
}

// SentAt is when a line written at once went out, and nothing for one that
// had to wait for the bot to read it (a full pipe) or a failed Send.
func TestSentAt(t *testing.T) {
	t.Parallel()
	p := start(t, "echo", transport.ProcessConfig{})
	before := time.Now()
	if err := p.Send([]byte("hi"), in(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	at, ok := p.SentAt()
	if !ok || at.Before(before) || at.After(time.Now()) {
		t.Fatalf("SentAt after a line written at once: %v, %v (sent between %v and now)", at, ok, before)
	}
	q := start(t, "noread", transport.ProcessConfig{})
	line := bytes.Repeat([]byte("x"), 64<<10) // more than a pipe holds
	if err := q.Send(line, in(200*time.Millisecond)); !errors.Is(err, transport.ErrTimeout) {
		t.Fatalf("Send to a bot that does not read: %v, want ErrTimeout", err)
	}
	if at, ok := q.SentAt(); ok {
		t.Fatalf("SentAt after a Send that waited and failed: %v", at)
	}
}
