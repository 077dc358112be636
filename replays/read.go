package replays

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/arena-dev/arena/protocol"
	"github.com/klauspost/compress/zstd"
)

// Limits on what Read accepts, so a hostile or broken file (a zip bomb)
// costs bounded memory.
const (
	// MaxDecodedSize bounds the decompressed size of a replay.
	MaxDecodedSize = 256 << 20
	// MaxLine bounds one JSON line.
	MaxLine = 16 << 20
)

// ErrTruncated is wrapped by the error for a replay that ends early: the
// compressed data stops mid-frame, the last line has no newline, or there
// is no result line.
var ErrTruncated = errors.New("truncated")

// ErrCorrupt is wrapped by the error for data that is not a valid zstd
// stream (bad magic number, bad block, checksum mismatch).
var ErrCorrupt = errors.New("bad zstd data")

// ErrRules is a replay recorded under another revision of its game's rules
// (engine.Info.Rules): it cannot be re-simulated, though it may be sound.
var ErrRules = errors.New("recorded under other rules")

// ReadFile reads and checks the structure of the replay at path (see
// Read). Errors name the file and the line. The returned Replay's Path is
// path.
func ReadFile(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	rp, err := read(f, "replay "+path)
	if err != nil {
		return nil, err
	}
	rp.Path = path
	return rp, nil
}

// Read decodes a zstd-compressed replay and checks its structure: the
// header comes first (and once) with a supported format version, every
// line is a JSON object of a known type, plies count up from 0, seats are
// in range, the result line is last and present. It does not consult the
// game engine: Verify does that.
//
// Decompression is streamed with a bounded window (MaxDecodedSize) and a
// bound on the total decompressed size and on one line.
func Read(r io.Reader) (*Replay, error) {
	return read(r, "replay")
}

func read(r io.Reader, name string) (*Replay, error) {
	dec, err := zstd.NewReader(r,
		zstd.WithDecoderMaxMemory(MaxDecodedSize),
		zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer dec.Close()
	lim := &limitReader{r: dec, n: MaxDecodedSize}
	lr := protocol.NewLineReader(lim, MaxLine)
	p := parser{name: name, rp: &Replay{}}
	for {
		line, err := lr.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, p.streamErr(err)
		}
		p.line++
		if err := p.parse(line); err != nil {
			return nil, err
		}
	}
	if p.line == 0 {
		return nil, fmt.Errorf("%s: empty: no header line", name)
	}
	if !p.done {
		return nil, fmt.Errorf("%s: %w: no result line (file ends after line %d)", name, ErrTruncated, p.line)
	}
	return p.rp, nil
}

// errTooBig is returned by limitReader past MaxDecodedSize.
var errTooBig = fmt.Errorf("decompressed size exceeds %d MiB", MaxDecodedSize>>20)

type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, &decodeError{errTooBig}
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	if err != nil && err != io.EOF {
		err = &decodeError{err}
	}
	return n, err
}

// decodeError marks an error from decompression (as opposed to one from
// splitting lines).
type decodeError struct{ err error }

func (e *decodeError) Error() string { return e.err.Error() }
func (e *decodeError) Unwrap() error { return e.err }

type parser struct {
	name   string
	rp     *Replay
	line   int  // current line number, from 1
	done   bool // result seen
	moves  int
	nSeats int
}

