package intake

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/internal/words"
)

// Bounds are what one submission may hold, declared once: Submit
// refuses a bigger tree (ErrTooLarge) and Process copies no more.
var Bounds = Limits{Files: 10000, Bytes: 256 << 20, Depth: 32}

// Limits bound a submitted tree.
type Limits struct {
	Files int   // files and directories
	Bytes int64 // the files' total size
	Depth int   // directories inside directories
}

// Names inside a submission directory.
const (
	ManifestName = "manifest.json"
	FilesName    = "bot"
	tmpSuffix    = ".tmp"
	// tmpGrace is how old an unlocked ID.tmp must be to be removed.
	tmpGrace     = time.Minute
	reportSuffix = ".report"
)

// Errors of Submit, for errors.Is.
var (
	ErrTooLarge = errors.New("submission too large")
	// ErrUnsafe: a symbolic link that leads out of the bot's directory,
	// or a file that is neither regular nor a directory (a device, a
	// pipe, a socket).
	ErrUnsafe = errors.New("not a regular file or directory")
	ErrName   = errors.New("invalid bot name")
	// ErrForeign: a submitted file that another user owns than the one
	// who submitted it (a hard link to someone else's file).
	ErrForeign = errors.New("a file the submitter does not own")
	// ErrUnknown: Status of an id no submission has.
	ErrUnknown = errors.New("no such submission")
)

