package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// Record is one line of results.jsonl: one finished game.
type Record struct {
	Index    int           `json:"index"`
	GameID   string        `json:"game_id"`
	Round    int           `json:"round,omitempty"`
	Seed     uint64        `json:"seed"`
	Bots     []string      `json:"bots"`
	Ranks    []int         `json:"ranks"`
	Scores   []float64     `json:"scores"`
	Reason   string        `json:"reason"`
	Plies    int           `json:"plies"`
	Forfeits []SeatFailure `json:"forfeits"`
	Strikes  []SeatFailure `json:"strikes,omitempty"`
	// Replay is the game's replay file, relative to the output
	// directory: a pack (replays/*.pack.zst) with ReplayAt where in it,
	// or, in directories written before packs, a file of its own
	// (replays/GAME_ID.jsonl.zst) and no ReplayAt.
	Replay   string        `json:"replay,omitempty"`
	ReplayAt *replays.Span `json:"replay_at,omitempty"`
	// RoundTripUS is, per seat, the round trip to a remote bot measured
	// as the game began, in microseconds (0 for a local bot; absent when
	// every bot is local).
	RoundTripUS []int64 `json:"round_trip_us,omitempty"`
	// Worker is, in a distributed run, the worker that played the game,
	// and Load its machine's load per core (1-minute average over the
	// cores) as the game ended: fairness per worker shows in them.
	Worker string  `json:"worker,omitempty"`
	Load   float64 `json:"load,omitempty"`
}

// ReplaySource is where the game's replay is, in the output directory
// dir ("" Path if the line names none).
func (r Record) ReplaySource(dir string) replays.Source {
	if r.Replay == "" {
		return replays.Source{}
	}
	return replays.Source{Path: filepath.Join(dir, r.Replay), At: r.ReplayAt}
}

// SeatFailure is a forfeit or strike of a game: the referee's
// protocol.Failure without its ply (Ply is 0: results.jsonl does not
// record it), the bot named, and what progress output says of it, which
// results.jsonl does not record either (MarshalJSON).
type SeatFailure struct {
	protocol.Failure
	Bot string
	// StderrLast is, for a forfeit, the last line the bot wrote to stderr
	// during the game ("" if nothing): what a crash said, such as the
	// last line of a Python traceback, which the detail ("exited with
	// status 1") does not. For progress output only: Log has it all, and
	// results.jsonl and the replay keep the detail.
	StderrLast string
	// Log is the game's stderr log of the bot ("" without an output
	// directory), for progress output.
	Log string
	// Absent says the bot took no part in the game (suspended after
	// failing to start, or withdrawn): Detail says which, and no hint
	// about writing a bot applies. For progress output only.
	Absent bool
	// Advice is what usually fixes this failure when its cause knows
	// better than its reason (transport.HintOf: a remote bot that no one
	// serves); "" leaves the reason's hint. For progress output only.
	Advice string
}

// seatFailureLine is a SeatFailure as a results.jsonl line holds it.
type seatFailureLine struct {
	Seat   int             `json:"seat"`
	Bot    string          `json:"bot"`
	Reason protocol.Reason `json:"reason"`
	Detail string          `json:"detail"`
}

// MarshalJSON writes f as results.jsonl records it.
func (f SeatFailure) MarshalJSON() ([]byte, error) {
	return json.Marshal(seatFailureLine{Seat: f.Seat, Bot: f.Bot, Reason: f.Reason, Detail: f.Detail})
}

// UnmarshalJSON reads f as results.jsonl records it.
func (f *SeatFailure) UnmarshalJSON(data []byte) error {
	var l seatFailureLine
	if err := json.Unmarshal(data, &l); err != nil {
		return err
	}
	*f = SeatFailure{Failure: protocol.Failure{Seat: l.Seat, Reason: l.Reason, Detail: l.Detail}, Bot: l.Bot}
	return nil
}

// FailureOf is the failure f of bot, as a game's record holds it.
func FailureOf(f protocol.Failure, bot string) SeatFailure {
	f.Ply = 0
	return SeatFailure{Failure: f, Bot: bot}
}

// Hint is what usually fixes f: its Advice, else f.Reason.Hint (what
// usually causes a failure of f's kind); "" for a bot that took no part
// (Absent).
func (f SeatFailure) Hint() string {
	switch {
	case f.Absent:
		return ""
	case f.Advice != "":
		return f.Advice
	}
	return f.Reason.Hint()
}

// ErrNoGame is wrapped by FindReplay's error for a game the ledger does
// not hold, or that its name does not pick out alone.
var ErrNoGame = errors.New("no such game")

// FindReplay is where the replay of game gameID is in the output
// directory dir, as its ledger (dir/results.jsonl) says: its first line
// for the game. gameID may also be the end of one game's id after a "-"
// (g0003 for banqi-20261202-050008-114d06f5-g0003), as long as it ends
// no other's: a match's game ids differ only there.
func FindReplay(dir, gameID string) (replays.Source, error) {
	path := filepath.Join(dir, FileName)
	recs, _, err := Read[Record](path)
	if err != nil {
		return replays.Source{}, err
	}
	var ends []Record
	for _, r := range recs {
		if r.Replay == "" {
			continue
		}
		if r.GameID == gameID {
			return r.ReplaySource(dir), nil
		}
		if strings.HasSuffix(r.GameID, "-"+gameID) && (len(ends) == 0 || ends[len(ends)-1].GameID != r.GameID) {
			ends = append(ends, r)
		}
	}
	switch {
	case len(ends) == 1:
		return ends[0].ReplaySource(dir), nil
	case len(ends) > 1:
		return replays.Source{}, fmt.Errorf("ledger %s: %w: %q ends %d game ids (%s, %s, ...): give one whole", path, ErrNoGame, gameID, len(ends), ends[0].GameID, ends[1].GameID)
	}
	return replays.Source{}, fmt.Errorf("ledger %s: %w %q with a replay (%d games recorded)", path, ErrNoGame, gameID, len(recs))
}
