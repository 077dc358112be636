// Package conntest checks that a transport.Conn keeps the contract written
// on transport.Conn, the one the referee relies on to classify a bot's
// failures. A transport's own test calls TestConn with a function that
// connects a Conn to a bot the suite can play, as testing/fstest.TestFS and
// golang.org/x/net/nettest.TestConn do for file systems and network
// connections; every rule is a subtest of its own.
//
// Every Conn and Bot call the suite makes runs under a watchdog: a Conn
// that ignores a deadline or deadlocks fails the subtest instead of hanging
// the test binary.
package conntest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// Bot is the far end of a Conn under test, through which the suite plays
// the bot: it writes raw bytes where a bot writes its output, reads what
// the Conn sent, closes its output, or exits. The suite calls its methods
// from one goroutine at a time. transport.PipeBot is one.
type Bot interface {
	// Write writes p to the bot's output as it is: whole lines or any
	// part of one. It returns once the bytes are in the transport, where
	// the Conn can read them without the bot doing anything more. The
	// suite never leaves more than a few KiB unread.
	Write(p []byte) (int, error)
	// Receive returns the next line the Conn sent, without its newline,
	// waiting until deadline (transport.ErrTimeout). The bot reads its
	// input only during Receive: between calls it is a bot that does not
	// read. Once the Conn is closed it fails with transport.ErrClosed.
	Receive(deadline time.Time) ([]byte, error)
	// CloseWrite closes the bot's output; the bot keeps running.
	CloseWrite() error
	// Exit ends the bot as a process exiting does, and returns once it
	// has ended.
	Exit() error
}

// MakePair connects a new Conn to a new bot and returns both ends. The
// Conn must limit a line from the bot to maxLine bytes. MakePair reports
// its own failures through t, and closes both ends when t ends
// (t.Cleanup).
type MakePair func(t *testing.T, maxLine int) (transport.Conn, Bot)

const (
	// maxLine is the limit the suite asks for: small, so that oversize
	// lines are cheap and fit in any transport's buffer.
	maxLine = 1024
	// short is a deadline the suite means to pass.
	short = 100 * time.Millisecond
	// patience is a deadline the suite does not mean to reach.
	patience = 10 * time.Second
	// late is how long after it is due a result may come on a loaded
	// machine before the suite calls the Conn slow.
	late = 2 * time.Second
)

// TestConn runs every check of the Conn contract against pairs made by mk,
// one new pair per subtest.
func TestConn(t *testing.T, mk MakePair) {
	checks := []struct {
		name string
		run  func(*testing.T, transport.Conn, Bot)
	}{
		{"RoundTrip", testRoundTrip},
		{"SendDoesNotKeepLine", testSendDoesNotKeepLine},
		{"ReceiveTimeout", testReceiveTimeout},
		{"ReceivePastDeadline", testReceivePastDeadline},
		{"SendPastDeadline", testSendPastDeadline},
		{"SendToNonReader", testSendToNonReader},
		{"PartialLine", testPartialLine},
		{"PartialLineThenCloseWrite", testPartialLineThenCloseWrite},
		{"LineAtLimit", testLineAtLimit},
		{"LineOverLimit", testLineOverLimit},
		{"LineOverLimitUnterminated", testLineOverLimitUnterminated},
		{"ReceivedSliceOwned", testReceivedSliceOwned},
		{"BotClosesOutput", testBotClosesOutput},
		{"BotExits", testBotExits},
		{"CloseTwice", testCloseTwice},
		{"UseAfterClose", testUseAfterClose},
		{"CloseEndsBot", testCloseEndsBot},
		{"CloseUnblocksReceive", testCloseUnblocksReceive},
		{"CloseUnblocksSend", testCloseUnblocksSend},
	}
	for _, ch := range checks {
		t.Run(ch.name, func(t *testing.T) {
			c, b := mk(t, maxLine)
			ch.run(t, c, b)
		})
	}
}

