package outdir

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// The lock is on one byte far past the end of the file: Windows locks
// are mandatory, and one over the note would keep a refused run from
// reading who holds the directory. It is byte 1<<62, whose offset's high
// 32 bits are lockHigh.
const lockHigh = 1 << 30

// lock takes an exclusive LockFileEx lock on f without waiting; busy when
// another process holds it. Windows drops it when its holder dies, as the
// kernel does a flock.
func lock(f *os.File) (busy bool, err error) {
	ol := windows.Overlapped{OffsetHigh: lockHigh}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	return errors.Is(err, windows.ERROR_LOCK_VIOLATION), err
}

// unlock releases the lock.
func unlock(f *os.File) error {
	ol := windows.Overlapped{OffsetHigh: lockHigh}
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
