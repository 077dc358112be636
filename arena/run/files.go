package run

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
	sinks  []*Files // made by Sink, whose packs Close closes
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
		// The names of the ledger and of replays/ are made durable once,
		// before any game counts: each group syncs only its pack and the
		// ledger themselves.
		if err := syncDir(d.Path); err != nil {
			w.Close()
			return nil, fmt.Errorf("output directory: syncing %s: %w", d.Path, err)
		}
		d.ledger = w
	}
	f := &Files{Dir: d.Path, Ledger: d.ledger, Line: line, disk: osDisk, next: packPlace{seq: nextPack(d.Path)}}
	d.sinks = append(d.sinks, f)
	return f, nil
}

// Close closes the ledger and releases the lock.
func (d *Dir) Close() {
	for _, f := range d.sinks {
		if f.pack != nil {
			f.pack.Close()
		}
	}
	if d.ledger != nil {
		d.ledger.Close()
	}
	d.lock.Unlock()
}

// Files is the Sink of an output directory (Dir.Sink). It is a
// GroupSink: a finished game's replay is compressed at once and kept in
// memory; SyncReplays appends the group's replays to the run's pack
// (replays/pack-NNNNNN.pack.zst, replays.ReadPack) and makes them
// durable, all in one go, before their ledger lines, which say where in
// the pack each replay lies, are appended (Record) and synced
// (SyncRecords).
type Files struct {
	Dir    string
	Ledger *ledger.Writer
	Line   func(t Table, rec ledger.Record) any

	mu      sync.Mutex
	pending []pendingReplay // kept since the last SyncReplays, in pack order
	next    packPlace       // where the next replay kept goes
	disk    disk

	// The syncer's alone: the pack being appended to, and the first
	// error writing it (after which the pack's offsets are not known).
	pack   *os.File
	broken error
}

// packPlace is where the next replay goes: pack number seq, at size.
type packPlace struct {
	seq  int
	size int64
}

// PackBytes bounds a pack: a replay that would take it past this many
// bytes starts the next one (a pack is read whole by replays.ReadPack).
const PackBytes = 64 << 20

// PackPath is pack number seq of the output directory dir.
func PackPath(dir string, seq int) string { return filepath.Join(dir, packRel(seq)) }

// packRel is pack number seq relative to its output directory, as a
// ledger line names it.
func packRel(seq int) string { return filepath.Join("replays", replays.PackName(seq)) }

// nextPack is the number of the first pack a run into dir writes: one
// past the highest there, so a run never appends to a pack that an
// earlier run, perhaps killed in the middle of an append, left behind.
func nextPack(dir string) int {
	paths, _ := filepath.Glob(filepath.Join(dir, "replays", "pack-*"+replays.PackExt))
	seq := 1
	for _, p := range paths {
		if n, ok := replays.PackSeq(filepath.Base(p)); ok && n >= seq {
			seq = n + 1
		}
	}
	return seq
}

// pendingReplay is a replay kept in memory until SyncReplays writes it
// to pack seq.
type pendingReplay struct {
	t    Table
	seq  int
	data []byte
}

// disk is how Files appends to its packs and makes them durable: the
// functions below, or what a test puts between them and the file system
// to watch the order of writes and syncs (export_test.go). fresh says
// the pack was created since its last sync, so its name must be made
// durable too.
type disk struct {
	write func(pack *os.File, data []byte) error
	sync  func(pack *os.File, fresh bool) error
}

// osDisk is the file system itself.
var osDisk = disk{write: appendPack, sync: syncPack}

func appendPack(pack *os.File, data []byte) error {
	_, err := pack.Write(data)
	return err
}

// Log is the file of a bot's stderr of one game, under logs/.
func (f *Files) Log(bot, gameID string) pool.LogFile { return pool.File(LogPath(f.Dir, bot, gameID)) }

// Replay compresses the replay and keeps it for SyncReplays, which
// appends it to the run's pack; it returns that pack, relative to the
// directory, and where in it the replay will lie. Nothing is on disk
// before then: the game's goroutine does not wait for the file system,
// and a run killed in between leaves nothing of the game.
func (f *Files) Replay(t Table, replay Replay) (string, *replays.Span, error) {
	data, err := replay.Compressed()
	if err != nil {
		return "", nil, fmt.Errorf("writing replay: %w", err)
	}
	f.mu.Lock()
	if f.next.size > 0 && f.next.size+int64(len(data)) > PackBytes {
		f.next = packPlace{seq: f.next.seq + 1}
	}
	at := &replays.Span{Offset: f.next.size, Size: int64(len(data))}
	seq := f.next.seq
	f.next.size += int64(len(data))
	f.pending = append(f.pending, pendingReplay{t, seq, data})
	f.mu.Unlock()
	return packRel(seq), at, nil
}