// A line goes through unchanged both ways, whatever its bytes, in order;
// the bot's lines may come several to a write or one over several writes,
// and a \r before the newline is dropped.
func testRoundTrip(t *testing.T, c transport.Conn, b Bot) {
	for _, line := range []string{`{"type":"hello"}`, "", "two words", "\x00\xff\x7f not UTF-8", "mid\rdle", strings.Repeat("x", 5000)} {
		mustSend(t, c, line)
		wantBotLine(t, b, line)
	}
	for _, tc := range []struct {
		write string
		lines []string
	}{
		{`{"type":"ready"}` + "\n", []string{`{"type":"ready"}`}},
		{"crlf\r\n", []string{"crlf"}},
		{"a\nb\n\nc\n", []string{"a", "b", "", "c"}},
		{"\x00\xff\x7f not UTF-8, mid\rdle\n", []string{"\x00\xff\x7f not UTF-8, mid\rdle"}},
	} {
		botWrite(t, b, tc.write)
		for _, line := range tc.lines {
			wantLine(t, c, line)
		}
	}
	for _, part := range []string{`{"type":`, `"action"`, `}` + "\n"} {
		botWrite(t, b, part)
	}
	wantLine(t, c, `{"type":"action"}`)
	// Request and reply, as a game goes.
	for i := range 100 {
		mustSend(t, c, fmt.Sprintf(`{"type":"turn","id":%d}`, i))
		wantBotLine(t, b, fmt.Sprintf(`{"type":"turn","id":%d}`, i))
		botWrite(t, b, fmt.Sprintf(`{"type":"action","id":%d}`+"\n", i))
		wantLine(t, c, fmt.Sprintf(`{"type":"action","id":%d}`, i))
	}
}

// The referee reuses its line buffer at once: Send must not keep it.
func testSendDoesNotKeepLine(t *testing.T, c transport.Conn, b Bot) {
	buf := []byte(`{"type":"turn","id":1}`)
	if r := send(t, c, buf, time.Now().Add(patience)); r.err != nil {
		t.Fatalf("Send: %v", r.err)
	}
	copy(buf, `{"type":"turn","id":2}`)
	wantBotLine(t, b, `{"type":"turn","id":1}`)
}

// A silent bot makes Receive fail with ErrTimeout, not before its
// deadline; the Conn still works after it.
func testReceiveTimeout(t *testing.T, c transport.Conn, b Bot) {
	deadline := time.Now().Add(short)
	wantTimeout(t, "Receive from a silent bot", receive(t, c, deadline), deadline)
	botWrite(t, b, "after\n")
	wantLine(t, c, "after")
}

// A deadline already past does not wait, but a line that has arrived in
// full is still delivered: seats that share one startup deadline are read
// one after the other, the last ones after it.
func testReceivePastDeadline(t *testing.T, c transport.Conn, b Bot) {
	past := time.Now().Add(-time.Second)
	wantTimeout(t, "Receive with a past deadline", receive(t, c, past), past)
	botWrite(t, b, "waiting\n")
	r := receive(t, c, past)
	if r.err != nil || string(r.line) != "waiting" {
		t.Fatalf("Receive with a past deadline and a line waiting: %q, %v; want the line", r.line, r.err)
	}
}

// Send with a deadline already past fails with ErrDeadlinePast (an
// ErrTimeout) and sends nothing: the bot sees the next line whole.
func testSendPastDeadline(t *testing.T, c transport.Conn, b Bot) {
	past := time.Now().Add(-time.Second)
	r := send(t, c, []byte("too late"), past)
	wantTimeout(t, "Send with a past deadline", r, past)
	if !errors.Is(r.err, transport.ErrDeadlinePast) {
		t.Fatalf("Send with a past deadline: %v, want transport.ErrDeadlinePast", r.err)
	}
	mustSend(t, c, "in time")
	wantBotLine(t, b, "in time")
}

// A bot that does not read holds Send back after a bounded amount: Send
// then fails with ErrTimeout at its deadline, never before.
func testSendToNonReader(t *testing.T, c transport.Conn, _ Bot) {
	n := fill(t, c)
	t.Logf("the transport took %d bytes for a bot that reads nothing", n)
}

// fill sends 16 KiB lines to a bot that does not read until one fails,
// which must be an ErrTimeout at its deadline; it returns the bytes sent
// before. Past 64 MiB nothing holds Send back, and the test fails.
func fill(t *testing.T, c transport.Conn) int {
	t.Helper()
	line := bytes.Repeat([]byte("s"), 16<<10)
	total := 0
	for total < 64<<20 {
		deadline := time.Now().Add(short)
		r := send(t, c, line, deadline)
		if r.err != nil {
			wantTimeout(t, fmt.Sprintf("Send to a bot that does not read, after %d bytes", total), r, deadline)
			return total
		}
		total += len(line) + 1
	}
	t.Fatalf("Send took %d bytes for a bot that reads nothing: nothing holds it back", total)
	return 0
}

// A line is delivered only once its newline has arrived; what came before
// is kept across timeouts.
func testPartialLine(t *testing.T, c transport.Conn, b Bot) {
	for _, part := range []string{`{"type":"act`, `ion",`} {
		botWrite(t, b, part)
		deadline := time.Now().Add(short)
		wantTimeout(t, fmt.Sprintf("Receive after the partial line %q", part), receive(t, c, deadline), deadline)
	}
	botWrite(t, b, `"id":1}`+"\n")
	wantLine(t, c, `{"type":"action","id":1}`)
}

