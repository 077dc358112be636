// Package ledger is the durable record of finished games: results.jsonl,
// one JSON object per line, appended and synced before a game counts. A run
// that dies mid-write leaves at most one torn last line, which Read detects
// and drops with a warning, so a resumed run never double-counts or loses
// a recorded game. Every line ends with a checksum of itself (sum), so a
// line edited afterwards is told apart from one the arena wrote.
package ledger

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
)

// FileName is the ledger's name inside an output directory.
const FileName = "results.jsonl"

// MaxLine bounds one ledger line, in bytes. A game's record is a few
// hundred bytes (more with many strikes); the bound keeps a damaged or
// hostile ledger from costing more memory than this per line, and Append
// refuses a record over it, so every line written can be read back. It
// is the bound on a replay line too (docs/replays.md).
const MaxLine = 16 << 20

// Errors, for errors.Is.
var (
	// ErrLineTooLong: a line longer than MaxLine.
	ErrLineTooLong = errors.New("line too long")
	// ErrDamaged: a line, not the last, that is not a record.
	ErrDamaged = errors.New("not a ledger record")
	// ErrEdited: a line changed after the arena wrote it (Entry.Edited).
	ErrEdited = errors.New("edited after the arena wrote it")
)

// EditedError is the error of an entry whose line was edited (wrapping
// ErrEdited), nil if it was not: what a reader tells its user, and what
// to do.
func (e Entry[T]) EditedError() error {
	if e.Edited == "" {
		return nil
	}
	return fmt.Errorf("%w (%s): it counts as it reads now, which need not be how the game ended", ErrEdited, e.Edited)
}

// LineError is a problem with one line of a ledger file.
type LineError struct {
	Path string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("ledger %s: line %d: %v", e.Path, e.Line, e.Err)
}
func (e *LineError) Unwrap() error { return e.Err }

// Writer appends lines to a ledger file.
type Writer struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (creating if needed) the ledger at path for appending. If the
// file ends in a torn line, it is cut back to the last complete line first,
// so new lines start clean.
func Open(path string) (*Writer, error) {
	if err := trimTorn(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return &Writer{f: f}, nil
}

// Append writes v as one line and syncs it to disk: when Append returns
// nil, the line survives a crash.
func (w *Writer) Append(v any) error {
	if err := w.AppendUnsynced(v); err != nil {
		return err
	}
	return w.Sync()
}

// AppendUnsynced writes v as one line, not synced yet: it survives a
// crash once Sync returns. Lines appended and then synced together cost
// one sync (a group commit).
func (w *Writer) AppendUnsynced(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("ledger: encoding: %w", err)
	}
	line = sealLine(line)
	if len(line) > MaxLine {
		return fmt.Errorf("ledger %s: a record of %d bytes: %w: longer than %s, the most a ledger line may hold", w.f.Name(), len(line), ErrLineTooLong, sizeText(MaxLine))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("ledger: writing %s: %w", w.f.Name(), err)
	}
	return nil
}

// Sync makes every line appended so far survive a crash.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("ledger: syncing %s: %w", w.f.Name(), err)
	}
	return nil
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }

// Torn describes a damaged last line that Read dropped.
type Torn struct {
	Line  int
	Bytes int
}

func (t *Torn) String() string {
	return fmt.Sprintf("dropped a torn last line (line %d, %d bytes): the run stopped while writing it", t.Line, t.Bytes)
}

// Entry is one record of the ledger with the line it is on (from 1).
type Entry[T any] struct {
	Line   int
	Record T
	// Edited says why the line is not as the arena wrote it ("" if it
	// is): its checksum does not match it, or it has none where the
	// lines before it had one. The record is decoded all the same: only
	// a check against the game's replay (tournament verify) can say what
	// the line said.
	Edited string
}

// Read decodes every complete line of the ledger at path into a T in file
// order (ReadEntries without the line numbers).
func Read[T any](path string) (records []T, torn *Torn, err error) {
	entries, torn, err := ReadEntries[T](path)
	if err != nil {
		return nil, nil, err
	}
	records = make([]T, len(entries))
	for i, e := range entries {
		records[i] = e.Record
	}
	return records, torn, nil
}