// SyncReplays appends the replays kept so far to their packs, each pack's
// in one write, then makes them durable with one data sync a pack
// (syncPack; a pack it created, its name too). A replay it could not
// write is a *GameError of its game; the replays are then not durable,
// and the run stops (and so does every later SyncReplays: the pack's
// offsets are no longer known).
func (f *Files) SyncReplays() error {
	f.mu.Lock()
	pending := f.pending
	f.pending = nil
	f.mu.Unlock()
	if len(pending) == 0 {
		return nil
	}
	if f.broken != nil {
		return &GameError{Table: pending[0].t, Err: f.broken}
	}
	for len(pending) > 0 {
		n := 1
		size := len(pending[0].data)
		for n < len(pending) && pending[n].seq == pending[0].seq {
			size += len(pending[n].data)
			n++
		}
		if err := f.appendGroup(pending[:n], size); err != nil {
			f.broken = err
			return &GameError{Table: pending[0].t, Err: err}
		}
		pending = pending[n:]
	}
	return nil
}

// appendGroup appends replays, all of one pack and size bytes in all, to
// that pack, and syncs it.
func (f *Files) appendGroup(group []pendingReplay, size int) error {
	path := PackPath(f.Dir, group[0].seq)
	fresh := false
	if f.pack == nil || f.pack.Name() != path {
		if f.pack != nil {
			f.pack.Close() // synced with its last group
		}
		pack, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			f.pack = nil
			return fmt.Errorf("writing replay: %w", err)
		}
		f.pack, fresh = pack, true
	}
	data := group[0].data
	if len(group) > 1 {
		data = make([]byte, 0, size)
		for _, p := range group {
			data = append(data, p.data...)
		}
	}
	if err := f.disk.write(f.pack, data); err != nil {
		return fmt.Errorf("writing replay: %s: %w", path, err)
	}
	if err := f.disk.sync(f.pack, fresh); err != nil {
		return fmt.Errorf("syncing replays: %s: %w", path, err)
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

func (discard) Log(string, string) pool.LogFile                     { return pool.LogFile{} }
func (discard) Replay(Table, Replay) (string, *replays.Span, error) { return "", nil, nil }
func (discard) Record(Table, ledger.Record) error                   { return nil }

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
	return fmt.Sprintf("%s-%s-%08x", prefix, time.Now().UTC().Format(matchIDTime), rand.Uint32())
}

// matchIDTime is the time in a match id (NewMatchID).
const matchIDTime = "20060102-150405"

// matchIDRest is what follows a match id's prefix: its time and random
// part, "-20261205-014856-a8094d8c".
var matchIDRest = regexp.MustCompile(`^-\d{8}-\d{6}-[0-9a-f]{8}$`)

// IsMatchID reports whether id is a match id NewMatchID(prefix) made.
func IsMatchID(id, prefix string) bool {
	rest, ok := strings.CutPrefix(id, prefix)
	return ok && matchIDRest.MatchString(rest)
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

// OtherRunError is an output directory that holds results a new run
// would mix with its own: another game's, a tournament's, an earlier
// SPRT's (which does not resume). The user's --out is the mistake.
type OtherRunError struct {
	Dir   string
	Holds string // "an earlier sprt (sprt.json)", "banqi games"
	Run   string // what this run is: "this sprt", "this match of uno"
}

func (e *OtherRunError) Error() string {
	return fmt.Sprintf("%s holds %s, which %s would mix with its own results: give another output directory", e.Dir, e.Holds, e.Run)
}

// CheckOtherRun refuses (an *OtherRunError) an output directory whose
// first recorded game is not one this run would add to: ours says which
// games are (nil: none, for a run that does not resume, which refuses a
// ledger it cannot read as well). this is what the run is, for the
// message ("this sprt"). Only the ledger's first line is read
// (ledger.ReadFirst), however many games it holds.
func CheckOtherRun(dir, this string, ours func(gameID string) bool) error {
	first, err := ledger.ReadFirst[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil && ours == nil {
		// A run that adds nothing to any other's (an sprt) refuses
		// results it cannot read as it refuses any: it writes nothing
		// there.
		return &OtherRunError{Dir: dir, Holds: fmt.Sprintf("results it cannot read (%v)", err), Run: this}
	}
	if err != nil || first == nil || ours != nil && ours(first.Record.GameID) {
		return err
	}
	return &OtherRunError{Dir: dir, Holds: fmt.Sprintf("the results of another run (its first game: %s)", first.Record.GameID), Run: this}
}
