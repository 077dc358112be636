package ladder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/outdir"
	"github.com/arena-dev/arena/internal/atomicfile"
)

// The directories of a ladder directory.
const (
	IncomingDir = "submissions/incoming"
	BotsDir     = "bots"
	ReplaysDir  = "replays"
)

// Errors of Init and Open, for errors.Is.
var (
	// ErrNotLadder: a directory that holds something else than a ladder
	// (another run's results, other files).
	ErrNotLadder = errors.New("not a ladder directory")
	// ErrExists: Init on a directory that holds a ladder already.
	ErrExists = errors.New("holds a ladder already")
)

// Init makes dir a ladder directory for the ladder file at file (read,
// checked and resolved first: a mistake creates nothing): the layout the
// package doc shows, the deal secret (the file's deal_secret, or a fresh
// one), empty ledger and roster logs, and an admitted event for each
// bundled bot. dir may be missing or empty; one that holds anything else
// is refused (ErrNotLadder; ErrExists for a ladder). ladder.yaml is
// written last, with the seed filled in: a directory without it is an
// Init that did not finish.
func Init(dir, file string) (*Config, error) {
	f, err := LoadFile(file)
	if err != nil {
		return nil, err
	}
	c, err := f.Resolve(file, filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(dir); err != nil {
		return nil, err
	}
	lock, err := outdir.Acquire(dir)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	if err := checkEmpty(dir); err != nil { // again, holding the lock
		return nil, err
	}
	for _, d := range []string{IncomingDir, BotsDir, ReplaysDir} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("ladder: %w", err)
		}
	}
	if _, err := deal.InDir(dir, c.Secret); err != nil {
		return nil, err
	}
	results, err := ledger.Open(filepath.Join(dir, ledger.FileName))
	if err != nil {
		return nil, err
	}
	results.Close()
	log, _, err := openRoster(filepath.Join(dir, RosterName))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	now, base := time.Now().UTC().Format(time.RFC3339), filepath.Dir(file)
	for i, spec := range c.Bots {
		b := c.File.Bots[i]
		e := Event{Kind: Admitted, Time: now, Bot: spec.Name, Version: 1, Command: b.Command, Dir: abs(base, b.Dir), Bundled: true}
		if err := log.Append(e); err != nil {
			return nil, err
		}
	}
	data, err := c.saved(filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	if err := writeSeal(dir, c); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(dir, FileName), data); err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	return c, setModes(dir)
}

// Modes are the permissions Init gives a ladder directory, for a
// machine shared with the contestants (docs/security.md): they may
// enter the directory but list nothing in it; they may create
// submissions in submissions/incoming (sticky, as /tmp: none may
// remove or rename another's; set-group-ID: a submission takes the
// directory's group, the organiser's, so that the run can read and
// remove it while Submit keeps other contestants out of it) and read
// a report whose name (the submission's random id) they know; the
// bots run as users of their own may enter bots/ to their version's
// directory. Everything else is the organiser's alone.
var Modes = map[string]os.FileMode{
	".": 0o711, "submissions": 0o711, IncomingDir: 0o733 | os.ModeSticky | os.ModeSetgid, BotsDir: 0o711,
	ReplaysDir: 0o700, LogsDir: 0o700, FileName: 0o600, RosterName: 0o600, ledger.FileName: 0o600,
	outdir.LockName: 0o600, deal.FileName: 0o600, SealName: 0o600,
}

// LogsDir holds the bots' stderr logs, by version and game.
const LogsDir = "logs"

// setModes gives dir's entries their Modes (logs/ made first).
func setModes(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, LogsDir), 0o700); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	for name, mode := range Modes {
		if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
			return fmt.Errorf("ladder: %w", err)
		}
	}
	return nil
}

// saved is the copy of the ladder file Init writes: the seed filled in,
// the paths made absolute (base: the file's directory) so that they
// mean the same from the ladder directory, and no deal_secret (the
// directory keeps the secret).
func (c *Config) saved(base string) ([]byte, error) {
	f := c.File
	f.DealSecret = ""
	f.Bots = slices.Clone(f.Bots)
	for i := range f.Bots {
		f.Bots[i].Dir = abs(base, f.Bots[i].Dir)
	}
	for _, paths := range []*[]string{&f.Limits.ReadOnly, &f.Limits.ReadWrite} {
		*paths = slices.Clone(*paths)
		for i, p := range *paths {
			(*paths)[i] = abs(base, p)
		}
	}
	data, err := yaml.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	return data, nil
}

