package intake

import (
	"bytes"
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
}

// Submit copies the bot in botDir, to be run by command (in botDir),
// into the ladder at ladderDir as a new submission of bot name, and
// returns its id. The copy becomes visible to the run whole or not at
// all (written to ID.tmp, synced, renamed); a crash leaves at most an
// ID.tmp that the next Submit or Process removes. Submit does not take
// the ladder's lock: it runs beside the ladder's run.
func Submit(ladderDir, name, botDir, command string) (string, error) {
	return SubmitManifest(ladderDir, botDir, Manifest{Name: name, Command: command})
}

// SubmitManifest is Submit of the bot m describes (its Name, Command and
// Build; Submit sets ID and Time).
func SubmitManifest(ladderDir, botDir string, m Manifest) (string, error) {
	name, command := m.Name, m.Command
	if err := checkName(name); err != nil {
		return "", err
	}
	if strings.TrimSpace(command) == "" {
		return "", fmt.Errorf("intake: submission of %s: no command", name)
	}
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
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return "", fmt.Errorf("intake: %w", err)
	}
	unlock, err := holdTmp(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	defer unlock()
	m.ID, m.Time = id, now.Format(time.RFC3339)
	if err := write(tmp, botDir, m); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, filepath.Join(incoming, id)); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("intake: %w", err)
	}
	if err := syncDir(incoming); err != nil {
		return "", err
	}
	return id, nil
}

// write fills the submission directory dir: the bot's files, the
// manifest, every file and directory synced.
func write(dir, botDir string, m Manifest) error {
	if err := CopyTree(filepath.Join(dir, FilesName), botDir, Bounds); err != nil {
		return err
	}
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
// order, and random bytes, so that two submitters never share one.
func newID(t time.Time) (string, error) {
	var b [4]byte
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
// ErrUnsafe; a tree past lim is ErrTooLarge. Files are synced.
func CopyTree(dst, src string, lim Limits) error {
	root, err := filepath.Abs(src)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fmt.Errorf("intake: bot directory %s: not a directory (%v)", src, err)
	}
	var files int
	var bytes int64
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("intake: %w", err)
		}
		rel, _ := filepath.Rel(root, path)
		if files++; files > lim.Files {
			return fmt.Errorf("intake: %s: %w: more than %d files", src, ErrTooLarge, lim.Files)
		}
		if depth := strings.Count(rel, string(filepath.Separator)); depth > lim.Depth {
			return fmt.Errorf("intake: %s: %w: deeper than %d directories", rel, ErrTooLarge, lim.Depth)
		}
		target := filepath.Join(dst, rel)
		switch t := d.Type(); {
		case t.IsDir():
			if err := os.Mkdir(target, 0o755); err != nil {
				return fmt.Errorf("intake: %w", err)
			}
			return nil
		case t&fs.ModeSymlink != 0:
			return copyLink(target, path, root, rel)
		case !t.IsRegular():
			return fmt.Errorf("intake: %s: %w (%v)", rel, ErrUnsafe, t)
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("intake: %w", err)
		}
		if bytes += info.Size(); bytes > lim.Bytes {
			return fmt.Errorf("intake: %s: %w: more than %d bytes", src, ErrTooLarge, lim.Bytes)
		}
		return copyFile(target, path, info.Mode().Perm()&^0o022, info.Size())
	})
	return err
}

// copyLink copies the link at path (rel inside root) as a link, if it
// leads to something inside root.
func copyLink(target, path, root, rel string) error {
	to, err := os.Readlink(path)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	if filepath.IsAbs(to) {
		return fmt.Errorf("intake: %s -> %s: %w: an absolute link", rel, to, ErrUnsafe)
	}
	resolved := filepath.Join(filepath.Dir(path), to)
	if in, err := filepath.Rel(root, resolved); err != nil || in == ".." || strings.HasPrefix(in, ".."+string(filepath.Separator)) {
		return fmt.Errorf("intake: %s -> %s: %w: it leads out of the bot's directory", rel, to, ErrUnsafe)
	}
	// Links through links: the final target must be inside too.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		realRoot, _ := filepath.EvalSymlinks(root)
		if in, err := filepath.Rel(realRoot, real); err != nil || in == ".." || strings.HasPrefix(in, ".."+string(filepath.Separator)) {
			return fmt.Errorf("intake: %s -> %s: %w: it leads out of the bot's directory", rel, to, ErrUnsafe)
		}
	}
	if err := os.Symlink(to, target); err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	return nil
}

// copyFile copies the regular file src of size bytes (no more: a file
// that grows while copied does not pass the bounds) to dst, synced.
func copyFile(dst, src string, perm fs.FileMode, size int64) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	defer in.Close()
	return writeSynced(dst, io.LimitReader(in, size), perm)
}

// writeSynced writes what r holds to a new file at path, synced.
func writeSynced(path string, r io.Reader, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	_, err = io.Copy(f, r)
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