// ReadEntries decodes every complete line of the ledger at path, with its
// line number, in file order. A missing file is an empty ledger. A last
// line without its newline (a write cut short) is dropped and reported in
// torn; a damaged line anywhere else is a *LineError naming the file and
// line (wrapping ErrDamaged), since that is not what an interrupted append
// leaves behind; so is a line longer than MaxLine (ErrLineTooLong), which
// no Writer writes. The file is read a line at a time, so a hostile file
// costs at most MaxLine of memory beyond the records.
func ReadEntries[T any](path string) (entries []Entry[T], torn *Torn, err error) {
	torn, err = Each(path, func(e Entry[T]) error {
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return entries, torn, nil
}

// Each calls f with every complete line of the ledger at path, in file
// order, as ReadEntries reads them, and keeps none: a reader that folds
// a long ledger (a ladder's million games) needs memory for its fold
// only. An error of f stops the reading and is returned as it is.
func Each[T any](path string, f func(Entry[T]) error) (torn *Torn, err error) {
	r, err := openReader[T](path)
	if r == nil {
		return nil, err
	}
	defer r.f.Close()
	for {
		e, torn, err := r.next()
		switch {
		case err != nil:
			return nil, err
		case e == nil:
			return torn, nil
		}
		if err := f(*e); err != nil {
			return nil, err
		}
	}
}

// ReadFirst decodes the first complete line of the ledger at path as
// ReadEntries does, and reads no further: what a run checks of an output
// directory costs a line, however many games it holds. nil when there is
// none (no file, an empty one, only a torn line).
func ReadFirst[T any](path string) (*Entry[T], error) {
	r, err := openReader[T](path)
	if r == nil {
		return nil, err
	}
	defer r.f.Close()
	e, _, err := r.next()
	return e, err
}

// reader reads a ledger's lines in file order: the one parser of
// ReadEntries and ReadFirst.
type reader[T any] struct {
	path       string
	f          *os.File
	br         *bufio.Reader
	lineNo     int // the last line read
	sealedFrom int // the first line with a checksum
}

// openReader opens the ledger at path; nil, nil if there is none.
func openReader[T any](path string) (*reader[T], error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return &reader[T]{path: path, f: f, br: bufio.NewReaderSize(f, 64<<10)}, nil
}

// next decodes the next complete line; nil at the end of the file, with
// torn set if the last line was cut short.
func (r *reader[T]) next() (*Entry[T], *Torn, error) {
	for {
		r.lineNo++
		raw, complete, err := readLine(r.br)
		if errors.Is(err, ErrLineTooLong) {
			return nil, nil, &LineError{Path: r.path, Line: r.lineNo, Err: err}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("ledger %s: line %d: %w", r.path, r.lineNo, err)
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			if !complete {
				return nil, nil, nil
			}
			continue
		}
		if !complete {
			// Even if it happens to parse: an append that was cut short
			// may have lost the end of its record.
			return nil, &Torn{Line: r.lineNo, Bytes: len(raw)}, nil
		}
		e := &Entry[T]{Line: r.lineNo}
		if err := json.Unmarshal(raw, &e.Record); err != nil {
			return nil, nil, &LineError{Path: r.path, Line: r.lineNo, Err: fmt.Errorf("%w: %v", ErrDamaged, err)}
		}
		switch sealedLine(raw) {
		case sealOK:
			if r.sealedFrom == 0 {
				r.sealedFrom = r.lineNo
			}
		case sealBroken:
			e.Edited = "its checksum (sum) does not match it"
		case sealNone:
			// Lines written before checksums have none; a line without
			// one after a line with one was not appended by the arena.
			if r.sealedFrom > 0 {
				e.Edited = fmt.Sprintf("it has no checksum (sum), as every line from line %d has", r.sealedFrom)
			}
		}
		return e, nil, nil
	}
}

// sumKey ends every line a Writer appends: `,"sum":"` and sumDigits hex
// digits of the SHA-256 of the line without it, then `"}`. The checksum
// catches a line edited by hand or by a tool that does not know it; it is
// no seal against someone who recomputes it (the arena keeps no secret
// for it): only re-simulating the game's replay (tournament verify) is.
const (
	sumKey    = `"sum":"`
	sumDigits = 16
)

// sumOf is the checksum of a JSON object's encoding without its sum.
func sumOf(object []byte) string {
	h := sha256.Sum256(object)
	return hex.EncodeToString(h[:])[:sumDigits]
}

// sealLine appends its checksum to the encoding of a JSON object. Other
// JSON values (a test's numbers) are left as they are.
func sealLine(object []byte) []byte {
	n := len(object)
	if n < 2 || object[0] != '{' || object[n-1] != '}' {
		return object
	}
	sum := sumOf(object)
	sep := ","
	if n == 2 {
		sep = "" // {}
	}
	out := make([]byte, 0, n+len(sep)+len(sumKey)+sumDigits+2)
	out = append(out, object[:n-1]...)
	out = append(out, sep...)
	out = append(out, sumKey...)
	out = append(out, sum...)
	return append(out, `"}`...)
}

type seal int

const (
	sealNone   seal = iota // no checksum: a line written before them, or not by the arena
	sealOK                 // the checksum matches
	sealBroken             // a checksum that does not match: the line was edited
)

// sealedLine checks a ledger line's checksum: the line must be what
// sealLine makes of it without its checksum, byte for byte.
func sealedLine(raw []byte) seal {
	raw = bytes.TrimRight(raw, " \t\r")
	// A key "sum" appears in no record but as the checksum, and its
	// quotes cannot be a string's (they would be escaped): from here the
	// line had a checksum, which must be where sealLine put it.
	at := bytes.LastIndex(raw, []byte(sumKey))
	if at < 0 {
		return sealNone
	}
	// The object sealLine was given: the line up to the checksum, without
	// the comma before it (none after "{", for {}), closed; a copy (Clip),
	// so that closing it does not write over raw.
	object := append(slices.Clip(bytes.TrimSuffix(raw[:at], []byte(","))), '}')
	if !bytes.Equal(sealLine(object), raw) {
		return sealBroken
	}
	return sealOK
}

// readLine reads one line without its newline; complete is false for a
// last line without one (and an empty raw at the end of the file). A
// line longer than MaxLine is ErrLineTooLong, found without reading the
// rest of it.
func readLine(br *bufio.Reader) (raw []byte, complete bool, err error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine+1 { // +1: the newline
			return nil, false, fmt.Errorf("%w: longer than %s, the most a ledger line may hold", ErrLineTooLong, sizeText(MaxLine))
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return line, false, nil
		default:
			return nil, false, err
		}
	}
}

// sizeText writes a byte count the way people read it: 16 MiB, 512 KiB.
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// trimTorn cuts a file back to its last newline.
func trimTorn(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer f.Close()
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == 0 {
		return err
	}
	// Look back in chunks for the last newline.
	const chunk = 64 << 10
	end := size
	for end > 0 {
		start := max(end-chunk, 0)
		buf := make([]byte, end-start)
		if _, err := f.ReadAt(buf, start); err != nil {
			return fmt.Errorf("ledger: %w", err)
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			keep := start + int64(i) + 1
			if keep == size {
				return nil
			}
			return f.Truncate(keep)
		}
		end = start
	}
	return f.Truncate(0)
}