// abs is path from base, absolute ("" stays "").
func abs(base, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	p, err := filepath.Abs(filepath.Join(base, path))
	if err != nil {
		return filepath.Join(base, path)
	}
	return p
}

// checkEmpty refuses a directory that holds anything but a lock file.
func checkEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	has := func(name string) bool {
		return slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == name })
	}
	switch {
	case has(FileName):
		return fmt.Errorf("%s %w; `arena ladder run %s` runs it", dir, ErrExists, dir)
	case has(ledger.FileName) && nonEmpty(filepath.Join(dir, ledger.FileName)):
		return fmt.Errorf("%s is %w: it holds another run's results (%s); use a new directory", dir, ErrNotLadder, ledger.FileName)
	}
	for _, e := range entries {
		if e.Name() != outdir.LockName {
			return fmt.Errorf("%s is %w: it holds %s, and a ladder starts from an empty directory (an Init that did not finish leaves no %s: remove the directory and init again)",
				dir, ErrNotLadder, e.Name(), FileName)
		}
	}
	return nil
}

func nonEmpty(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Size() > 0
}

// Ladder is an open ladder directory: its lock held, its file read, its
// roster log open for appending.
type Ladder struct {
	Dir    string
	Config *Config
	Roster *RosterLog
	// Read is what reading the roster log found (a torn line dropped,
	// edited lines), for the caller to report.
	Read RosterRead
	// Bindings are the running ladder's binders of the bots that are not
	// commands run here (RunOptions.Bindings: nats:), for the intake to
	// validate a remote bot submitted; nil outside a run.
	Bindings bot.Bindings
	lock     *outdir.Lock
}

// Open takes dir's lock (a directory in use by another process is an
// *outdir.BusyError), reads its ladder file and its roster log. Bots are
// parsed from the roster, not bound: the run binds them.
func Open(dir string) (*Ladder, error) {
	if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
		return nil, fmt.Errorf("%s is %w: %v", dir, ErrNotLadder, err)
	}
	lock, err := outdir.Acquire(dir)
	if err != nil {
		return nil, err
	}
	l := &Ladder{Dir: dir, lock: lock}
	if err := l.open(); err != nil {
		lock.Unlock()
		return nil, err
	}
	return l, nil
}

// open reads the ladder file and the roster log of a directory whose
// lock is held: by Open, or by the run that holds it as its output
// directory (Run, through runplan.OpenDir: a second flock of the same
// file in one process would refuse itself).
func (l *Ladder) open() error {
	if _, err := os.Stat(filepath.Join(l.Dir, FileName)); err != nil {
		return fmt.Errorf("%s is %w: %v", l.Dir, ErrNotLadder, err)
	}
	path := filepath.Join(l.Dir, FileName)
	f, err := LoadFile(path)
	if err != nil {
		return err
	}
	if l.Config, err = f.Resolve(path, l.Dir); err != nil {
		return err
	}
	if err := checkSeal(l.Dir, l.Config); err != nil {
		return err
	}
	l.Roster, l.Read, err = openRoster(filepath.Join(l.Dir, RosterName))
	return err
}

// Spec is the bot.Spec of version v of a roster bot (unbound, named
// VersionName): a submitted version's directory is relative to the
// ladder directory, a bundled one's absolute.
func (l *Ladder) Spec(b *Bot, v Version) (bot.Spec, error) {
	return bot.Parse(VersionName(b.Name, v.N), v.Command, abs(l.Dir, v.Dir))
}

// Hidden are the paths of the ladder directory dir that no bot may see
// (sandbox.Options.Hide): all of it but bots/, where each version sees
// its own directory only. Its files tell the deals (the deal secret,
// the replays and logs of finished games of a unit still in play) and
// the other bots' submissions.
func Hidden(dir string) []string {
	var out []string
	for _, name := range []string{FileName, outdir.LockName, deal.FileName, RosterName, ledger.FileName, ReplaysDir, LogsDir, "jetstream", SealName, filepath.Dir(IncomingDir)} {
		out = append(out, filepath.Join(dir, name))
	}
	return out
}

// Close closes the roster log and releases the lock (if Open took it).
func (l *Ladder) Close() error {
	err := l.Roster.Close()
	if l.lock == nil {
		return err
	}
	if uerr := l.lock.Unlock(); err == nil {
		err = uerr
	}
	return err
}