// Manifest describes a submission: what Submit was given.
type Manifest struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Command string `json:"command"`
	// Build, if set, runs in the bot's directory (in the sandbox, with
	// the ladder's build time and memory) before the bot is judged.
	Build string `json:"build,omitempty"`
	Time  string `json:"time"` // RFC 3339
	// Withdraw makes it a request to withdraw bot Name (Withdraw), for
	// Reason; it has no files and no command.
	Withdraw bool   `json:"withdraw,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Submit copies the bot in botDir, to be run by command (in botDir),
// into the ladder at ladderDir as a new submission of bot name, and
// returns its id. The copy becomes visible to the run whole or not at
// all (written to ID.tmp, synced, renamed); a crash leaves at most an
// ID.tmp that the next Submit or Process removes. Submit does not take
// the ladder's lock: it runs beside the ladder's run, as the contestant
// (the submission is theirs: its owner is who the run believes).
func Submit(ladderDir, name, botDir, command string) (string, error) {
	return SubmitManifest(ladderDir, botDir, Manifest{Name: name, Command: command})
}

// SubmitManifest is Submit of the bot m describes (its Name, Command and
// Build; Submit sets ID and Time). botDir "" submits a bot that runs
// elsewhere (Command nats:NAME, served by its owner), which has no files.
func SubmitManifest(ladderDir, botDir string, m Manifest) (string, error) {
	if err := checkName(m.Name); err != nil {
		return "", err
	}
	if strings.TrimSpace(m.Command) == "" {
		return "", fmt.Errorf("intake: submission of %s: no command", m.Name)
	}
	m.Withdraw, m.Reason = false, ""
	fill := func(tmp string) error { return CopyTree(filepath.Join(tmp, FilesName), botDir, Bounds) }
	if botDir == "" { // a bot that runs elsewhere (nats:ID): no files
		fill = func(tmp string) error { return os.Mkdir(filepath.Join(tmp, FilesName), 0o700) }
	}
	return deliver(ladderDir, m, fill)
}

// Withdraw asks the ladder at ladderDir to take bot name out (reason
// says why, for the roster), and returns the request's id, for Status.
// The request goes the way of a submission: the run takes it in (a
// ladder that is not running, the next run does), logs the withdrawn
// event and seats the bot's active version at no further table; only
// the user the name belongs to, or the organiser, may withdraw it
// (otherwise the request is refused, as Status then tells). A new
// version admitted later brings the bot back.
func Withdraw(ladderDir, name, reason string) (string, error) {
	if err := checkName(name); err != nil {
		return "", err
	}
	return deliver(ladderDir, Manifest{Name: name, Withdraw: true, Reason: reason}, func(string) error { return nil })
}

// deliver writes the request m into ladderDir's incoming directory as
// ID.tmp (fill adds the files), syncs it, makes it private to its
// writer and the ladder's group (private) and renames it to ID.
func deliver(ladderDir string, m Manifest, fill func(tmp string) error) (string, error) {
	incoming := filepath.Join(ladderDir, ladder.IncomingDir)
	if _, err := os.Stat(filepath.Join(ladderDir, ladder.FileName)); err != nil {
		return "", fmt.Errorf("intake: %s is %w: %v", ladderDir, ladder.ErrNotLadder, err)
	}
	CleanTmp(incoming)
	now := time.Now().UTC()
	id, err := newID(now)
	if err != nil {
		return "", err
	}
	tmp := filepath.Join(incoming, id+tmpSuffix)
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return "", fmt.Errorf("intake: %w", err)
	}
	unlock, err := holdTmp(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	defer unlock()
	m.ID, m.Time = id, now.Format(time.RFC3339)
	err = fill(tmp)
	if err == nil {
		err = write(tmp, m)
	}
	if err == nil {
		err = private(tmp)
	}
	if err == nil {
		err = rename(tmp, filepath.Join(incoming, id))
	}
	if err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	// A contestant may not open incoming (it is not theirs to list) to
	// sync the rename: the submission then is durable when the system
	// syncs, and one lost to a crash before is submitted again.
	if err := syncDir(incoming); err != nil && !errors.Is(err, fs.ErrPermission) {
		return "", err
	}
	return id, nil
}

func rename(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return nil
}

// private gives a submission's tree, once written, the modes that keep
// it from other contestants while the run (the organiser, of the
// ladder's group, which incoming's set-group-ID bit gave every file and
// directory) reads and removes it: directories 0770, files 0640 (0750
// executable), nothing for others. Modes are set last: a contestant's
// chmod of a directory drops its set-group-ID bit, which its entries no
// longer need then.
func private(root string) error {
	return chmodTree(root, 0o770, func(m fs.FileMode) fs.FileMode {
		if m&0o100 != 0 {
			return 0o750
		}
		return 0o640
	})
}

// chmodTree gives every directory of the tree at root mode dir and
// every regular file the mode file makes of its own.
func chmodTree(root string, dir fs.FileMode, file func(fs.FileMode) fs.FileMode) error {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.Chmod(path, dir)
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.Chmod(path, file(info.Mode().Perm()))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return nil
}

// write adds the manifest to the submission directory dir, synced.
func write(dir string, m Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	if err := writeSynced(filepath.Join(dir, ManifestName), bytes.NewReader(append(data, '\n')), 0o644); err != nil {
		return err
	}
	return syncDir(dir)
}

// checkName refuses a name that cannot be a roster bot's: empty, with
// a separator or a space, or one that reads as a version's (NAME.vN).
func checkName(name string) error {
	if name == "" || strings.ContainsAny(name, "/\\ \t\n") || name == "." || name == ".." || strings.HasPrefix(name, ".") {
		return fmt.Errorf("intake: %q: %w (no spaces or slashes)", name, ErrName)
	}
	if _, _, ok := ladder.SplitVersion(name); ok {
		return fmt.Errorf("intake: %q: %w: it ends as a version's name does (NAME.vN)", name, ErrName)
	}
	return nil
}

// newID is a submission id: the time, so that ids sort in submission
// order, and random bytes, so that two submitters never share one and
// no other contestant finds it (incoming is not listable to them).
func newID(t time.Time) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("intake: %w", err)
	}
	stamp := strings.Replace(t.Format("20060102T150405.000000000Z"), ".", "", 1) // no dot in an id
	return stamp + "-" + hex.EncodeToString(b[:]), nil
}

// CleanTmp removes the ID.tmp directories of incoming whose writer is
// gone (a Submit that crashed); one still being written is left alone.
func CleanTmp(incoming string) {
	entries, _ := os.ReadDir(incoming)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), tmpSuffix) {
			continue
		}
		path := filepath.Join(incoming, e.Name())
		// A young one may be between Submit's Mkdir and its lock.
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > tmpGrace && abandoned(path) {
			os.RemoveAll(path)
		}
	}
}

// CopyTree copies the tree at src into dst (created), regular files and
// directories only: a symbolic link that stays inside src is copied as
// a link, one that leads out of it, or any other kind of file, is
// ErrUnsafe; a tree past lim is ErrTooLarge. Files are synced, and
// readable by all (a bot may run as a user of its own): what keeps
// them from others is the directories above them (docs/security.md).
func CopyTree(dst, src string, lim Limits) error {
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return fmt.Errorf("intake: bot directory %s: not a directory (%v)", src, err)
	}
	root, err := os.OpenRoot(src)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	defer root.Close()
	return copyRoot(dst, root, ".", lim, -1)
}

// copyRoot is CopyTree of the directory dir of root. Everything is read
// through root, so that nothing outside it is read whatever the tree's
// writer changes meanwhile (a directory swapped for a link), and each
// file is opened without following a link and checked once open: it
// must be a regular file and, if owner >= 0, owned by that uid (a hard
// link to another user's file is ErrForeign).
func copyRoot(dst string, root *os.Root, dir string, lim Limits, owner int) error {
	var files int
	var bytes int64
	var dirs []string
	err := fs.WalkDir(root.FS(), dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("intake: %w", err)
		}
		rel, _ := filepath.Rel(dir, path)
		if files++; files > lim.Files {
			return fmt.Errorf("intake: %w: more than %d files", ErrTooLarge, lim.Files)
		}
		if depth := strings.Count(rel, string(filepath.Separator)); depth > lim.Depth {
			return fmt.Errorf("intake: %s: %w: deeper than %d directories", rel, ErrTooLarge, lim.Depth)
		}
		target := filepath.Join(dst, rel)
		switch t := d.Type(); {
		case t.IsDir():
			dirs = append(dirs, target)
			if err := os.Mkdir(target, 0o755); err != nil {
				return fmt.Errorf("intake: %w", err)
			}
			return nil
		case t&fs.ModeSymlink != 0:
			return copyLink(target, root, path, rel)
		case !t.IsRegular():
			return fmt.Errorf("intake: %s: %w (%v)", rel, ErrUnsafe, t)
		}
		n, err := copyFile(target, root, path, rel, owner, lim.Bytes-bytes)
		if bytes += n; errors.Is(err, ErrTooLarge) {
			return fmt.Errorf("intake: %s: %w: more than %d bytes", rel, ErrTooLarge, lim.Bytes)
		}
		return err
	})
	if err != nil {
		return err
	}
	// 0755 whatever the umask, once every entry is made: a contestant's
	// chmod drops a directory's set-group-ID bit, which gives the
	// entries made in it the ladder's group (private).
	for _, d := range dirs {
		if err := os.Chmod(d, 0o755); err != nil {
			return fmt.Errorf("intake: %w", err)
		}
	}
	return checkLinks(dst)
}

// copyLink copies the link at path of root (rel inside the tree copied)
// as a link, if it leads to something inside the tree (checkLinks
// follows links through links once the copy is whole).
func copyLink(target string, root *os.Root, path, rel string) error {
	to, err := root.Readlink(path)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	if filepath.IsAbs(to) {
		return fmt.Errorf("intake: %s -> %s: %w: an absolute link", rel, to, ErrUnsafe)
	}
	if outside(filepath.Join(filepath.Dir(rel), to)) {
		return fmt.Errorf("intake: %s -> %s: %w: it leads out of the bot's directory", rel, to, ErrUnsafe)
	}
	if err := os.Symlink(to, target); err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return nil
}

// outside says whether rel (cleaned, relative) leads out of its root.
func outside(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkLinks refuses a copy (ErrUnsafe) with a link that, through other
// links, leads out of it: the copy is the arena's and does not change
// while it is checked, unlike the tree it was copied from.
func checkLinks(dst string) error {
	realRoot, err := filepath.EvalSymlinks(dst)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil // leads nowhere, here as anywhere
		}
		if in, err := filepath.Rel(realRoot, real); err != nil || outside(in) {
			rel, _ := filepath.Rel(dst, path)
			return fmt.Errorf("intake: %s: %w: through other links it leads out of the bot's directory", rel, ErrUnsafe)
		}
		return nil
	})
}

// copyFile copies the regular file path of root to dst, synced, no
// more than room bytes (ErrTooLarge) and no more than its size when
// opened (a file that grows while copied does not pass the bounds).
// owner >= 0: the file must be that uid's (ErrForeign). It returns the
// file's size.
func copyFile(dst string, root *os.Root, path, rel string, owner int, room int64) (int64, error) {
	in, err := root.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return 0, fmt.Errorf("intake: %s: %w", rel, err)
	}
	defer in.Close()
	info, err := in.Stat()
	switch {
	case err != nil:
		return 0, fmt.Errorf("intake: %w", err)
	case !info.Mode().IsRegular():
		return 0, fmt.Errorf("intake: %s: %w (%v)", rel, ErrUnsafe, info.Mode().Type())
	case info.Size() > room:
		return info.Size(), ErrTooLarge
	}
	if uid, known := fileOwner(info); owner >= 0 && known && uid != owner {
		return 0, fmt.Errorf("intake: %s: %w (uid %d's, not uid %d's: a hard link?)", rel, ErrForeign, uid, owner)
	}
	return info.Size(), writeSynced(dst, io.LimitReader(in, info.Size()), openMode(info.Mode()))
}

// openMode is a copy's mode: readable by all, executable by all if its
// owner may execute it, writable by its owner alone (whatever the umask).
func openMode(m fs.FileMode) fs.FileMode {
	if m&0o100 != 0 {
		return 0o755
	}
	return 0o644
}

// writeSynced writes what r holds to a new file at path, synced.
func writeSynced(path string, r io.Reader, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	err = f.Chmod(perm) // whatever the umask
	if err == nil {
		_, err = io.Copy(f, r)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return nil
}

// syncDir syncs the directory dir, so that the names it holds (a
// rename) survive a crash.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return nil
}

// AwaitEvery is how often Await looks for a verdict, which the run
// writes into a file (Status).
const AwaitEvery = 250 * time.Millisecond

// Await waits for the verdict of request id (a submission, a
// withdrawal) of the ladder at ladderDir: its report, once the run has
// given it. If ctx ends first (a signal), the error says that the
// request is judged all the same and how to read its verdict later.
func Await(ctx context.Context, ladderDir, id string) (Report, error) {
	tick := time.NewTicker(AwaitEvery)
	defer tick.Stop()
	for {
		rep, err := Status(ladderDir, id)
		if err != nil || rep.Verdict != VerdictWaiting {
			return rep, err
		}
		select {
		case <-ctx.Done():
			return rep, fmt.Errorf("stopped waiting (%v): request %s is judged all the same; arena ladder status %s %s tells its verdict",
				context.Cause(ctx), id, words.ShellQuote(ladderDir), id)
		case <-tick.C:
		}
	}
}
