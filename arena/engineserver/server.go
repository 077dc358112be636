package engineserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/arena-dev/arena/engine/jsonw"
)

// MaxLine bounds a request line, in bytes (a longer one is answered with
// bad_request and skipped); DefaultMaxStates is how many handles may be
// live at once unless Config.MaxStates says otherwise.
const (
	MaxLine          = 16 << 20
	DefaultMaxStates = 100000
)

// Config sets up a Server.
type Config struct {
	// MaxStates bounds the live handles (states, observers, environments);
	// 0 means DefaultMaxStates.
	MaxStates int
	// Version is the arena's version, which hello reports.
	Version string
}

// Server holds game states by handle and answers requests. It is not safe
// for concurrent use: one Server serves one stream of requests, in order.
type Server struct {
	cfg     Config
	handles handles
	hello   []byte // hello's result fields, built on first use
	scratch []byte // reused by ops that encode to compare (apply)
}

// New is a Server with no handles.
func New(cfg Config) *Server {
	if cfg.MaxStates <= 0 {
		cfg.MaxStates = DefaultMaxStates
	}
	return &Server{cfg: cfg, handles: handles{max: cfg.MaxStates, live: map[int64]any{}}}
}

// op is one operation: it reads its arguments from the request object
// args and appends its result fields to out, each as `,"name":value`
// (the server has written `{"id":...` before and closes the object).
// Another file of this package adds its ops to the table with register.
type op func(s *Server, args []byte, out []byte) ([]byte, error)

// ops is the op table, by name.
var ops = map[string]op{}

// register adds an op to the table; a name registered twice is a bug.
func register(name string, f op) {
	if _, dup := ops[name]; dup {
		panic("engineserver: op " + name + " registered twice")
	}
	ops[name] = f
}

// Serve answers the request lines of r on w, one response line each,
// flushed as it is written, until r ends (nil) or w fails.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriterSize(w, 64<<10)
	var line, resp []byte
	for {
		var err error
		var tooLong bool
		line, tooLong, err = readLine(in, line[:0])
		if len(line) == 0 && !tooLong && err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if tooLong {
			resp = appendFailure(resp[:0], nil, fail(BadRequest, "request line longer than %d bytes: split the batch", MaxLine))
		} else {
			resp = s.Handle(resp[:0], line)
		}
		resp = append(resp, '\n')
		if _, werr := out.Write(resp); werr != nil {
			return werr
		}
		if werr := out.Flush(); werr != nil {
			return werr
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
	}
}

// readLine reads one line into buf (without its newline). A line over
// MaxLine is read to its end and dropped: tooLong.
func readLine(in *bufio.Reader, buf []byte) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := in.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxLine+1 {
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		return buf, tooLong, err
	}
}

// Handle appends to dst the response to one request line (without a
// newline): a single request's object, or a batch's array.
func (s *Server) Handle(dst, line []byte) []byte {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil {
			return appendFailure(dst, nil, fail(BadRequest, "the line is not a JSON array of requests: %v", err))
		}
		dst = append(dst, '[')
		for i, req := range batch {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = s.one(dst, req)
		}
		return append(dst, ']')
	}
	return s.one(dst, line)
}

// head is what every request has besides its op's arguments.
type head struct {
	ID json.RawMessage `json:"id"`
	Op *string         `json:"op"`
}

// one appends the response to one request object.
func (s *Server) one(dst, req []byte) []byte {
	var h head
	if err := json.Unmarshal(req, &h); err != nil {
		return appendFailure(dst, nil, fail(BadRequest, "the request is not a JSON object: %v", err))
	}
	if h.Op == nil {
		return appendFailure(dst, h.ID, fail(BadRequest, `the request has no "op": say which operation, e.g. {"op":"hello"}`))
	}
	f, ok := ops[*h.Op]
	if !ok {
		return appendFailure(dst, h.ID, fail(BadRequest, "unknown op %q: see docs/engine.md for the operations", *h.Op))
	}
	start := len(dst)
	dst = appendID(dst, h.ID)
	out, err := s.call(f, req, dst)
	if err != nil {
		return appendFailure(dst[:start], h.ID, codeOf(err))
	}
	return append(out, '}')
}

// call runs f, turning a panic of an engine into an internal error: bad
// input must never stop the server.
func (s *Server) call(f op, args, out []byte) (res []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fail(Internal, "the operation panicked: %v", p)
		}
	}()
	return f(s, args, out)
}

// appendID opens a response object with the request's id (null if none).
func appendID(dst []byte, id json.RawMessage) []byte {
	dst = append(dst, `{"id":`...)
	if len(id) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, id...)
}

// appendFailure appends a whole failure response.
func appendFailure(dst []byte, id json.RawMessage, e *Error) []byte {
	dst = appendID(dst, id)
	dst = append(dst, `,"error":{"code":`...)
	dst = jsonw.String(dst, string(e.Code))
	dst = append(dst, `,"message":`...)
	dst = jsonw.String(dst, e.Message)
	return append(dst, "}}"...)
}

// appendInt appends `,"name":v`.
func appendInt(dst []byte, name string, v int) []byte {
	return strconv.AppendInt(appendKey(dst, name), int64(v), 10)
}

// appendBool appends `,"name":v`.
func appendBool(dst []byte, name string, v bool) []byte {
	return strconv.AppendBool(appendKey(dst, name), v)
}

// appendKey appends `,"name":` for a value the caller appends.
func appendKey(dst []byte, name string) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}
