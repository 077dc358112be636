package replays

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// A pack is many games' replays in one file, *.pack.zst: each replay a
// whole zstd frame of its own (Recorder.Compressed), appended one after
// another. A run writes its replays into packs so that a group of games
// that ended together costs one append and one data sync rather than a
// new file each (run.Files); the ledger line of each game says where its
// replay lies (a Span). The file as a whole is still a valid zstd stream
// of JSON lines, every game's header to result in turn, so `zstd -dc`
// reads it like a replay file.

// PackExt is the file name extension of a pack.
const PackExt = ".pack.zst"

// IsPack says whether path names a pack, by its extension.
func IsPack(path string) bool { return strings.HasSuffix(path, PackExt) }

// PackName is the file name of a run's pack number seq (from 1):
// pack-000001.pack.zst, so that packs sort in the order they were written.
func PackName(seq int) string { return fmt.Sprintf("pack-%06d%s", seq, PackExt) }

// PackSeq is the number of the pack named name (PackName), false for a
// name PackName does not make.
func PackSeq(name string) (int, bool) {
	digits, ok := strings.CutPrefix(strings.TrimSuffix(name, PackExt), "pack-")
	if !ok || !IsPack(name) || len(digits) < 6 || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n <= 0 || PackName(n) != name {
		return 0, false
	}
	return n, true
}

// Span is where one replay lies in a pack: Size bytes from Offset.
type Span struct {
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
}

// End is the offset just past the replay.
func (s Span) End() int64 { return s.Offset + s.Size }

// Source is where a replay is read from: a file of its own (At nil) or a
// Span of a pack.
type Source struct {
	Path string
	At   *Span
}

// String names the replay for people: the file, and the span in a pack.
func (s Source) String() string {
	if s.At == nil {
		return s.Path
	}
	return fmt.Sprintf("%s at offset %d (%d bytes)", s.Path, s.At.Offset, s.At.Size)
}

// Read reads and checks the replay (ReadFile, or ReadSpan for a pack).
func (s Source) Read() (*Replay, error) {
	if s.At == nil {
		return ReadFile(s.Path)
	}
	return ReadSpan(s.Path, *s.At)
}

// ErrSpan is wrapped by the error for a span that is not one whole replay
// of its pack: it reaches past the end of the file, or its bytes are not
// exactly one zstd frame.
var ErrSpan = errors.New("not one whole replay")

// ReadSpan reads and checks the replay that lies at span of the pack at
// path (see Read). Errors name the file and the offset. The returned
// Replay's Path is path and its At the span.
func ReadSpan(path string, span Span) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	name := fmt.Sprintf("replay %s at offset %d", path, span.Offset)
	if span.Offset < 0 || span.Size <= 0 || span.Size > MaxDecodedSize {
		return nil, fmt.Errorf("%s: %w: size %d", name, ErrSpan, span.Size)
	}
	data := make([]byte, span.Size)
	if n, err := f.ReadAt(data, span.Offset); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w: the file ends %d bytes into its %d (a pack cut short?)", name, ErrTruncated, n, span.Size)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if n, err := frameSize(data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	} else if n != len(data) {
		return nil, fmt.Errorf("%s: %w: a frame of %d bytes, then %d more", name, ErrSpan, n, len(data)-n)
	}
	rp, err := read(bytes.NewReader(data), name)
	if err != nil {
		return nil, err
	}
	rp.Path, rp.At = path, &span
	return rp, nil
}

// Packed is one replay of a pack, or of a file (At nil): read, or why
// it does not read.
type Packed struct {
	At     *Span
	Replay *Replay
	Err    error
}

