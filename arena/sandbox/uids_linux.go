//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// uidPool hands out the uids of isolated bot processes when the arena runs
// as root: one per process, never one that another process (of this arena
// or another on the machine) holds, as isolate keeps a lock per box. A uid
// is held by a lock file under lockDir for as long as its process lives;
// a dead arena's locks go with it.
type uidPool struct {
	first, last int
	dir         string
	mu          sync.Mutex
	next        int
}

// uidLockDirs are where the locks live, the first usable one: root's own.
var uidLockDirs = []string{"/run/arena/uids", filepath.Join(os.TempDir(), "arena-uids")}

func newUIDPool(first, last int) (*uidPool, error) {
	var errs []error
	for _, dir := range uidLockDirs {
		if err := ownDir(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		return &uidPool{first: first, last: last, dir: dir, next: first + rand.IntN(last-first+1)}, nil
	}
	return nil, fmt.Errorf("no directory for uid locks: %w", errors.Join(errs...))
}

// ownDir makes dir (and its parent) a directory that only root may write,
// or refuses one that someone else could have prepared.
func ownDir(dir string) error {
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
		st, err := os.Lstat(d)
		if err != nil {
			return err
		}
		sys, ok := st.Sys().(*syscall.Stat_t)
		if !st.IsDir() || !ok || sys.Uid != 0 || st.Mode().Perm()&0o022 != 0 {
			if d == filepath.Dir(dir) && st.IsDir() && ok && sys.Uid == 0 && st.Mode()&os.ModeSticky != 0 {
				continue // /tmp: anyone may create, no one may replace root's
			}
			return fmt.Errorf("%s: not a directory that only root may write", d)
		}
	}
	return nil
}

// take holds a free uid; release frees it once its process is gone.
func (p *uidPool) take() (uid int, release func(), err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.last - p.first + 1
	for range n {
		uid := p.next
		if p.next++; p.next > p.last {
			p.next = p.first
		}
		f, err := os.OpenFile(filepath.Join(p.dir, strconv.Itoa(uid)), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return 0, nil, fmt.Errorf("bot uid lock: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				continue // another process holds it
			}
			return 0, nil, fmt.Errorf("bot uid lock: %w", err)
		}
		return uid, func() { f.Close() }, nil
	}
	return 0, nil, fmt.Errorf("every uid of %d-%d is held by a running bot process", p.first, p.last)
}
