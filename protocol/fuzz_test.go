package protocol_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/arena-dev/arena/protocol"
)

// chunkReader returns data in reads of the sizes sizes cycles through, so
// a line can be split anywhere between reads.
type chunkReader struct {
	data  []byte
	sizes []byte
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(r.sizes) > 0 {
		n = 1 + int(r.sizes[r.i%len(r.sizes)])
		r.i++
	}
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// referenceLines is what LineReader must return for data read whole:
// every newline-terminated line (a trailing \r stripped), stopping with
// ErrLineTooLong at the first line (or final fragment) over max bytes, or
// io.ErrUnexpectedEOF for a final fragment without its newline.
func referenceLines(data []byte, max int) ([]string, error) {
	var lines []string
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			switch {
			case len(data) > max:
				return lines, protocol.ErrLineTooLong
			case len(data) > 0:
				return lines, io.ErrUnexpectedEOF
			}
			return lines, io.EOF
		}
		if i > max {
			return lines, protocol.ErrLineTooLong
		}
		lines = append(lines, string(bytes.TrimSuffix(data[:i], []byte("\r"))))
		data = data[i+1:]
	}
}

// FuzzLineReader: whatever the bytes, the line limit and how the input is
// split between reads, LineReader returns exactly the reference lines and
// error, never a line over the limit, and keeps returning ErrLineTooLong
// once it has.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"type\":\"ready\"}\n"), uint16(64), []byte{0})
	f.Add([]byte("a\r\nb\n\nc"), uint16(1), []byte{2, 0})
	f.Add([]byte("0123456789\n"), uint16(10), []byte{3})
	f.Add([]byte("0123456789\n"), uint16(9), []byte{255})
	f.Add([]byte("\r\n\r\r\n"), uint16(1), []byte{})
	f.Add(bytes.Repeat([]byte("x"), 5000), uint16(4095), []byte{200, 7})
	f.Fuzz(func(t *testing.T, data []byte, max uint16, sizes []byte) {
		if len(data) > 16<<10 {
			t.Skip("long inputs add nothing but time")
		}
		limit := int(max)
		want, wantErr := referenceLines(data, limit)
		lr := protocol.NewLineReader(&chunkReader{data: data, sizes: sizes}, limit)
		var got []string
		var err error
		for {
			var line []byte
			line, err = lr.ReadLine()
			if err != nil {
				break
			}
			if len(line) > limit {
				t.Fatalf("line of %d bytes over the limit %d", len(line), limit)
			}
			got = append(got, string(line))
			if len(got) > len(data)+1 {
				t.Fatal("more lines than bytes")
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d (%q vs %q)", len(got), len(want), got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("line %d: %q, want %q", i, got[i], want[i])
			}
		}
		if !errors.Is(err, wantErr) {
			t.Fatalf("ended with %v, want %v", err, wantErr)
		}
		if errors.Is(err, protocol.ErrLineTooLong) {
			if _, again := lr.ReadLine(); !errors.Is(again, protocol.ErrLineTooLong) {
				t.Fatalf("after ErrLineTooLong: %v", again)
			}
		}
	})
}

// FuzzDecode: a line from a peer goes through PeekType and, by its type,
// into the message struct; none of it may panic, and whatever decodes
// encodes back to JSON that decodes to the same encoding (the referee
// re-encodes what it records).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","protocol":1,"game":"banqi","options":{"ranks":"taiwan"},"seat":0,"seats":2,"players":["a","b"],"match":"m","game_id":"g","seed":9007199254740991,"clock":{"startup_ms":10000,"move_ms":1000,"margin_ms":50}}`,
		`{"type":"ready","name":"x","version":"1"}`,
		`{"type":"turn","id":3,"view":{"board":[]},"legal":[{"type":"flip","at":"a1"}],"clock":{"move_ms":200,"bank_ms":5}}`,
		`{"type":"action","id":3,"index":0}`,
		`{"type":"action","id":3,"action":{"type":"flip","at":"a1"}}`,
		`{"type":"action","id":-9223372036854775808,"index":-1}`,
		`{"type":"action","id":1e400}`,
		`{"type":"end","game_id":"g","ranks":[1,2],"scores":[1,0],"reason":"r","forfeits":["seat 1: crash"],"view":null}`,
		`{"type":"bye"}`, `{"type":"error","message":"unsupported protocol"}`,
		`{"type":"action","type":"ready"}`, `{"type":1}`, `{}`, `[]`, `null`, `"type"`, "{\"type\":\"action\",\"note\":\"\xff\"}",
		`{"type":"action","id":1,"index":0,"deep":[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]}`,
		`{"type":"turn","id":1,"legal":[1,"x",null,{}],"view":"\u0000"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		typ, err := protocol.PeekType(line)
		if err != nil {
			typ = ""
		}
		var msgs = map[string]func() any{
			protocol.TypeHello:  func() any { return new(protocol.Hello) },
			protocol.TypeReady:  func() any { return new(protocol.Ready) },
			protocol.TypeTurn:   func() any { return new(protocol.Turn) },
			protocol.TypeAction: func() any { return new(protocol.Action) },
			protocol.TypeEnd:    func() any { return new(protocol.End) },
			protocol.TypeBye:    func() any { return new(protocol.Bye) },
			protocol.TypeError:  func() any { return new(protocol.Error) },
			"":                  func() any { return new(protocol.Envelope) },
		}
		// Every struct, not only the one named: a peer chooses the type.
		for name, mk := range msgs {
			v := mk()
			if err := json.Unmarshal(line, v); err != nil {
				// A line PeekType accepted is a well-formed JSON object: a
				// message struct may still refuse it, but only for a field
				// of the wrong type, never as malformed JSON (PeekType and
				// the decoding that follows agree on what a line is).
				var typeErr *json.UnmarshalTypeError
				if typ != "" && !errors.As(err, &typeErr) {
					t.Fatalf("PeekType accepted %q (type %q) but %s refuses it as: %v", line, typ, name, err)
				}
				continue
			}
			enc, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s decoded from %q does not encode: %v", name, line, err)
			}
			w := mk()
			if err := json.Unmarshal(enc, w); err != nil {
				t.Fatalf("%s: %s (from %q) does not decode: %v", name, enc, line, err)
			}
			again, _ := json.Marshal(w)
			if !bytes.Equal(enc, again) {
				t.Fatalf("%s: %s re-encodes as %s", name, enc, again)
			}
		}
	})
}

// FuzzDecodeIndexAction: a line the fast path accepts is one that
// json.Unmarshal decodes into the same Action.
func FuzzDecodeIndexAction(f *testing.F) {
	for _, s := range []string{
		`{"type":"action","id":12,"index":3}`, `{"type":"action","id":-1,"index":-0}`, `{"type":"action","id":01,"index":3}`,
		`{"type":"action","id":12,"index":3} `, `{"type":"action","id":1,"index":99999999999999999999}`,
		`{"type":"action","id":1,"index":1.5}`, `{"type":"action","id":1,"index":3,"index":4}`, `{"type":"action","id":1,"index":}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, ok := protocol.DecodeIndexAction(line)
		if !ok {
			return
		}
		var want protocol.Action
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("%q: the fast path accepts what json refuses (%v)", line, err)
		}
		if got.Type != want.Type || got.ID != want.ID || (got.Index == nil) != (want.Index == nil) ||
			(got.Index != nil && *got.Index != *want.Index) || len(want.Action) != 0 {
			t.Fatalf("%q: fast path %+v, json %+v", line, got, want)
		}
	})
}
