package protocol_test

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/arena-dev/arena/protocol"
)

// readAll reads lines until the first error.
func readAll(lr *protocol.LineReader) ([]string, error) {
	var lines []string
	for {
		line, err := lr.ReadLine()
		if err != nil {
			return lines, err
		}
		lines = append(lines, string(line))
	}
}

func TestLineReader(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100000)
	cases := []struct {
		name  string
		in    string
		max   int
		lines []string
		err   error // the error after the lines
	}{
		{name: "empty input", in: "", max: 10, err: io.EOF},
		{name: "one line", in: "hello\n", max: 10, lines: []string{"hello"}, err: io.EOF},
		{name: "several lines", in: "a\nbb\nccc\n", max: 10, lines: []string{"a", "bb", "ccc"}, err: io.EOF},
		{name: "empty lines", in: "\n\n", max: 10, lines: []string{"", ""}, err: io.EOF},
		{name: "crlf", in: "a\r\nbb\r\n", max: 10, lines: []string{"a", "bb"}, err: io.EOF},
		{name: "only the last cr is stripped", in: "a\r\r\n", max: 10, lines: []string{"a\r"}, err: io.EOF},
		{name: "cr inside a line is kept", in: "a\rb\n", max: 10, lines: []string{"a\rb"}, err: io.EOF},
		{name: "exactly at the limit", in: "abcde\nfghij\n", max: 5, lines: []string{"abcde", "fghij"}, err: io.EOF},
		// The limit applies to the raw line, so a \r counts toward it.
		{name: "crlf at the limit", in: "abcd\r\n", max: 5, lines: []string{"abcd"}, err: io.EOF},
		{name: "crlf: the cr counts toward the limit", in: "abcde\r\n", max: 5, err: protocol.ErrLineTooLong},
		{name: "over the limit by one", in: "abcdef\n", max: 5, err: protocol.ErrLineTooLong},
		{name: "over the limit after good lines", in: "ok\nabcdef\n", max: 5, lines: []string{"ok"}, err: protocol.ErrLineTooLong},
		{name: "over the limit without a newline", in: "abcdefgh", max: 5, err: protocol.ErrLineTooLong},
		{name: "unterminated final line", in: "abc", max: 10, err: io.ErrUnexpectedEOF},
		{name: "unterminated after lines", in: "a\nbc", max: 10, lines: []string{"a"}, err: io.ErrUnexpectedEOF},
		{name: "long line at a large limit", in: long + "\nend\n", max: 100000, lines: []string{long, "end"}, err: io.EOF},
		{name: "long line over a large limit", in: long + "x\nend\n", max: 100000, err: protocol.ErrLineTooLong},
		{name: "limit below the read buffer", in: strings.Repeat("y", 5000) + "\n", max: 4999, err: protocol.ErrLineTooLong},
	}
	readers := map[string]func(string) io.Reader{
		"whole":    func(s string) io.Reader { return strings.NewReader(s) },
		"one byte": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"data+EOF": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
		"half":     func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
	}
	for _, tc := range cases {
		for rname, mk := range readers {
			t.Run(tc.name+"/"+rname, func(t *testing.T) {
				lines, err := readAll(protocol.NewLineReader(mk(tc.in), tc.max))
				if strings.Join(lines, "|") != strings.Join(tc.lines, "|") || len(lines) != len(tc.lines) {
					t.Errorf("lines %q, want %q", clipAll(lines), clipAll(tc.lines))
				}
				if !errors.Is(err, tc.err) {
					t.Errorf("error %v, want %v", err, tc.err)
				}
			})
		}
	}
}

func clipAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if len(s) > 20 {
			s = s[:20] + "..."
		}
		out[i] = s
	}
	return out
}

// TestUnexpectedEOFThenEOF: after a partial final line, the reader
// reports the end of input.
func TestUnexpectedEOFThenEOF(t *testing.T) {
	t.Parallel()
	lr := protocol.NewLineReader(strings.NewReader("partial"), 100)
	if _, err := lr.ReadLine(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("first: %v", err)
	}
	if _, err := lr.ReadLine(); err != io.EOF {
		t.Fatalf("second: %v, want io.EOF", err)
	}
}

func TestReaderError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	lr := protocol.NewLineReader(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)), 100)
	lines, err := readAll(lr)
	if len(lines) != 1 || lines[0] != "a" || !errors.Is(err, boom) {
		t.Fatalf("lines %q, error %v; want [a] and boom", lines, err)
	}
}

// script is a reader that plays back a list of (data, error) results.
type script []struct {
	data string
	err  error
}

func (s *script) Read(p []byte) (int, error) {
	if len(*s) == 0 {
		return 0, io.EOF
	}
	r := (*s)[0]
	n := copy(p, r.data)
	if n < len(r.data) {
		(*s)[0].data = r.data[n:]
		return n, nil
	}
	*s = (*s)[1:]
	return n, r.err
}

