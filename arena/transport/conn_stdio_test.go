//go:build linux

package transport_test

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/arena/transport/conntest"
)

// TestConnStdio runs the suite against real processes: each pair is a
// helper process (mode "conntest") that does only what the suite's Bot
// calls tell it, over a control socket, so its stdin and stdout are the
// very pipes a bot has.
func TestConnStdio(t *testing.T) {
	conntest.TestConn(t, startProcBot)
}

// procBot is the suite's Bot for a helper process. Its commands go over
// the control connection as lines "cmd base64-argument"; the helper
// answers each with "ok" or "err text", and a line it read from stdin,
// when asked, with "line base64" or "eof".
type procBot struct {
	p     *transport.Process
	ctl   net.Conn
	acks  chan string
	lines chan []byte   // nil: the helper's stdin ended
	dead  chan struct{} // closed when the control connection ends
	// reading: a read was asked for and its line has not come yet (a
	// Receive timed out); the next Receive waits for that one.
	reading bool
}

func startProcBot(t *testing.T, maxLine int) (transport.Conn, conntest.Bot) {
	t.Helper()
	// Not t.TempDir: a socket path must stay under 108 bytes.
	dir, err := os.MkdirTemp("", "conntest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "ctl")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p := start(t, "conntest:"+path, transport.ProcessConfig{MaxLine: maxLine})
	ln.SetDeadline(time.Now().Add(10 * time.Second))
	ctl, err := ln.Accept()
	if err != nil {
		t.Fatalf("the helper did not connect: %v (stderr %q)", err, p.StderrTail())
	}
	// Registered after start's: runs first, and the helper exits when its
	// control connection ends.
	t.Cleanup(func() { ctl.Close() })
	b := &procBot{p: p, ctl: ctl, acks: make(chan string, 1), lines: make(chan []byte, 1), dead: make(chan struct{})}
	go b.demux()
	return p, b
}

// demux sorts the helper's messages into acknowledgements and lines.
func (b *procBot) demux() {
	defer close(b.dead)
	sc := bufio.NewScanner(b.ctl)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		kind, arg, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "line":
			line, _ := base64.StdEncoding.DecodeString(arg)
			if line == nil {
				line = []byte{}
			}
			b.lines <- line
		case "eof":
			b.lines <- nil
		default:
			b.acks <- sc.Text()
		}
	}
}

// do sends one command and waits for its acknowledgement.
func (b *procBot) do(cmd string, arg []byte) error {
	if _, err := fmt.Fprintf(b.ctl, "%s %s\n", cmd, base64.StdEncoding.EncodeToString(arg)); err != nil {
		return fmt.Errorf("%w: control connection: %v", transport.ErrClosed, err)
	}
	select {
	case ack := <-b.acks:
		if ack != "ok" {
			return fmt.Errorf("helper: %s", ack)
		}
		return nil
	case <-b.dead:
		return fmt.Errorf("%w: the helper is gone", transport.ErrClosed)
	}
}

func (b *procBot) Write(p []byte) (int, error) {
	if err := b.do("write", p); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (b *procBot) Receive(deadline time.Time) ([]byte, error) {
	if !b.reading {
		if err := b.do("read", nil); err != nil {
			return nil, err
		}
		b.reading = true
	}
	got := func(line []byte) ([]byte, error) {
		b.reading = false
		if line == nil {
			return nil, fmt.Errorf("%w: the helper's stdin ended", transport.ErrClosed)
		}
		return line, nil
	}
	// A line already here wins over a deadline already past.
	select {
	case line := <-b.lines:
		return got(line)
	default:
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case line := <-b.lines:
		return got(line)
	case <-b.dead:
		return nil, fmt.Errorf("%w: the helper is gone", transport.ErrClosed)
	case <-timer.C:
		return nil, transport.ErrTimeout
	}
}

func (b *procBot) CloseWrite() error { return b.do("closew", nil) }

// Exit has the helper exit, and waits until the transport has reaped it.
func (b *procBot) Exit() error {
	fmt.Fprintf(b.ctl, "exit\n")
	select {
	case <-b.p.Exited():
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("the helper did not exit")
	}
}

// conntestBot is the helper process of a procBot: it dials the control
// socket at path and does what it is told there. It reads stdin only when
// told to, so between Receives it is a bot that does not read.
func conntestBot(path string) int {
	ctl, err := net.Dial("unix", path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conntest helper:", err)
		return 1
	}
	var mu sync.Mutex // the reader below answers too
	answer := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(ctl, s+"\n")
	}
	reads := make(chan struct{}, 1)
	go func() {
		in := bufio.NewReader(os.Stdin)
		for range reads {
			line, err := in.ReadBytes('\n')
			if err != nil {
				answer("eof")
				return
			}
			answer("line " + base64.StdEncoding.EncodeToString(line[:len(line)-1]))
		}
	}()
	ack := func(err error) {
		if err != nil {
			answer("err " + err.Error())
			return
		}
		answer("ok")
	}
	sc := bufio.NewScanner(ctl)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		cmd, arg, _ := strings.Cut(sc.Text(), " ")
		data, _ := base64.StdEncoding.DecodeString(arg)
		switch cmd {
		case "write":
			_, err := os.Stdout.Write(data)
			ack(err)
		case "read":
			reads <- struct{}{}
			ack(nil)
		case "closew":
			ack(os.Stdout.Close())
		case "exit":
			return 7
		default:
			ack(fmt.Errorf("unknown command %q", cmd))
		}
	}
	return 0 // the test is done with this helper
}
