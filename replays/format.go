// Package replays records, reads, verifies and prints arena game replays.
//
// A replay is one file per game, named *.jsonl.zst, or one frame of a
// pack of many games (*.pack.zst, pack.go): a zstd-compressed stream of
// JSON lines. The first line is the header (game, resolved
// options, seed, seats, clock), then one line per event in the order it
// happened (move, strike, forfeit), and last the result line. Engines are
// deterministic, so the header plus the recorded actions re-simulate the
// whole game: Verify replays a file through the engine registry and checks
// every move and the recorded result; Show prints the game move by move as
// one seat (or a spectator) saw it.
//
// The referee builds a file with a Recorder, which keeps the encoded lines
// in memory and writes the compressed file atomically once the game is
// over (WriteFile). ReadFile and Read decode a file with bounded memory and
// report what is wrong with a damaged one, naming the line.
//
// docs/replays.md describes the format for people reading replays with
// standard tools.
package replays

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// FormatVersion is the replay format this package writes and reads (the
// header's "format" field).
const FormatVersion = 1

// Ext is the file name extension of a replay.
const Ext = ".jsonl.zst"

// Line types, the "type" field of every line.
const (
	TypeHeader  = "header"
	TypeMove    = "move"
	TypeStrike  = "strike"
	TypeForfeit = "forfeit"
	TypeResult  = "result"
)

// ByReferee is the value of a move's "by" field when the referee chose
// the move (for a forfeited seat, or after a strike under the random
// policy).
const ByReferee = "referee"

// Header is the first line of a replay: everything needed to re-create the
// game's initial state.
type Header struct {
	// Format is the replay format version (FormatVersion); NewRecorder
	// fills it in when zero.
	Format int `json:"format"`
	// Arena is the version of the arena that played the game.
	Arena string `json:"arena"`
	// Game is the registered game name (engine.Lookup).
	Game string `json:"game"`
	// Options are the resolved rule options (every option, canonical
	// values), as returned by engine.Setup.
	Options engine.Options `json:"options"`
	// Seed deals the game (Game.New).
	Seed uint64 `json:"seed"`
	// Rules is the game's rules revision (engine.Info.Rules); NewRecorder
	// fills it in for a registered game. Absent in replays of revision 0.
	Rules int `json:"rules,omitempty"`
	// Match identifies the match or tournament the game belongs to.
	Match string `json:"match"`
	// GameID identifies the game within the match.
	GameID string `json:"game_id"`
	// Seats lists who played, in seat order (Seats[i].Seat == i).
	Seats []SeatInfo `json:"seats"`
	// Clock is the time control the bots played under.
	Clock protocol.Clock `json:"clock"`
	// Started is when the game started (RFC 3339 in the file).
	Started time.Time `json:"started"`
}

// SeatInfo names the bot in one seat.
type SeatInfo struct {
	Seat int    `json:"seat"`
	Bot  string `json:"bot"`
	// RoundTripUS is, for a remote bot, the round trip to it measured as
	// the game began, in microseconds (absent for a local bot).
	RoundTripUS int64 `json:"round_trip_us,omitempty"`
}

// Move is one applied action.
type Move struct {
	// Ply counts moves from 0; it is also the number of moves before it.
	Ply int `json:"ply"`
	// Seat is the seat that moved (the state's ToMove).
	Seat int `json:"seat"`
	// Action is the game's action JSON object (Game.ParseAction reads it).
	Action json.RawMessage `json:"action"`
	// ThinkUs is how long the bot took to answer, in microseconds (for a
	// referee move: the time spent before the referee stepped in).
	ThinkUs int64 `json:"think_us"`
	// WaitUs is the rest of the move's wall time, not charged to the bot
	// (protocol.md, the clock): time it was ready to run but waited for a
	// CPU, or a reply in time that the referee read late. Absent when 0.
	WaitUs int64 `json:"wait_us,omitempty"`
	// By is "referee" (ByReferee) when the referee chose the move, else
	// empty.
	By string `json:"by,omitempty"`
	// Note is what the bot said with its move (a JSON string or object,
	// docs/protocol.md), absent when it said nothing. It is for people
	// reading the replay: no bot is ever sent it.
	Note json.RawMessage `json:"note,omitempty"`
	// NoteDropped says why the bot's note was not kept (over
	// protocol.MaxNote, or not a string or an object); absent otherwise.
	NoteDropped string `json:"note_dropped,omitempty"`
}

// Noted reports whether the move carries a note, or word of one dropped.
func (m *Move) Noted() bool { return len(m.Note) > 0 || m.NoteDropped != "" }

// Think returns ThinkUs as a Duration.
func (m *Move) Think() time.Duration { return time.Duration(m.ThinkUs) * time.Microsecond }

// SeatForfeit is one entry of the result's forfeit list: a forfeit
// line's failure without its ply (Ply is 0).
type SeatForfeit struct {
	protocol.Failure
}

