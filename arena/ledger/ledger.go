// Package ledger is the durable record of finished games: results.jsonl,
// one JSON object per line, appended and synced before a game counts. A run
// that dies mid-write leaves at most one torn last line, which Read detects
// and drops with a warning, so a resumed run never double-counts or loses
// a recorded game.
package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// FileName is the ledger's name inside an output directory.
const FileName = "results.jsonl"

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
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("ledger: encoding: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("ledger: writing %s: %w", w.f.Name(), err)
	}
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

// Read decodes every complete line of the ledger at path into a T (via
// decode) in file order. A missing file is an empty ledger. A last line
// without its newline (a write cut short) is dropped and reported in torn;
// a damaged line anywhere else is an error naming the line, since that is
// not what an interrupted append leaves behind.
func Read[T any](path string) (records []T, torn *Torn, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("ledger: %w", err)
	}
	return parse[T](path, data)
}

func parse[T any](path string, data []byte) ([]T, *Torn, error) {
	var out []T
	var torn *Torn
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	lineNo, consumed := 0, 0
	for sc.Scan() {
		lineNo++
		raw := sc.Bytes()
		consumed += len(raw) + 1
		complete := consumed <= len(data) && data[consumed-1] == '\n'
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var rec T
		if err := json.Unmarshal(raw, &rec); err != nil || !complete {
			if !complete {
				torn = &Torn{Line: lineNo, Bytes: len(raw)}
				break
			}
			return nil, nil, fmt.Errorf("ledger %s line %d: %v", path, lineNo, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	return out, torn, nil
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
