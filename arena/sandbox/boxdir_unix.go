//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/arena-dev/arena/internal/procfs"
)

// boxDir is a bot process's own directory (its TMPDIR, an isolated bot's
// root on the host), in the temporary directory and named after its box
// (boxID: the arena's pid first). The arena holds an exclusive flock on
// the directory itself from when it makes it until it has removed it, so
// that another arena's sweep (sweepBoxDirs) never takes a live run's
// directory for a dead one's: a SIGKILLed arena leaves its directories
// behind, unlocked, and the next run removes them.
type boxDir struct {
	path string
	lock *os.File // the directory, open and flocked
}

// boxDirAttempts bounds makeBoxDir's retries (see there).
const boxDirAttempts = 3

// makeBoxDir makes and locks a fresh directory for box id. Between the
// mkdir and the lock an arena that cannot see this one's pid (in another
// PID namespace sharing the temporary directory) could find it unlocked
// and remove it: the lock then comes on a removed directory, and
// makeBoxDir makes another.
func makeBoxDir(id string) (boxDir, error) {
	for range boxDirAttempts {
		path, err := os.MkdirTemp("", id+"-")
		if err != nil {
			return boxDir{}, err
		}
		f, err := os.Open(path)
		if err != nil {
			os.Remove(path)
			return boxDir{}, err
		}
		// Blocking: a sweep holds it only while it removes the directory.
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			boxDir{path: path, lock: f}.remove()
			return boxDir{}, fmt.Errorf("locking %s: %w", path, err)
		}
		st, err := f.Stat()
		if err != nil {
			boxDir{path: path, lock: f}.remove()
			return boxDir{}, err
		}
		if st.Sys().(*syscall.Stat_t).Nlink > 0 {
			return boxDir{path: path, lock: f}, nil
		}
		f.Close() // removed before it was locked: another
	}
	return boxDir{}, fmt.Errorf("%s: made %d times and removed each time before it could be locked", id, boxDirAttempts)
}

// remove removes the directory and then lets go of its lock.
func (d boxDir) remove() {
	if d.path != "" {
		_ = os.RemoveAll(d.path)
	}
	if d.lock != nil {
		d.lock.Close()
	}
}

var dirSweep sync.Once

// sweepBoxDirsOnce removes, once per process, what killed arenas left in
// the temporary directory (sweepBoxDirs), before the first bot process
// starts: it takes a listing of the temporary directory and a few system
// calls for each leftover.
func sweepBoxDirsOnce(owners []int) {
	dirSweep.Do(func() { sweepBoxDirs(os.TempDir(), owners) })
}

// sweepBoxDirs removes the box directories in tmp that arenas which died
// without cleaning up (a SIGKILL) left: a directory named as boxID names
// them, of another arena than this one, owned by one of owners (the
// arena's user, the bot user it runs bots as), that no arena holds
// locked, whose arena is gone (arenaGone). It returns the directories it
// removed.
func sweepBoxDirs(tmp string, owners []int) []string {
	ents, _ := os.ReadDir(tmp)
	var removed []string
	for _, e := range ents {
		m := boxIDPattern.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() { // not a symbolic link either
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() {
			continue
		}
		path := filepath.Join(tmp, e.Name())
		if removeLeftDir(path, pid, owners) {
			removed = append(removed, path)
		}
	}
	return removed
}

// removeLeftDir removes path, made by the arena of pid, if it was left:
// see sweepBoxDirs.
func removeLeftDir(path string, pid int, owners []int) bool {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close() // the lock with it, once the directory is gone
	st, err := f.Stat()
	if err != nil {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || !ownedBy(int(sys.Uid), owners) || !arenaGone(pid, st.ModTime()) {
		return false
	}
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false // a live arena's
	}
	return os.RemoveAll(path) == nil
}

func ownedBy(uid int, owners []int) bool {
	for _, o := range owners {
		if uid == o {
			return true
		}
	}
	return false
}

// pidTakenSlack is how much later than a directory's last modification
// the process holding its arena's pid must have started to be another
// process: /proc tells the start and the boot time to 10 ms.
const pidTakenSlack = time.Second

// arenaGone reports whether the arena of pid, which made a directory
// last modified at modified, has ended: no process has its pid, or the
// one that has is a zombie or started after that (the pid was taken
// again: the arena started before it made the directory). Without /proc,
// only the first is known.
func arenaGone(pid int, modified time.Time) bool {
	if st, err := procfs.ReadStat(pid); err == nil {
		if st.Gone() {
			return true
		}
		boot, err := procfs.BootTime()
		return err == nil && boot.Add(st.Start).After(modified.Add(pidTakenSlack))
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