func (p *parser) errf(format string, args ...any) error {
	return fmt.Errorf("%s: line %d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

// streamErr explains an error from the decompressing line reader.
func (p *parser) streamErr(err error) error {
	where := fmt.Sprintf("after line %d", p.line)
	if p.line == 0 {
		where = "before the first line"
	}
	var de *decodeError
	if !errors.As(err, &de) {
		// From the line reader itself.
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%s: line %d: %w: the file ends in the middle of a line", p.name, p.line+1, ErrTruncated)
		}
		return fmt.Errorf("%s: line %d: %v", p.name, p.line+1, err)
	}
	switch err := de.err; {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: %w: compressed data ends early (%s): %v", p.name, ErrTruncated, where, err)
	case errors.Is(err, errTooBig), errors.Is(err, zstd.ErrDecoderSizeExceeded), errors.Is(err, zstd.ErrWindowSizeExceeded):
		return fmt.Errorf("%s: too large (%s): %v", p.name, where, err)
	default:
		return fmt.Errorf("%s: %w: corrupt or not a zstd file (%s): %v", p.name, ErrCorrupt, where, err)
	}
}

func (p *parser) parse(line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return p.errf("empty line")
	}
	typ, err := protocol.PeekType(line)
	if err != nil {
		if errors.Is(err, protocol.ErrNotObject) {
			return p.errf("not JSON: %s", strings.TrimPrefix(err.Error(), protocol.ErrNotObject.Error()+": "))
		}
		return p.errf("%v", err)
	}
	if p.line == 1 && typ != TypeHeader {
		return p.errf("header missing: the first line is a %q line", typ)
	}
	if p.done {
		return p.errf("%q line after the result line", typ)
	}
	switch typ {
	case TypeHeader:
		if p.line != 1 {
			return p.errf("header line is not first")
		}
		return p.header(line)
	case TypeMove:
		var m Move
		if err := json.Unmarshal(line, &m); err != nil {
			return p.errf("bad move line: %v", err)
		}
		if err := p.event(TypeMove, m.Ply, m.Seat); err != nil {
			return err
		}
		if len(m.Action) == 0 || string(m.Action) == "null" {
			return p.errf("move at ply %d has no action", m.Ply)
		}
		if m.By != "" && m.By != ByReferee {
			return p.errf("move at ply %d: unknown \"by\" value %q (want %q or none)", m.Ply, m.By, ByReferee)
		}
		if m.ThinkUs < 0 {
			return p.errf("move at ply %d: negative think_us %d", m.Ply, m.ThinkUs)
		}
		if m.WaitUs < 0 {
			return p.errf("move at ply %d: negative wait_us %d", m.Ply, m.WaitUs)
		}
		p.moves++
		p.rp.Events = append(p.rp.Events, Event{Move: &m})
	case TypeStrike:
		var s protocol.Failure
		if err := json.Unmarshal(line, &s); err != nil {
			return p.errf("bad strike line: %v", err)
		}
		if err := p.event(TypeStrike, s.Ply, s.Seat); err != nil {
			return err
		}
		p.rp.Events = append(p.rp.Events, Event{Strike: &s})
	case TypeForfeit:
		var f protocol.Failure
		if err := json.Unmarshal(line, &f); err != nil {
			return p.errf("bad forfeit line: %v", err)
		}
		if err := p.event(TypeForfeit, f.Ply, f.Seat); err != nil {
			return err
		}
		p.rp.Events = append(p.rp.Events, Event{Forfeit: &f})
	case TypeResult:
		return p.result(line)
	default:
		return p.errf("unknown line type %q", typ)
	}
	return nil
}

func (p *parser) header(line []byte) error {
	var h Header
	if err := json.Unmarshal(line, &h); err != nil {
		return p.errf("bad header: %v", err)
	}
	if h.Format != FormatVersion {
		return p.errf("unsupported format version %d (this arena reads format %d)", h.Format, FormatVersion)
	}
	if h.Game == "" {
		return p.errf("header has no game")
	}
	if len(h.Seats) == 0 {
		return p.errf("header has no seats")
	}
	for i, s := range h.Seats {
		if s.Seat != i {
			return p.errf("header seats out of order: entry %d is seat %d", i, s.Seat)
		}
	}
	p.rp.Header = h
	p.nSeats = len(h.Seats)
	return nil
}

// event checks an event's ply and seat: a move's ply is the number of
// moves before it; a strike or forfeit happens at the current ply.
func (p *parser) event(typ string, ply, seat int) error {
	if ply != p.moves {
		return p.errf("%s line has ply %d, want %d (plies out of order)", typ, ply, p.moves)
	}
	if seat < 0 || seat >= p.nSeats {
		return p.errf("%s at ply %d: seat %d out of range (%d seats)", typ, ply, seat, p.nSeats)
	}
	return nil
}

func (p *parser) result(line []byte) error {
	var r Result
	if err := json.Unmarshal(line, &r); err != nil {
		return p.errf("bad result line: %v", err)
	}
	if len(r.Ranks) != p.nSeats || len(r.Scores) != p.nSeats {
		return p.errf("result has %d ranks and %d scores for %d seats", len(r.Ranks), len(r.Scores), p.nSeats)
	}
	if r.Plies != p.moves {
		return p.errf("result says %d plies, the file has %d moves", r.Plies, p.moves)
	}
	for _, f := range r.Forfeits {
		if f.Seat < 0 || f.Seat >= p.nSeats {
			return p.errf("result forfeit: seat %d out of range (%d seats)", f.Seat, p.nSeats)
		}
	}
	p.rp.Result = r
	p.done = true
	return nil
}
