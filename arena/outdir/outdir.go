// Package outdir keeps two arena runs out of one output directory.
//
// Two runs into one directory (arena match, tournament run or sprt with
// the same --out) would each play the games the ledger does not hold yet
// and append them: the same games recorded twice, standings counted
// twice. So a run holds the directory's lock file (LockName) while it
// plays: an exclusive flock(2) on it (LockFileEx on Windows), and in it
// the holder's pid, start time and command, so that the run refused can
// say who holds it.
//
// The kernel drops a flock when its holder dies, however it dies (a
// crash, kill -9, a reboot), so a lock can never be left stale in the
// sense of blocking the next run. What a dead holder leaves behind is its
// note in the file: a lock acquired over a file that still names a holder
// was not released cleanly, which Acquire reports (Lock.Stale) so the run
// can say that the directory holds an interrupted run. The file is
// emptied, never removed, on release: removing it would let a run that
// opened the old file and one that creates a new one both hold "the"
// lock.
package outdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockName is the lock file's name inside an output directory.
const LockName = "arena.lock"

// maxNote bounds what is read of a lock file: a pid, a time, a command.
const maxNote = 4 << 10

// ErrBusy: another live process holds the directory's lock.
var ErrBusy = errors.New("in use by another arena run")

// Holder is what a lock file says about the process that took it.
type Holder struct {
	PID     int
	Started string // RFC 3339, as written
	Command string
}

func (h Holder) String() string {
	s := "pid " + strconv.Itoa(h.PID)
	if h.Started != "" {
		s += ", started " + h.Started
	}
	if h.Command != "" {
		s += ": " + h.Command
	}
	return s
}

// BusyError is Acquire's error when another process holds the lock. It
// wraps ErrBusy.
type BusyError struct {
	Dir    string
	Holder Holder // zero if the holder had not written its note yet
}

func (e *BusyError) Error() string {
	who := ""
	if e.Holder.PID > 0 {
		who = " (" + e.Holder.String() + ")"
	}
	return fmt.Sprintf("output directory %s is %v%s: two runs into one directory would play the same games and record them twice; "+
		"wait for it to finish or stop it, or use another output directory (the lock: %s)", e.Dir, ErrBusy, who, filepath.Join(e.Dir, LockName))
}

func (e *BusyError) Unwrap() error { return ErrBusy }

// Lock is a held output directory.
type Lock struct {
	f   *os.File
	dir string
	// Stale is the note of an earlier holder that ended without releasing
	// the lock (killed, crashed), nil if the lock was free and clean.
	Stale *Holder
}

// Acquire creates dir if needed and takes its lock, without waiting: a
// directory another live process holds is a *BusyError. The holder's
// note (pid, start time, os.Args) is written into the lock file.
func Acquire(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	path := filepath.Join(dir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("output directory lock: %w", err)
	}
	if busy, err := lock(f); err != nil {
		defer f.Close()
		if busy {
			h, _ := readNote(f)
			return nil, &BusyError{Dir: dir, Holder: h}
		}
		return nil, fmt.Errorf("output directory lock %s: %w", path, err)
	}
	l := &Lock{f: f, dir: dir}
	if h, ok := readNote(f); ok {
		l.Stale = &h
	}
	note := fmt.Sprintf("%d\n%s\n%s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339), strings.Join(os.Args, " "))
	if err := f.Truncate(0); err != nil {
		l.Unlock()
		return nil, fmt.Errorf("output directory lock %s: %w", path, err)
	}
	if _, err := f.WriteAt([]byte(note), 0); err != nil {
		l.Unlock()
		return nil, fmt.Errorf("output directory lock %s: %w", path, err)
	}
	return l, nil
}

// Busy is, without taking the lock or touching its note, the
// *BusyError Acquire would return now (nil if the directory is free, or
// has no lock file yet). A command checks it before it starts what comes
// ahead of its run (a server, a listener), so that a directory in use is
// what it says rather than a port the other run holds; Acquire still
// decides.
func Busy(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDWR, 0)
	if err != nil {
		return nil // Acquire says what is wrong, if anything
	}
	defer f.Close()
	busy, err := lock(f)
	if busy {
		h, _ := readNote(f)
		return &BusyError{Dir: dir, Holder: h}
	}
	if err == nil {
		unlock(f)
	}
	return nil
}

// readNote reads a holder's note; ok is false for an empty (released) or
// unreadable file.
func readNote(f *os.File) (Holder, bool) {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, maxNote))
	if err != nil || len(data) == 0 {
		return Holder{}, false
	}
	lines := strings.SplitN(string(data), "\n", 4)
	var h Holder
	h.PID, _ = strconv.Atoi(strings.TrimSpace(lines[0]))
	if len(lines) > 1 {
		h.Started = strings.TrimSpace(lines[1])
	}
	if len(lines) > 2 {
		h.Command = strings.TrimSpace(lines[2])
	}
	return h, true
}

// StaleText says, for a warning, what a stale note means; "" if none.
func (l *Lock) StaleText() string {
	if l == nil || l.Stale == nil {
		return ""
	}
	return fmt.Sprintf("%s: an earlier run (%s) ended without releasing it (killed or crashed); its recorded games are kept",
		filepath.Join(l.dir, LockName), l.Stale)
}

// Unlock empties the note (a clean release) and releases the lock. A nil
// Lock (no output directory) is a no-op.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Emptied before the flock goes, so a note is never seen from a
	// holder that let go cleanly. Unlocked explicitly, not by the close:
	// a child being forked meanwhile (by another goroutine) shares the
	// open file until it execs, and would keep the lock held that long.
	terr := l.f.Truncate(0)
	uerr := unlock(l.f)
	cerr := l.f.Close()
	l.f = nil
	if uerr != nil {
		return fmt.Errorf("output directory lock: %w", uerr)
	}
	if terr != nil {
		return fmt.Errorf("output directory lock: %w", terr)
	}
	return cerr
}
