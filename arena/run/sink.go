package run

import (
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/replays"
)

// Sink keeps what a run produces. Files is the output directory; Discard
// keeps nothing.
type Sink interface {
	// Log is where bot's stderr of game gameID is written (Open nil:
	// kept nowhere). Name is what failure messages point to.
	Log(bot, gameID string) pool.LogFile
	// Replay keeps a finished game's replay and says where (for the
	// ledger line's replay and replay_at fields: a file, "" if it is kept
	// nowhere, and where in the file when it is a pack). It is called
	// from the game's goroutine, games in parallel.
	Replay(t Table, replay Replay) (string, *replays.Span, error)
	// Record appends a game's ledger line, once its replay is kept, so a
	// recorded game always has its replay; one call at a time, in the
	// order games finish. The game counts once it returns (a GroupSink's,
	// once SyncRecords returns).
	Record(t Table, rec ledger.Record) error
}

// GroupSink is a Sink that makes what it keeps durable in groups:
// Replay and Record write without waiting for the disk; SyncReplays makes
// every replay kept so far durable, SyncRecords every ledger line. Run
// records the games that finished together in one go, off its own
// goroutine: SyncReplays, their lines, SyncRecords, then they count. A
// line that survives a crash has its replay, and a group of games costs
// two syncs instead of three per game.
type GroupSink interface {
	Sink
	SyncReplays() error
	SyncRecords() error
}

// Replay is a finished game's replay as a Sink keeps it: a
// *replays.Recorder, or the bytes a worker recorded (replays.Compressed).
type Replay interface {
	Compressed() ([]byte, error)
}

// Discard is the Sink of a run without an output directory: nothing is
// kept but what Run reports.
var Discard Sink = discard{}

type discard struct{}

func (discard) Log(string, string) pool.LogFile                     { return pool.LogFile{} }
func (discard) Replay(Table, Replay) (string, *replays.Span, error) { return "", nil, nil }
func (discard) Record(Table, ledger.Record) error                   { return nil }
