package replays

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/jsonw"
	"github.com/arena-dev/arena/protocol"

	"github.com/klauspost/compress/zstd"
)

// encoder is the one zstd encoder shared by every Recorder: EncodeAll is
// safe for concurrent use, and one encoder keeps its buffers pooled.
//
// Its window (encoderWindow), level and count (encoderCount) are chosen
// for memory: each encoder keeps its history and match tables for the
// life of the process. With the package's defaults (an 8 MiB window, the
// "better" level, one encoder per CPU) that was 20 MiB per encoder, two
// thirds of a 256-game tournament's heap. A replay is actions only
// (35 KiB for a 4-seat Uno game), so a 1 MiB window loses nothing, and
// at the default level replays came out 7% larger (Uno) or 2% smaller
// (Banqi).
var encoder = sync.OnceValue(func() *zstd.Encoder {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithWindowSize(encoderWindow),
		zstd.WithEncoderConcurrency(encoderCount),
		zstd.WithEncoderCRC(true))
	if err != nil {
		panic("replays: zstd encoder: " + err.Error()) // only bad options fail
	}
	return enc
})

// encoderWindow is how far back the replay encoder looks for a match.
const encoderWindow = 1 << 20

// encoderCount bounds the replays compressed at once: two, so that one
// long replay does not hold up the rest, whatever the number of CPUs (a
// game's replay takes tens of microseconds to compress).
const encoderCount = 2

// Recorder builds one replay in memory while a game is played. Each call
// appends one encoded JSON line; nothing touches the disk until WriteFile,
// which the referee calls once the game is over.
//
// Recording methods do not return errors, to keep the referee's hot path
// simple: the first problem (an action that is not valid JSON, an event
// after Finish) is remembered and returned by WriteFile and Compressed.
// A Recorder is safe for concurrent use.
type Recorder struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	num      [24]byte // scratch for integer formatting
	err      error
	moves    int
	forfeits []SeatForfeit
	finished bool
}

// NewRecorder starts a replay with its header line. h.Format is set to
// FormatVersion when zero; h.Options should be the resolved options.
func NewRecorder(h Header) *Recorder {
	if h.Format == 0 {
		h.Format = FormatVersion
	}
	if g, err := engine.Lookup(h.Game); err == nil && h.Rules == 0 {
		h.Rules = g.Info().Rules
	}
	r := &Recorder{}
	r.buf.Grow(4096)
	r.buf.Write(h.appendLine(r.buf.AvailableBuffer()))
	r.buf.WriteByte('\n')
	return r
}

// appendLine appends h's line as encoding/json writes it (with its type
// first), without reflection: every game begins with one, and
// encoding/json was a tenth of a two-ply game's CPU in the arena.
// TestHeaderLineIsEncodingJSONs holds the two to the same bytes.
func (h Header) appendLine(b []byte) []byte {
	b = append(b, `{"type":"`+TypeHeader+`","format":`...)
	b = strconv.AppendInt(b, int64(h.Format), 10)
	b = append(b, `,"arena":`...)
	b = jsonw.String(b, h.Arena)
	b = append(b, `,"game":`...)
	b = jsonw.String(b, h.Game)
	b = append(b, `,"options":`...)
	b = jsonw.StringMap(b, h.Options)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, h.Seed, 10)
	if h.Rules != 0 { // omitempty
		b = append(b, `,"rules":`...)
		b = strconv.AppendInt(b, int64(h.Rules), 10)
	}
	b = append(b, `,"match":`...)
	b = jsonw.String(b, h.Match)
	b = append(b, `,"game_id":`...)
	b = jsonw.String(b, h.GameID)
	b = append(b, `,"seats":`...)
	b = jsonw.Array(b, h.Seats, appendSeat)
	b = append(b, `,"clock":`...)
	b = h.Clock.AppendJSON(b)
	b = append(b, `,"started":"`...)
	b = h.Started.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...)
}

func appendSeat(b []byte, s SeatInfo) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(s.Seat), 10)
	b = append(b, `,"bot":`...)
	b = jsonw.String(b, s.Bot)
	if s.RoundTripUS != 0 { // omitempty
		b = append(b, `,"round_trip_us":`...)
		b = strconv.AppendInt(b, s.RoundTripUS, 10)
	}
	return append(b, '}')
}

func (r *Recorder) int(n int64) {
	r.buf.Write(strconv.AppendInt(r.num[:0], n, 10))
}

// usable reports whether an event may still be recorded; it records an
// error for an event after Finish. Call with r.mu held.
func (r *Recorder) usable(kind string, ply int) bool {
	if r.finished {
		if r.err == nil {
			r.err = fmt.Errorf("replays: %s at ply %d recorded after the result", kind, ply)
		}
		return false
	}
	return r.err == nil
}

// Move records one applied action. action is the action's JSON object as
// already encoded for the bots (it is copied, compacted, not re-marshalled);
// think is how long the bot was charged, waited the rest of the move's wall
// time (it waited for a CPU); byReferee marks a move the referee chose (a
// forfeited seat's move, or after a strike).
func (r *Recorder) Move(ply, seat int, action json.RawMessage, think, waited time.Duration, byReferee bool) {
	r.move(ply, seat, action, think, waited, byReferee, protocol.Note{})
}

// MoveNote records a bot's move with what it said (referee.NoteRecorder):
// the note as the move line's "note", or why the referee dropped it as
// "note_dropped". A move without a note is the line Move writes, byte for
// byte, so replays of games without notes are as they were.
func (r *Recorder) MoveNote(ply, seat int, action json.RawMessage, think, waited time.Duration, note protocol.Note) {
	r.move(ply, seat, action, think, waited, false, note)
}

