//go:build unix

package intake

import (
	"fmt"
	"os"
	"syscall"
)

// holdTmp marks the ID.tmp directory dir as being written by this
// process (an exclusive flock on the directory, which the kernel drops
// when the process dies), until unlock.
func holdTmp(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("intake: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("intake: %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}

// abandoned says whether nobody holds the ID.tmp directory dir.
func abandoned(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// noFollow opens a submitted file without following a link (the tree
// is its writer's: it may swap a file for a link at any time), and
// without blocking on a pipe swapped in for a file.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// fileOwner is the uid that owns the file info describes.
func fileOwner(info os.FileInfo) (uid int, known bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// organiser says whether uid may act for any bot: root, or the user the
// ladder runs as.
func organiser(uid int) bool { return uid == 0 || uid == os.Geteuid() }
