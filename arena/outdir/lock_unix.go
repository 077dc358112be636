//go:build unix

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// lock takes an exclusive flock(2) on f without waiting; busy when another
// process holds it.
func lock(f *os.File) (busy bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return errors.Is(err, syscall.EWOULDBLOCK), err
}

// unlock releases the flock.
func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