// A partial line at the end of the bot's output is no line: ErrClosed.
func testPartialLineThenCloseWrite(t *testing.T, c transport.Conn, b Bot) {
	botWrite(t, b, "half a li")
	botCall(t, "CloseWrite", b.CloseWrite)
	for range 2 {
		wantClosed(t, "Receive of a partial line, then the bot's output closed", receive(t, c, time.Now().Add(patience)))
	}
}

func testLineAtLimit(t *testing.T, c transport.Conn, b Bot) {
	line := strings.Repeat("a", maxLine)
	botWrite(t, b, line+"\n")
	wantLine(t, c, line)
}

// One byte over the limit is an oversize line, and nothing after it is
// delivered.
func testLineOverLimit(t *testing.T, c transport.Conn, b Bot) {
	botWrite(t, b, strings.Repeat("b", maxLine+1)+"\nafter\n")
	wantTooLong(t, receive(t, c, time.Now().Add(patience)))
	for range 2 {
		r := receive(t, c, time.Now().Add(short))
		if r.err == nil {
			t.Fatalf("Receive after an oversize line delivered %q: the stream is out of step", r.line)
		}
		t.Logf("Receive after the oversize line: %v", r.err)
	}
}

// A bot that sends an endless line is stopped at the limit, without
// waiting for a newline that may never come.
func testLineOverLimitUnterminated(t *testing.T, c transport.Conn, b Bot) {
	botWrite(t, b, strings.Repeat("c", maxLine+1))
	wantTooLong(t, receive(t, c, time.Now().Add(patience)))
}

// The caller owns what Receive returns: a later Receive neither
// overwrites it nor is overwritten when the caller appends to it.
func testReceivedSliceOwned(t *testing.T, c transport.Conn, b Bot) {
	botWrite(t, b, "first\nsecond\nthird\n")
	first := wantLine(t, c, "first")
	first[0] = 'F'
	first = append(first, "-grown"...)
	wantLine(t, c, "second")
	wantLine(t, c, "third")
	if string(first) != "First-grown" {
		t.Errorf("the first line became %q after later Receives, want %q", first, "First-grown")
	}
}

// The lines the bot finished before closing its output are delivered,
// then ErrClosed, for good.
func testBotClosesOutput(t *testing.T, c transport.Conn, b Bot) {
	botWrite(t, b, "last words\n")
	botCall(t, "CloseWrite", b.CloseWrite)
	wantLine(t, c, "last words")
	for range 2 {
		wantClosed(t, "Receive after the bot closed its output", receive(t, c, time.Now().Add(patience)))
	}
}

func testBotExits(t *testing.T, c transport.Conn, b Bot) {
	botCall(t, "Exit", b.Exit)
	wantClosed(t, "Send to a bot that exited", send(t, c, []byte("anyone?"), time.Now().Add(patience)))
	wantClosed(t, "Receive from a bot that exited", receive(t, c, time.Now().Add(patience)))
}

func testCloseTwice(t *testing.T, c transport.Conn, _ Bot) {
	for i := range 2 {
		var err error
		call(t, fmt.Sprintf("Close #%d", i+1), late, func() { err = c.Close() })
		t.Logf("Close #%d: %v", i+1, err)
	}
}

// After Close the Conn delivers nothing, not even a line that arrived
// before: one written with the line received before Close is most likely
// in the Conn's own buffer by then.
func testUseAfterClose(t *testing.T, c transport.Conn, b Bot) {
	botWrite(t, b, "first\nwaiting\n")
	wantLine(t, c, "first")
	call(t, "Close", late, func() { c.Close() })
	wantClosed(t, "Send after Close", send(t, c, []byte("x"), time.Now().Add(patience)))
	wantClosed(t, "Receive after Close, a line waiting", receive(t, c, time.Now().Add(patience)))
}

// Close ends the bot: it reads nothing more.
func testCloseEndsBot(t *testing.T, c transport.Conn, b Bot) {
	call(t, "Close", late, func() { c.Close() })
	var r result
	botCall(t, "Receive", func() error { r.line, r.err = b.Receive(time.Now().Add(patience)); return nil })
	wantClosed(t, "the bot's Receive after Close", r)
}

// Close from another goroutine ends a Receive blocked on a silent bot.
func testCloseUnblocksReceive(t *testing.T, c transport.Conn, _ Bot) {
	closeWhileBlocked(t, c, "Receive", func() error {
		_, err := c.Receive(time.Now().Add(time.Minute))
		return err
	})
}

// Close from another goroutine ends a Send blocked on a bot that does not
// read.
func testCloseUnblocksSend(t *testing.T, c transport.Conn, _ Bot) {
	fill(t, c)
	closeWhileBlocked(t, c, "Send", func() error {
		return c.Send(bytes.Repeat([]byte("s"), 16<<10), time.Now().Add(time.Minute))
	})
}

