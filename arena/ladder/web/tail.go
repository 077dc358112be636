package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/arena-dev/arena/arena/ledger"
)

// errShrunk: the ledger is shorter than what was read of it (rewritten
// by hand, or a fresh directory in its place): it is read again whole.
var errShrunk = errors.New("the ledger shrank")

// tail reads a ledger as it grows: each call returns the complete lines
// appended since the last, so a ladder of a million games costs the
// server its new lines only. A last line without its newline (a write
// under way, or torn by a crash) is left for a later call.
type tail struct {
	path string
	off  int64 // the end of the last complete line read
	line int   // lines read so far
}

// next reads the records of the complete lines after t.off, at most
// limit of them (a ledger read whole costs the memory of a batch, not of
// all its records at once). A line that
// is not a record is a *ledger.LineError (wrapping ledger.ErrDamaged or
// ledger.ErrLineTooLong); the records before it are returned with it,
// and t stops before it.
func (t *tail) next(limit int) ([]ledger.Record, error) {
	f, err := os.Open(t.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, t.shrunk(0)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() < t.off {
		return nil, t.shrunk(st.Size())
	}
	br := bufio.NewReader(io.NewSectionReader(f, t.off, st.Size()-t.off))
	var recs []ledger.Record
	for len(recs) < limit {
		raw, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			raw, err = readLong(br, raw)
		}
		if err != nil { // io.EOF: no newline yet
			if errors.Is(err, io.EOF) {
				return recs, nil
			}
			return recs, t.lineError(err)
		}
		var rec ledger.Record
		if body := bytes.TrimSpace(raw); len(body) > 0 {
			if err := json.Unmarshal(body, &rec); err != nil {
				return recs, t.lineError(fmt.Errorf("%w: %v", ledger.ErrDamaged, err))
			}
			// What the pages never show, so that a long ladder costs
			// less memory.
			rec.Strikes, rec.RoundTripUS = nil, nil
			recs = append(recs, rec)
		}
		t.off += int64(len(raw))
		t.line++
	}
	return recs, nil
}

// readLong reads the rest of a line longer than the reader's buffer, up
// to ledger.MaxLine.
func readLong(br *bufio.Reader, first []byte) ([]byte, error) {
	line := append([]byte(nil), first...)
	for {
		more, err := br.ReadSlice('\n')
		line = append(line, more...)
		if len(line) > ledger.MaxLine {
			return nil, ledger.ErrLineTooLong
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

func (t *tail) lineError(err error) error {
	return &ledger.LineError{Path: t.path, Line: t.line + 1, Err: err}
}

// shrunk starts t again from the beginning.
func (t *tail) shrunk(size int64) error {
	if t.off == 0 {
		return nil // nothing read yet: a missing or empty ledger
	}
	err := fmt.Errorf("%s: %w to %d bytes from %d read", t.path, errShrunk, size, t.off)
	t.off, t.line = 0, 0
	return err
}