func (r *Recorder) move(ply, seat int, action json.RawMessage, think, waited time.Duration, byReferee bool, note protocol.Note) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.usable(TypeMove, ply) {
		return
	}
	mark := r.buf.Len()
	r.buf.WriteString(`{"type":"move","ply":`)
	r.int(int64(ply))
	r.buf.WriteString(`,"seat":`)
	r.int(int64(seat))
	r.buf.WriteString(`,"action":`)
	// Compact validates and keeps the line on one line; it writes nothing
	// on error.
	if err := json.Compact(&r.buf, action); err != nil {
		r.buf.Truncate(mark)
		r.err = fmt.Errorf("replays: move at ply %d: action is not valid JSON (%q): %w", ply, action, err)
		return
	}
	r.buf.WriteString(`,"think_us":`)
	r.int(think.Microseconds())
	if us := waited.Microseconds(); us > 0 {
		r.buf.WriteString(`,"wait_us":`)
		r.int(us)
	}
	if byReferee {
		r.buf.WriteString(`,"by":"referee"`)
	}
	if !r.note(ply, note) {
		r.buf.Truncate(mark)
		return
	}
	r.buf.WriteString("}\n")
	r.moves++
}

// note appends a move's note fields, if any; false (an error recorded)
// for a note that is not valid JSON. Call with r.mu held.
func (r *Recorder) note(ply int, note protocol.Note) bool {
	if len(note.JSON) > 0 {
		r.buf.WriteString(`,"note":`)
		if err := json.Compact(&r.buf, note.JSON); err != nil {
			r.err = fmt.Errorf("replays: move at ply %d: note is not valid JSON: %w", ply, err)
			return false
		}
	}
	if note.Dropped != "" {
		b, _ := json.Marshal(note.Dropped) // a string always encodes
		r.buf.WriteString(`,"note_dropped":`)
		r.buf.Write(b)
	}
	return true
}

// Strike records f, a failure under the random policy at f.Ply (the
// number of moves played so far); the referee's replacement move follows
// with byReferee set.
func (r *Recorder) Strike(f protocol.Failure) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.usable(TypeStrike, f.Ply) {
		return
	}
	r.line(struct {
		Type string `json:"type"`
		protocol.Failure
	}{TypeStrike, f})
}

// Forfeit records that f.Seat left the game at f.Ply (the number of
// moves played so far); f.Detail says what happened ("no reply within
// 100ms").
func (r *Recorder) Forfeit(f protocol.Failure) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.usable(TypeForfeit, f.Ply) {
		return
	}
	r.line(struct {
		Type string `json:"type"`
		protocol.Failure
	}{TypeForfeit, f})
	r.forfeits = append(r.forfeits, seatForfeit(f))
}

// line appends one marshalled line. Call with r.mu held.
func (r *Recorder) line(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		r.err = fmt.Errorf("replays: encoding line: %w", err)
		return
	}
	r.buf.Write(b)
	r.buf.WriteByte('\n')
}

// Finish records the result line; no event may follow. When res.Plies is
// zero it is set to the number of recorded moves, and when res.Forfeits is
// nil it is filled from the recorded forfeits, so ResultOf(outcome) is
// enough.
func (r *Recorder) Finish(res Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.usable(TypeResult, r.moves) {
		return
	}
	if res.Plies == 0 {
		res.Plies = r.moves
	}
	if res.Forfeits == nil && len(r.forfeits) > 0 {
		res.Forfeits = append([]SeatForfeit(nil), r.forfeits...)
	}
	r.line(struct {
		Type string `json:"type"`
		Result
	}{TypeResult, res})
	r.finished = true
}

// Compressed returns the finished replay as zstd-compressed bytes, the
// content WriteFile writes. It fails if Finish was not called or a
// recording error happened.
func (r *Recorder) Compressed() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return nil, r.err
	}
	if !r.finished {
		return nil, errors.New("replays: game not finished (no result recorded)")
	}
	return encoder().EncodeAll(r.buf.Bytes(), make([]byte, 0, r.buf.Len()/4+64)), nil
}

// tempSeq makes temporary file names unique within the process.
var tempSeq struct {
	sync.Mutex
	n uint64
}

// WriteFile writes the finished replay to path atomically
// (WriteCompressed).
func (r *Recorder) WriteFile(path string) error {
	data, err := r.Compressed()
	if err != nil {
		return err
	}
	return WriteCompressed(path, data)
}

// Compressed is a replay's content as recorded elsewhere (by a
// distributed worker): zstd-compressed JSON lines, as Recorder.Compressed
// returns them.
type Compressed []byte

// Compressed returns c itself.
func (c Compressed) Compressed() ([]byte, error) { return c, nil }

// WriteCompressed writes a compressed replay (Recorder.Compressed) to
// path atomically: to a hidden temporary file in the same directory
// (".NAME.tmp-*", mode 0644 before umask), synced to disk and renamed
// over path. Readers see either no file (or the previous one) or the
// complete replay, never a partial one; on error the temporary file is
// removed. The directory must exist.
func WriteCompressed(path string, data []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, tmp, err := createTemp(dir, base)
	if err != nil {
		return fmt.Errorf("replays: writing %s: %w", path, err)
	}
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("replays: writing %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replays: writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replays: writing %s: %w", path, err)
	}
	// Make the rename itself durable; not every platform can sync a
	// directory, so this is best effort.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// createTemp creates a new hidden temporary file next to the target, with
// mode 0644 subject to the umask (os.CreateTemp would force 0600).
func createTemp(dir, base string) (*os.File, string, error) {
	for range 100 {
		tempSeq.Lock()
		tempSeq.n++
		n := tempSeq.n
		tempSeq.Unlock()
		name := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d-%d-%d", base, os.Getpid(), n, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", errors.New("cannot create a temporary file")
}