// closeWhileBlocked starts op, which can only end by Close, checks it is
// still blocked after a while, closes the Conn and wants ErrClosed from op
// promptly. Close may come before op has blocked: ErrClosed is the answer
// in either order, so the pause only makes the blocked case the usual one.
func closeWhileBlocked(t *testing.T, c transport.Conn, what string, op func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		t.Fatalf("%s returned %v before Close, with its deadline a minute away and nothing to do", what, err)
	case <-time.After(short):
	}
	call(t, "Close", late, func() { c.Close() })
	t0 := time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, transport.ErrClosed) {
			t.Fatalf("%s blocked during Close returned %v, want ErrClosed", what, err)
		}
		t.Logf("%s returned %v, %v after Close", what, err, time.Since(t0))
	case <-time.After(late):
		t.Fatalf("%s still blocked %v after Close", what, late)
	}
}

// result is what a Conn call returned, and when.
type result struct {
	line []byte
	err  error
	end  time.Time // when the call had returned
}

// call runs f and fails the test if it panics or has not returned within
// limit; the goroutine then left behind ends when the pair is closed.
func call(t *testing.T, what string, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case p := <-done:
		if p != nil {
			t.Fatalf("%s panicked: %v", what, p)
		}
	case <-timer.C:
		t.Fatalf("%s has not returned after %v", what, limit)
	}
}

// within is how long a call with deadline may take: until the deadline,
// and late on top.
func within(deadline time.Time) time.Duration { return max(time.Until(deadline), 0) + late }

func receive(t *testing.T, c transport.Conn, deadline time.Time) result {
	t.Helper()
	var r result
	call(t, "Receive", within(deadline), func() { r.line, r.err = c.Receive(deadline) })
	r.end = time.Now()
	return r
}

func send(t *testing.T, c transport.Conn, line []byte, deadline time.Time) result {
	t.Helper()
	var r result
	call(t, "Send", within(deadline), func() { r.err = c.Send(line, deadline) })
	r.end = time.Now()
	return r
}

func mustSend(t *testing.T, c transport.Conn, line string) {
	t.Helper()
	if r := send(t, c, []byte(line), time.Now().Add(patience)); r.err != nil {
		t.Fatalf("Send %.40q: %v", line, r.err)
	}
}

// wantLine receives one line, which must be want, and returns it.
func wantLine(t *testing.T, c transport.Conn, want string) []byte {
	t.Helper()
	r := receive(t, c, time.Now().Add(patience))
	if r.err != nil || string(r.line) != want {
		t.Fatalf("Receive: %.60q, %v; want %.60q", r.line, r.err, want)
	}
	return r.line
}

// botCall runs one Bot method, which must succeed.
func botCall(t *testing.T, what string, f func() error) {
	t.Helper()
	var err error
	call(t, "Bot."+what, patience, func() { err = f() })
	if err != nil {
		t.Fatalf("Bot.%s: %v", what, err)
	}
}

func botWrite(t *testing.T, b Bot, s string) {
	t.Helper()
	botCall(t, fmt.Sprintf("Write(%.30q)", s), func() error { _, err := b.Write([]byte(s)); return err })
}

func wantBotLine(t *testing.T, b Bot, want string) {
	t.Helper()
	var line []byte
	botCall(t, "Receive", func() (err error) { line, err = b.Receive(time.Now().Add(patience)); return err })
	if string(line) != want {
		t.Fatalf("the bot received %.60q, want %.60q", line, want)
	}
}

// wantTimeout checks that r is ErrTimeout, reported no earlier than
// deadline.
func wantTimeout(t *testing.T, what string, r result, deadline time.Time) {
	t.Helper()
	if !errors.Is(r.err, transport.ErrTimeout) {
		t.Fatalf("%s: %q, %v; want ErrTimeout", what, r.line, r.err)
	}
	if early := deadline.Sub(r.end); early > 0 {
		t.Fatalf("%s: ErrTimeout %v before the deadline", what, early)
	}
}

func wantClosed(t *testing.T, what string, r result) {
	t.Helper()
	if !errors.Is(r.err, transport.ErrClosed) {
		t.Fatalf("%s: %q, %v; want ErrClosed", what, r.line, r.err)
	}
}

// wantTooLong checks r is the oversize error, and only that: the referee
// records bad_message for it, not a crash or a timeout.
func wantTooLong(t *testing.T, r result) {
	t.Helper()
	if !errors.Is(r.err, protocol.ErrLineTooLong) || errors.Is(r.err, transport.ErrClosed) || errors.Is(r.err, transport.ErrTimeout) {
		t.Fatalf("Receive of a line over %d bytes: %.40q, %v; want protocol.ErrLineTooLong alone", maxLine, r.line, r.err)
	}
}