// seatForfeitLine is a SeatForfeit as the result line holds it.
type seatForfeitLine struct {
	Seat   int             `json:"seat"`
	Reason protocol.Reason `json:"reason"`
	Detail string          `json:"detail,omitempty"`
}

// MarshalJSON writes f as the result line holds it.
func (f SeatForfeit) MarshalJSON() ([]byte, error) {
	return json.Marshal(seatForfeitLine{Seat: f.Seat, Reason: f.Reason, Detail: f.Detail})
}

// UnmarshalJSON reads f as the result line holds it.
func (f *SeatForfeit) UnmarshalJSON(data []byte) error {
	var l seatForfeitLine
	if err := json.Unmarshal(data, &l); err != nil {
		return err
	}
	*f = SeatForfeit{protocol.Failure{Seat: l.Seat, Reason: l.Reason, Detail: l.Detail}}
	return nil
}

// seatForfeit is f's entry in the result's forfeit list.
func seatForfeit(f protocol.Failure) SeatForfeit {
	f.Ply = 0
	return SeatForfeit{f}
}

// Result is the last line: the final outcome, after forfeits.
type Result struct {
	// Ranks per seat, 1 is best (engine.Outcome.Ranks).
	Ranks []int `json:"ranks"`
	// Scores per seat in the game's units.
	Scores []float64 `json:"scores"`
	// Reason says why the game ended.
	Reason string `json:"reason"`
	// Plies is the number of moves played (move lines).
	Plies int `json:"plies"`
	// Forfeits lists the seats that forfeited, in the order they did.
	Forfeits []SeatForfeit `json:"forfeits,omitempty"`
}

// ResultOf builds a Result from an engine outcome; Recorder.Finish fills
// in Plies and Forfeits.
func ResultOf(o engine.Outcome) Result {
	return Result{Ranks: o.Ranks, Scores: o.Scores, Reason: o.Reason}
}

// Outcome returns the result's ranks, scores and reason.
func (r Result) Outcome() engine.Outcome {
	return engine.Outcome{Ranks: r.Ranks, Scores: r.Scores, Reason: r.Reason}
}

// Event is one move, strike or forfeit line: exactly one field is set.
// A strike is a bot's failure under the random policy: the seat is not
// forfeited, the referee plays a random legal move for it instead (the
// next line, by:"referee"). A forfeit is a seat leaving the game for
// good. Both lines hold a protocol.Failure (its ply is the number of
// moves played before it; a reason of protocol.Reasons).
type Event struct {
	Move    *Move
	Strike  *protocol.Failure
	Forfeit *protocol.Failure
}

// Type returns the event's line type: "move", "strike" or "forfeit"
// ("" for an empty Event).
func (e Event) Type() string {
	switch {
	case e.Move != nil:
		return TypeMove
	case e.Strike != nil:
		return TypeStrike
	case e.Forfeit != nil:
		return TypeForfeit
	}
	return ""
}

// Ply returns the event's ply.
func (e Event) Ply() int {
	switch {
	case e.Move != nil:
		return e.Move.Ply
	case e.Strike != nil:
		return e.Strike.Ply
	case e.Forfeit != nil:
		return e.Forfeit.Ply
	}
	return -1
}

// Seat returns the event's seat.
func (e Event) Seat() int {
	switch {
	case e.Move != nil:
		return e.Move.Seat
	case e.Strike != nil:
		return e.Strike.Seat
	case e.Forfeit != nil:
		return e.Forfeit.Seat
	}
	return -1
}

// Replay is a whole decoded replay file.
type Replay struct {
	// Path is the file it was read from (ReadFile, a pack for ReadSpan
	// and ReadPack), used in error messages; empty for Read.
	Path string
	// At is where it lies in the pack at Path; nil for a file of its own.
	At     *Span
	Header Header
	// Events are the move, strike and forfeit lines in file order:
	// Events[i] is on line i+2 of the file.
	Events []Event
	Result Result
}

// resultLine is the line number of the result line.
func (r *Replay) resultLine() int { return len(r.Events) + 2 }

// Bots are the bots' names by seat, as the header lists them.
func (r *Replay) Bots() []string {
	bots := make([]string, len(r.Header.Seats))
	for i, si := range r.Header.Seats {
		bots[i] = si.Bot
	}
	return bots
}

// seatName is "seat 1 (bob)".
func (r *Replay) seatName(seat int) string {
	if seat >= 0 && seat < len(r.Header.Seats) {
		return fmt.Sprintf("seat %d (%s)", seat, r.Header.Seats[seat].Bot)
	}
	return fmt.Sprintf("seat %d", seat)
}

// name is how errors refer to the replay.
func (r *Replay) name() string {
	switch {
	case r.Path != "" && r.At != nil:
		return fmt.Sprintf("replay %s at offset %d", r.Path, r.At.Offset)
	case r.Path != "":
		return "replay " + r.Path
	}
	return "replay"
}
