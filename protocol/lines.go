package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrLineTooLong means a line exceeded the reader's limit. The reader stops
// there: the peer is at fault and is not read further.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads newline-terminated lines with a hard size limit, so a
// peer sending an endless line costs at most the limit in memory.
type LineReader struct {
	r     io.Reader
	max   int
	buf   []byte
	start int // start of unread data in buf
	end   int // end of data in buf
	err   error
}

// NewLineReader reads from r; lines longer than max bytes (newline
// excluded) yield ErrLineTooLong.
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{r: r, max: max, buf: make([]byte, 4096)}
}

// ReadLine returns the next line without its newline (a trailing \r is
// stripped too). The slice is valid until the next call. Input that ends
// in the middle of a line yields io.ErrUnexpectedEOF: a protocol line is
// only complete with its newline. A read deadline (os.ErrDeadlineExceeded)
// is returned as is and does not end the reader: a partial line read so far
// is kept for the next call.
func (lr *LineReader) ReadLine() ([]byte, error) {
	if errors.Is(lr.err, ErrLineTooLong) {
		return nil, lr.err // the stream is out of step for good
	}
	scanned := lr.start
	for {
		if i := bytes.IndexByte(lr.buf[scanned:lr.end], '\n'); i >= 0 {
			nl := scanned + i
			line := lr.buf[lr.start:nl]
			lr.start = nl + 1
			if len(line) > lr.max {
				lr.err = fmt.Errorf("%w: over %d bytes", ErrLineTooLong, lr.max)
				return nil, lr.err
			}
			return bytes.TrimSuffix(line, []byte("\r")), nil
		}
		scanned = lr.end
		if lr.end-lr.start > lr.max {
			lr.err = fmt.Errorf("%w: over %d bytes", ErrLineTooLong, lr.max)
			return nil, lr.err
		}
		if lr.err != nil {
			if lr.end > lr.start && errors.Is(lr.err, io.EOF) {
				partial := lr.end - lr.start
				lr.start = lr.end
				return nil, fmt.Errorf("%w: %d bytes without a newline", io.ErrUnexpectedEOF, partial)
			}
			return nil, lr.err
		}
		// Make room: slide unread data down, grow up to max+1 (+ read chunk).
		if lr.start > 0 {
			n := copy(lr.buf, lr.buf[lr.start:lr.end])
			scanned -= lr.start
			lr.start, lr.end = 0, n
		}
		if lr.end == len(lr.buf) {
			newSize := 2 * len(lr.buf)
			if limit := lr.max + 2; newSize > limit {
				newSize = max(limit, len(lr.buf)+1)
			}
			nb := make([]byte, newSize)
			copy(nb, lr.buf[:lr.end])
			lr.buf = nb
		}
		n, err := lr.r.Read(lr.buf[lr.end:])
		lr.end += n
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				// Not sticky: what was read is kept, and a later call after
				// a new deadline carries on from there.
				return nil, err
			}
			lr.err = err
		}
	}
}
