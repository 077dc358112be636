package run

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/outdir"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/replays"
)

// Dir is an output directory held for one run: its lock, and once Sink
// is called its ledger. Close releases both; call it after Run returns
// (every bot is gone and every log written by then).
type Dir struct {
	Path   string
	lock   *outdir.Lock
	ledger *ledger.Writer
}

// OpenDir takes the output directory for a run and lays it out: it holds
// dir's lock (outdir.Acquire: another run into the same directory is
// refused, since both would play and record the same games), then
// creates replays/ and logs/ and removes what killed runs leave behind
// (replays.WriteCompressed's hidden temporary files, ".NAME.tmp-*"; no other
// run can be writing them while the lock is held). warn (nil: none)
// receives a line for a stale lock and for the files removed. The ledger
// is not opened yet: a resumed run reads it first (Sink opens it).
func OpenDir(dir string, warn io.Writer) (*Dir, error) {
	if warn == nil {
		warn = io.Discard
	}
	lock, err := outdir.Acquire(dir)
	if err != nil {
		return nil, err
	}
	if text := lock.StaleText(); text != "" {
		fmt.Fprintf(warn, "arena: warning: %s\n", text)
	}
	for _, d := range []string{filepath.Join(dir, "replays"), filepath.Join(dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			lock.Unlock()
			return nil, fmt.Errorf("output directory: %w", err)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "replays", ".*"+replays.Ext+".tmp-*"))
	removed := 0
	for _, path := range leftovers {
		if err := os.Remove(path); err == nil {
			removed++
		}
	}
	if removed > 0 {
		fmt.Fprintf(warn, "arena: warning: %s: removed %d unfinished replay file(s) (.*.tmp-*) of an interrupted run; those games were not recorded\n",
			filepath.Join(dir, "replays"), removed)
	}
	return &Dir{Path: dir, lock: lock}, nil
}

// LedgerPath is the directory's ledger file.
func (d *Dir) LedgerPath() string { return filepath.Join(d.Path, ledger.FileName) }

// Sink opens the directory's ledger for appending (cutting a torn last
// line, see ledger.Open) and returns the Sink that writes each game's
// replay to replays/, then its line, and stderr logs to logs/. line (nil:
// the record itself) makes the ledger line of a game; arena sprt adds
// fields of its own.
func (d *Dir) Sink(line func(t Table, rec ledger.Record) any) (*Files, error) {
	if d.ledger == nil {
		w, err := ledger.Open(d.LedgerPath())
		if err != nil {
			return nil, err
		}
		d.ledger = w
	}
	return &Files{Dir: d.Path, Ledger: d.ledger, Line: line, disk: osDisk}, nil
}

// Close closes the ledger and releases the lock.
func (d *Dir) Close() {
	if d.ledger != nil {
		d.ledger.Close()
	}
	d.lock.Unlock()
}

// Files is the Sink of an output directory (Dir.Sink). It is a
// GroupSink: a finished game's replay is compressed at once and kept in
// memory; SyncReplays writes the group's replay files and makes them
// durable, all in one go, before their ledger lines are appended
// (Record) and synced (SyncRecords).
type Files struct {
	Dir    string
	Ledger *ledger.Writer
	Line   func(t Table, rec ledger.Record) any

	mu      sync.Mutex
	pending []pendingReplay // kept since the last SyncReplays
	disk    disk
}

// pendingReplay is a replay kept in memory until SyncReplays writes it.
type pendingReplay struct {
	t    Table
	path string
	data []byte
}

// disk is how Files writes replay files and makes them durable: the
// functions below, or what a test puts between them and the file system
// to watch the order of writes and syncs (export_test.go).
type disk struct {
	write func(path string, data []byte) error
	sync  func(dir string, paths []string) error
}

// osDisk is the file system itself.
var osDisk = disk{write: replays.WriteCompressedUnsynced, sync: syncReplays}

