package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/outdir"
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
