package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxNote bounds an action's note: its JSON, without the whitespace
// between tokens, at most 1 KiB. A note is for the people who read the
// replay (what the bot was thinking), not a channel for data: the bound
// keeps a replay, which holds every move's note, near its size without
// notes. The note also counts in the reply's line limit (DefaultMaxLine),
// as every byte of the line does.
const MaxNote = 1 << 10

// Why a note is dropped (CheckNote). The move it came with counts all the
// same: a note is never a failure.
var (
	// ErrNoteKind: the note is neither a JSON string nor a JSON object.
	ErrNoteKind = errors.New("note is not a string or an object")
	// ErrNoteTooLong: the note's JSON is over MaxNote bytes.
	ErrNoteTooLong = errors.New("note is over the bound")
)

// Note is what a bot said with a move, as recorded: JSON, the note
// (a string or an object, compacted), or, for a note the referee dropped,
// Dropped saying why. The zero Note is no note.
type Note struct {
	JSON    json.RawMessage
	Dropped string
}

// IsZero reports whether n is no note at all (none sent, or null).
func (n Note) IsZero() bool { return len(n.JSON) == 0 && n.Dropped == "" }

// CheckNote judges an action's note as it came (raw: the "note" field's
// JSON, nil when absent, valid JSON since the line decoded): the note
// compacted, or nil when there is none ("note": null counts as absent),
// or an error wrapping ErrNoteKind or ErrNoteTooLong saying why it is
// dropped.
func CheckNote(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '"' && raw[0] != '{' {
		return nil, fmt.Errorf("%w (it starts %s): send a string or an object", ErrNoteKind, Excerpt(raw[:min(len(raw), 16)], 16))
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoteKind, err)
	}
	if buf.Len() > MaxNote {
		return nil, fmt.Errorf("%w: %d bytes of JSON, at most %d are kept", ErrNoteTooLong, buf.Len(), MaxNote)
	}
	return buf.Bytes(), nil
}

// NoteOf is the Note recorded for an action's raw note (CheckNote): the
// note, or why it was dropped.
func NoteOf(raw json.RawMessage) Note {
	note, err := CheckNote(raw)
	if err != nil {
		return Note{Dropped: err.Error()}
	}
	return Note{JSON: note}
}