// Log is the file of a bot's stderr of one game, under logs/.
func (f *Files) Log(bot, gameID string) pool.LogFile { return pool.File(LogPath(f.Dir, bot, gameID)) }

// Replay compresses the replay and keeps it for SyncReplays, which
// writes it to replays/GAMEID.jsonl.zst; it returns that path, relative
// to the directory. Nothing is on disk before then: the game's goroutine
// does not wait for the file system, and a run killed in between leaves
// nothing of the game.
func (f *Files) Replay(t Table, replay Replay) (string, error) {
	rel := filepath.Join("replays", t.GameID+replays.Ext)
	data, err := replay.Compressed()
	if err != nil {
		return "", fmt.Errorf("writing replay: %w", err)
	}
	f.mu.Lock()
	f.pending = append(f.pending, pendingReplay{t, filepath.Join(f.Dir, rel), data})
	f.mu.Unlock()
	return rel, nil
}

// SyncReplays writes the replays kept so far, each whole or not at all
// (replays.WriteCompressedUnsynced: a hidden temporary file renamed into
// place), then makes them durable with one sync for the lot
// (syncReplays). A replay it could not write is a *GameError of its
// game; the replays are then not durable, and the run stops.
func (f *Files) SyncReplays() error {
	f.mu.Lock()
	pending := f.pending
	f.pending = nil
	f.mu.Unlock()
	if len(pending) == 0 {
		return nil
	}
	d := f.disk
	paths := make([]string, len(pending))
	for i, p := range pending {
		if err := d.write(p.path, p.data); err != nil {
			return &GameError{Table: p.t, Err: fmt.Errorf("writing replay: %w", err)}
		}
		paths[i] = p.path
	}
	if err := d.sync(filepath.Join(f.Dir, "replays"), paths); err != nil {
		return fmt.Errorf("syncing replays: %w", err)
	}
	return nil
}

// SyncRecords makes the ledger lines recorded so far durable.
func (f *Files) SyncRecords() error { return f.Ledger.Sync() }

// Record appends the game's ledger line.
func (f *Files) Record(t Table, rec ledger.Record) error {
	var line any = rec
	if f.Line != nil {
		line = f.Line(t, rec)
	}
	return f.Ledger.AppendUnsynced(line)
}

// Discard is the Sink of a run without an output directory: nothing is
// kept but what Run reports.
var Discard Sink = discard{}

type discard struct{}

func (discard) Log(string, string) pool.LogFile      { return pool.LogFile{} }
func (discard) Replay(Table, Replay) (string, error) { return "", nil }
func (discard) Record(Table, ledger.Record) error    { return nil }

// LogPath is where a bot's stderr of one game is kept in an output
// directory.
func LogPath(outDir, bot, gameID string) string {
	return filepath.Join(outDir, "logs", bot, gameID+".stderr.log")
}

// NewMatchID names a run: prefix, the UTC start time to the second (so ids
// read and sort by when they started) and 8 random hex digits, so that two
// runs started in the same second, here or on another machine, do not
// share ids (and so game ids and replay file names).
func NewMatchID(prefix string) string {
	return fmt.Sprintf("%s-%s-%08x", prefix, time.Now().UTC().Format("20060102-150405"), rand.Uint32())
}

// LostLogsText is the end-of-run line about stderr logs that could not be
// written (Pool.LogCounts).
func LostLogsText(logs, lost int) string {
	return fmt.Sprintf("%d of %d stderr logs lost or incomplete (see the warnings above; a full disk?): the games are recorded all the same", lost, logs)
}

// DealSecret is the secret a run deals with: given or the output
// directory's (deal.InDir, which stores a new one there before the first
// game), or a fresh one kept in memory when there is no directory.
func DealSecret(given *deal.Secret, outDir string) (*deal.Secret, error) {
	if outDir != "" {
		return deal.InDir(outDir, given)
	}
	if given != nil {
		return given, nil
	}
	return deal.New(), nil
}
