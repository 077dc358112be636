package replays_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/arena-dev/arena/replays"
)

// writePack plays the games of seeds, appends their replays to a pack in
// dir and returns its path and where each replay lies.
func writePack(t *testing.T, dir string, seeds ...uint64) (string, []replays.Span) {
	t.Helper()
	var data []byte
	var spans []replays.Span
	for _, seed := range seeds {
		rec, _ := play(t, script{seed: seed, seats: 3, options: map[string]string{"target": "40"}})
		frame, err := rec.Compressed()
		if err != nil {
			t.Fatal(err)
		}
		spans = append(spans, replays.Span{Offset: int64(len(data)), Size: int64(len(frame))})
		data = append(data, frame...)
	}
	path := filepath.Join(dir, replays.PackName(1))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, spans
}

// TestReadPack: the replays of a pack, found by their frames' headers,
// are those appended, each at its span, and each reads by its span alone;
// so does a frame that is not the package's own (raw and RLE blocks, a
// content size, no checksum) and a skippable frame is passed over.
func TestReadPack(t *testing.T) {
	dir := t.TempDir()
	path, spans := writePack(t, dir, 1, 2, 3)
	got, err := replays.ReadPack(path)
	if err != nil || len(got) != len(spans) {
		t.Fatalf("ReadPack: %d replays (%v), want %d", len(got), err, len(spans))
	}
	for i, p := range got {
		if p.Err != nil || *p.At != spans[i] || p.Replay.Header.Seed != uint64(i+1) || p.Replay.Path != path || *p.Replay.At != spans[i] {
			t.Fatalf("replay %d: %+v (%v), want seed %d at %+v", i, p.At, p.Err, i+1, spans[i])
		}
		rp, err := replays.ReadSpan(path, spans[i])
		if err != nil || rp.Header.Seed != uint64(i+1) {
			t.Fatalf("ReadSpan %+v: %v", spans[i], err)
		}
		if err := replays.Verify(rp); err != nil {
			t.Fatal(err)
		}
	}

	// Another encoder's frames: every block kind, a content size, no
	// checksum; with a skippable frame between them.
	rec, _ := play(t, script{seed: 9})
	text := decompressed(t, rec)
	plain, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithNoEntropyCompression(true), zstd.WithEncoderCRC(false))
	defer plain.Close()
	frames := [][]byte{
		plain.EncodeAll(text, nil),
		append([]byte{0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0}, "abc"...), // skippable
		compress(t, string(text)),
	}
	other := filepath.Join(dir, replays.PackName(2))
	if err := os.WriteFile(other, bytes.Join(frames, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = replays.ReadPack(other)
	if err != nil || len(got) != 3 || got[0].Err != nil || got[2].Err != nil || got[1].Err == nil {
		t.Fatalf("a pack of other frames: %+v (%v); want 2 replays and the skippable frame as no replay", got, err)
	}
	if got[2].At.Offset != int64(len(frames[0])+len(frames[1])) {
		t.Fatalf("the third frame at %d, want %d", got[2].At.Offset, len(frames[0])+len(frames[1]))
	}
}

// decompressed is the JSON lines a Recorder holds.
func decompressed(t *testing.T, rec *replays.Recorder) []byte {
	t.Helper()
	data, err := rec.Compressed()
	if err != nil {
		t.Fatal(err)
	}
	dec, _ := zstd.NewReader(nil)
	defer dec.Close()
	text, err := dec.DecodeAll(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestDamagedPack: damage to a pack costs the replays it touches, each
// named by the pack and its offset; the others read, by ReadPack and by
// their spans.
func TestDamagedPack(t *testing.T) {
	tests := []struct {
		name    string
		damage  func(data []byte, spans []replays.Span) []byte
		badSpan int   // the replay that does not read by its span
		entries int   // ReadPack's
		want    error // the error of ReadPack's entry badSpan (nil: any)
	}{
		{"a byte flipped in the middle one", func(data []byte, s []replays.Span) []byte {
			data[s[1].Offset+s[1].Size/2] ^= 0xff
			return data
		}, 1, 3, nil},
		// The frames after it can no longer be found, but still read by
		// their spans.
		{"the middle one's magic overwritten", func(data []byte, s []replays.Span) []byte {
			copy(data[s[1].Offset:], "junk")
			return data
		}, 1, 2, replays.ErrCorrupt},
		{"cut short in the last one", func(data []byte, s []replays.Span) []byte {
			return data[:s[2].Offset+s[2].Size/2]
		}, 2, 3, replays.ErrTruncated},
		{"cut in the last one's first bytes", func(data []byte, s []replays.Span) []byte {
			return data[:s[2].Offset+3]
		}, 2, 3, replays.ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path, spans := writePack(t, t.TempDir(), 1, 2, 3)
			data, _ := os.ReadFile(path)
			os.WriteFile(path, tc.damage(data, spans), 0o644)
			for i, s := range spans {
				_, err := replays.ReadSpan(path, s)
				if (i == tc.badSpan) != (err != nil) {
					t.Errorf("replay %d by its span: %v; want damaged %v", i, err, i == tc.badSpan)
				}
				if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("%s at offset %d", path, s.Offset)) {
					t.Errorf("replay %d: %v does not name the pack and offset %d", i, err, s.Offset)
				}
			}
			got, err := replays.ReadPack(path)
			if err != nil || len(got) != tc.entries {
				t.Fatalf("ReadPack: %d entries (%v), want %d", len(got), err, tc.entries)
			}
			for i, p := range got {
				if p.At.Offset != spans[i].Offset || (i == tc.badSpan) != (p.Err != nil) {
					t.Errorf("ReadPack's entry %d at %d: %v; want at %d, damaged %v", i, p.At.Offset, p.Err, spans[i].Offset, i == tc.badSpan)
				}
			}
			bad := got[tc.badSpan]
			if tc.want != nil && !errors.Is(bad.Err, tc.want) || !strings.Contains(bad.Err.Error(), fmt.Sprintf("%s at offset %d", path, bad.At.Offset)) {
				t.Errorf("ReadPack's damaged entry: %v; want %v naming the pack and offset %d", bad.Err, tc.want, bad.At.Offset)
			}
		})
	}
}

// TestReadSpanOfNotOneReplay: a span that is not exactly one replay of
// its pack is an error naming the pack and the offset.
func TestReadSpanOfNotOneReplay(t *testing.T) {
	path, spans := writePack(t, t.TempDir(), 1, 2)
	tests := []struct {
		name string
		span replays.Span
		want error
	}{
		{"two replays", replays.Span{Offset: 0, Size: spans[0].Size + spans[1].Size}, replays.ErrSpan},
		{"past the end", replays.Span{Offset: spans[1].Offset, Size: spans[1].Size + 10}, replays.ErrTruncated},
		{"in the middle of one", replays.Span{Offset: 5, Size: spans[0].Size - 5}, replays.ErrCorrupt},
		{"short of its end", replays.Span{Offset: 0, Size: spans[0].Size - 1}, replays.ErrTruncated},
		{"empty", replays.Span{Offset: spans[1].Offset}, replays.ErrSpan},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := replays.ReadSpan(path, tc.span)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), fmt.Sprintf("%s at offset %d", path, tc.span.Offset)) {
				t.Fatalf("ReadSpan %+v: %v; want %v naming the pack and offset", tc.span, err, tc.want)
			}
		})
	}
}

func TestPackSeq(t *testing.T) {
	tests := []struct {
		name string
		seq  int
		ok   bool
	}{
		{replays.PackName(1), 1, true},
		{replays.PackName(1234567), 1234567, true},
		{"pack-000000.pack.zst", 0, false},
		{"pack-12.pack.zst", 0, false},
		{"pack-0000001.pack.zst", 0, false},
		{"pack-00000x.pack.zst", 0, false},
		{"pack-000001.jsonl.zst", 0, false},
		{"pack--00001.pack.zst", 0, false},
	}
	for _, tc := range tests {
		if seq, ok := replays.PackSeq(tc.name); seq != tc.seq || ok != tc.ok {
			t.Errorf("PackSeq(%q) = %d, %v; want %d, %v", tc.name, seq, ok, tc.seq, tc.ok)
		}
	}
}