// TestDeadlineKeepsPartialLine: a read deadline is returned as is, is not
// final, and the part of a line read before it is kept.
func TestDeadlineKeepsPartialLine(t *testing.T) {
	t.Parallel()
	src := &script{
		{"first\nsec", nil},
		{"", os.ErrDeadlineExceeded},
		{"ond", os.ErrDeadlineExceeded}, // data and deadline together
		{"\nthird\n", nil},
	}
	lr := protocol.NewLineReader(src, 100)
	want := []struct {
		line string
		err  error
	}{
		{"first", nil},
		{"", os.ErrDeadlineExceeded},
		{"", os.ErrDeadlineExceeded},
		{"second", nil},
		{"third", nil},
		{"", io.EOF},
		{"", io.EOF},
	}
	for i, w := range want {
		line, err := lr.ReadLine()
		if string(line) != w.line || !errors.Is(err, w.err) {
			t.Fatalf("call %d: %q, %v; want %q, %v", i, line, err, w.line, w.err)
		}
	}
}

// endless produces 'a' forever and counts what was read from it.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.n += len(p)
	return len(p), nil
}

// TestOverLimitStopsReading: an endless line costs about the limit, not
// more: the reader gives up once it has seen limit+1 bytes without a
// newline (its first read fills a 4 KiB buffer, so small limits read 4 KiB).
func TestOverLimitStopsReading(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{1, 100, 4095, 4096, 5000, 65536, 100000, 1 << 20} {
		src := &endless{}
		lr := protocol.NewLineReader(src, limit)
		if _, err := lr.ReadLine(); !errors.Is(err, protocol.ErrLineTooLong) {
			t.Fatalf("limit %d: %v, want ErrLineTooLong", limit, err)
		}
		if bound := max(limit+2, 4096); src.n > bound {
			t.Errorf("limit %d: read %d bytes, want at most %d", limit, src.n, bound)
		}
		// It stays stopped, without reading further.
		n := src.n
		if _, err := lr.ReadLine(); !errors.Is(err, protocol.ErrLineTooLong) {
			t.Errorf("limit %d: second ReadLine: %v, want ErrLineTooLong again", limit, err)
		}
		if src.n != n {
			t.Errorf("limit %d: read %d more bytes after ErrLineTooLong", limit, src.n-n)
		}
	}
}

// TestStopsAfterTooLong: ErrLineTooLong is documented as final ("the
// reader stops there: the peer is at fault and is not read further"), so
// lines after the oversize one must not be handed out.
func TestStopsAfterTooLong(t *testing.T) {
	t.Parallel()
	lr := protocol.NewLineReader(strings.NewReader("toolong\nnext\n"), 5)
	if _, err := lr.ReadLine(); !errors.Is(err, protocol.ErrLineTooLong) {
		t.Fatalf("first: %v", err)
	}
	if line, err := lr.ReadLine(); !errors.Is(err, protocol.ErrLineTooLong) {
		t.Errorf("after ErrLineTooLong ReadLine returned %q, %v; want ErrLineTooLong again", line, err)
	}
}

func TestPeekType(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, typ string
		ok      bool
	}{
		{`{"type":"ready"}`, "ready", true},
		{`{"id":3,"type":"action","index":0}`, "action", true},
		{`{}`, "", false},
		{`{"type":""}`, "", false},
		{`[1]`, "", false},
		{`hello world`, "", false},
		{``, "", false},
	} {
		typ, err := protocol.PeekType([]byte(tc.in))
		if typ != tc.typ || (err == nil) != tc.ok {
			t.Errorf("PeekType(%q) = %q, %v", tc.in, typ, err)
		}
	}
	if _, err := protocol.PeekType([]byte("nope")); !errors.Is(err, protocol.ErrNotObject) {
		t.Errorf("PeekType of non-JSON: %v, want ErrNotObject", err)
	}
}

func TestExcerptAndErrorText(t *testing.T) {
	for _, tc := range []struct{ in, excerpt, errText string }{
		{`{"type":"error","message":"unsupported protocol version 2"}`, `"{\"type\":\"error\",\"mes"... (59 bytes)`, "unsupported protocol version 2"},
		{"short", `"short"`, `"short"`},
		{`{"type":"error"}`, `"{\"type\":\"error\"}"`, `"{\"type\":\"error\"}"`},
		{"\xff\x00 garbage", `"\xff\x00 garbage"`, `"\xff\x00 garbage"`},
	} {
		if got := protocol.Excerpt([]byte(tc.in), 20); got != tc.excerpt {
			t.Errorf("Excerpt(%q) = %s, want %s", tc.in, got, tc.excerpt)
		}
		if got := protocol.ErrorText([]byte(tc.in), 20); got != tc.errText {
			t.Errorf("ErrorText(%q) = %s, want %s", tc.in, got, tc.errText)
		}
	}
}
