package run

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/replays"
)

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

// LogPath is where a bot's stderr of one game is kept in an output
// directory.
func LogPath(outDir, bot, gameID string) string {
	return filepath.Join(outDir, "logs", bot, gameID+".stderr.log")
}