// ReadPack reads every replay of the pack at path, in file order, each
// checked as Read checks one (its Path the pack, its At where it lies).
// The frames are found by their headers, without decompressing, so a
// replay that does not read (its Err names the file and its offset)
// costs no other: the next frame is read after it. Only where the frames
// can no longer be followed (a tail cut short by a run killed while
// appending, whose last games were then not recorded; bytes that are no
// zstd frame) does the last entry hold the rest of the file and its
// error. The error is for a pack that cannot be read at all.
func ReadPack(path string) ([]Packed, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("replay %s: empty pack", path)
	}
	var out []Packed
	for off := 0; off < len(data); {
		name := fmt.Sprintf("replay %s at offset %d", path, off)
		n, err := frameSize(data[off:])
		if err != nil {
			at := &Span{Offset: int64(off), Size: int64(len(data) - off)}
			return append(out, Packed{At: at, Err: fmt.Errorf("%s: %w", name, err)}), nil
		}
		at := &Span{Offset: int64(off), Size: int64(n)}
		rp, err := read(bytes.NewReader(data[off:off+n]), name)
		if err == nil {
			rp.Path, rp.At = path, at
		}
		out = append(out, Packed{At: at, Replay: rp, Err: err})
		off += n
	}
	return out, nil
}

// ReadAll reads every replay of the file at path: the one of a replay
// file (ReadFile), or each of a pack's (ReadPack).
func ReadAll(path string) ([]Packed, error) {
	if IsPack(path) {
		return ReadPack(path)
	}
	rp, err := ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return []Packed{{Replay: rp, Err: err}}, nil
}

// Where names the replay for people: its file, and where it lies in a
// pack ("" for a replay from Read).
func (r *Replay) Where() string { return Source{Path: r.Path, At: r.At}.String() }

// zstd frame layout (RFC 8878, section 3.1.1).
const (
	frameMagic         = 0xFD2FB528
	skippableMagicMask = 0xFFFFFFF0
	skippableMagic     = 0x184D2A50
	blockHeaderSize    = 3
	checksumSize       = 4
)

// frameSize is the length of the zstd frame (or skippable frame) at the
// start of data, read from its headers alone.
func frameSize(data []byte) (int, error) {
	short := func(at int) error {
		return fmt.Errorf("%w: a zstd frame cut short (%d bytes; more needed at byte %d)", ErrTruncated, len(data), at)
	}
	if len(data) < 4 {
		return 0, short(len(data))
	}
	magic := binary.LittleEndian.Uint32(data)
	if magic&skippableMagicMask == skippableMagic {
		if len(data) < 8 {
			return 0, short(8)
		}
		n := 8 + int(binary.LittleEndian.Uint32(data[4:]))
		if n > len(data) {
			return 0, short(n)
		}
		return n, nil
	}
	if magic != frameMagic {
		return 0, fmt.Errorf("%w: no zstd frame starts here (magic %#08x)", ErrCorrupt, magic)
	}
	if len(data) < 5 {
		return 0, short(5)
	}
	fhd := data[4]
	at := 5
	singleSegment := fhd&0x20 != 0
	if !singleSegment {
		at++ // window descriptor
	}
	at += [4]int{0, 1, 2, 4}[fhd&3] // dictionary id
	fcs := [4]int{0, 2, 4, 8}[fhd>>6]
	if fcs == 0 && singleSegment {
		fcs = 1
	}
	at += fcs
	for {
		if at+blockHeaderSize > len(data) {
			return 0, short(at + blockHeaderSize)
		}
		h := int(data[at]) | int(data[at+1])<<8 | int(data[at+2])<<16
		at += blockHeaderSize
		last, kind, size := h&1 != 0, (h>>1)&3, h>>3
		switch kind {
		case 1: // RLE: one byte, repeated
			size = 1
		case 3:
			return 0, fmt.Errorf("%w: reserved block type at byte %d", ErrCorrupt, at-blockHeaderSize)
		}
		at += size
		if at > len(data) {
			return 0, short(at)
		}
		if last {
			break
		}
	}
	if fhd&0x04 != 0 {
		at += checksumSize
		if at > len(data) {
			return 0, short(at)
		}
	}
	return at, nil
}
