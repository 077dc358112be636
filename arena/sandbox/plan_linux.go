//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arena-dev/arena/arena/fileargs"
)

// mountEntry is one thing an isolated bot's root holds, at Path: the same
// path as on the host, so commands and arguments keep their meaning.
type mountEntry struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"` // mountLink: where the link points
}

// Kinds of mountEntry.
const (
	// mountRO shows the host's Path read-only: through an overlay of its
	// own where the machine has overlayfs, so that the files have inodes of
	// their own and a lock or an inotify watch on one reaches no other
	// process; else a bind mount.
	mountRO = "ro"
	// mountRW shows the host's Path writable and shared (--bot-rw).
	mountRW = "rw"
	// mountLink is a symbolic link (/bin -> usr/bin on merged-/usr
	// systems).
	mountLink = "link"
	// mountHide covers Path, where it lies in something shown, with an
	// empty directory or file.
	mountHide = "hide"
)

// systemDirs are the runtime directories every isolated bot sees
// read-only, so that interpreters start: what isolate (the IOI's sandbox)
// and bubblewrap's usual set show, with /etc for the dynamic loader's
// cache, locales, time zones and certificates.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// reserved are the places of the bot's root the wrapper makes itself: a
// path given to show may not be one of them or hold one.
var reserved = []string{"/tmp", "/dev", "/proc"}

// systemEntries are the system directories as this machine has them.
func systemEntries() []mountEntry {
	var out []mountEntry
	for _, d := range systemDirs {
		st, err := os.Lstat(d)
		switch {
		case err != nil:
		case st.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				out = append(out, mountEntry{Path: d, Kind: mountLink, Target: target})
			}
		case st.IsDir():
			out = append(out, mountEntry{Path: d, Kind: mountRO})
		}
	}
	return out
}

// rootPlan is what the isolated root of a process of a bot with command
// argv, working directory dir and environment env holds, beyond what the
// wrapper makes itself (/tmp, /dev, /proc): the system directories, the
// bot's program (programPaths) and dir read-only, the organiser's added
// paths, and covers over what no bot may see or what belongs to another
// bot, where it lies inside something shown.
func (s *Sandbox) rootPlan(argv []string, dir string, env []string) ([]mountEntry, error) {
	plan := systemEntries()
	own, named := programPaths(argv, dir, env)
	if dir != "" {
		own = append(own, dir)
		named = append(named, dir)
	}
	for _, h := range s.Options.Hide {
		for _, p := range named {
			if within(p, h) {
				return nil, fmt.Errorf("the bot's %s lies in %s, which bots may not see (the arena's output, the tournament file or the deal secret); move one of them", p, h)
			}
		}
	}
	// The arena executable, alone and read-only: a bot may start the
	// rules engine (`$ARENA_ENGINE engine`, set by the stdio launcher), a
	// child of the bot, in its cgroup and under its limits. Named, so that
	// it is no cover of another bot's program (a bundled bot's).
	self := arenaExecutable()
	named = append(named, self...)
	add := func(path, kind string) {
		if path == "/" || slices.ContainsFunc(reserved, func(r string) bool { return within(r, path) }) {
			return // never shown whole: the bot's own /tmp, /dev and /proc stay its own
		}
		if _, ok := shownAt(plan, path, kind); ok {
			return
		}
		// What it holds that was listed before, as the same kind, is now
		// shown through it.
		plan = slices.DeleteFunc(plan, func(e mountEntry) bool {
			return e.Kind == kind && e.Path != path && within(e.Path, path)
		})
		plan = append(plan, mountEntry{Path: path, Kind: kind})
	}
	for _, p := range append(own, self...) {
		add(p, mountRO)
	}
	for _, p := range s.Options.ReadOnly {
		add(p, mountRO)
	}
	for _, p := range s.Options.ReadWrite {
		add(p, mountRW)
	}
	// Covers: the secrets, and what the other bots' commands name, unless
	// this bot's own command needs it (one program, two bots).
	hide := append([]string(nil), s.Options.Hide...)
	for _, other := range s.Options.Programs {
		if slices.Equal(other.Argv, argv) && other.Dir == dir {
			continue
		}
		_, theirs := programPaths(other.Argv, other.Dir, env)
		if other.Dir != "" {
			theirs = append(theirs, other.Dir)
		}
		for _, t := range theirs {
			if !slices.ContainsFunc(named, func(p string) bool { return within(p, t) }) {
				hide = append(hide, t)
			}
		}
	}
	for _, h := range hide {
		if _, err := os.Lstat(h); err != nil {
			continue // nothing there to see
		}
		if at, ok := shownAt(plan, h, ""); ok && !slices.ContainsFunc(plan, func(e mountEntry) bool { return e.Kind == mountHide && e.Path == at }) {
			plan = append(plan, mountEntry{Path: at, Kind: mountHide})
		}
	}
	slices.SortStableFunc(plan, func(a, b mountEntry) int {
		// Covers last, and every entry after the ones that hold it.
		if (a.Kind == mountHide) != (b.Kind == mountHide) {
			if a.Kind == mountHide {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Path, b.Path)
	})
	return plan, nil
}

// shownAt is where in the bot's root the host's path is visible through
// plan's entries of kind (mountRO or mountRW; "" for either): under an
// entry's own path, or through a link to one (a program in /bin/ on a
// merged-/usr system is /usr/bin/), or where its real path lies in an
// entry's real path.
func shownAt(plan []mountEntry, path, kind string) (string, bool) {
	shows := func(e mountEntry) bool {
		return (e.Kind == mountRO || e.Kind == mountRW) && (kind == "" || e.Kind == kind)
	}
	for range 8 { // links to links, boundedly
		changed := false
		for _, e := range plan {
			switch {
			case e.Kind == mountLink && within(path, e.Path):
				target := e.Target
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(e.Path), target)
				}
				path = filepath.Join(target, strings.TrimPrefix(path, e.Path))
				changed = true
			case shows(e) && within(path, e.Path):
				return path, true
			}
		}
		if !changed {
			break
		}
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	for _, e := range plan {
		if !shows(e) {
			continue
		}
		if er, err := filepath.EvalSymlinks(e.Path); err == nil && within(real, er) {
			rel, _ := filepath.Rel(er, real)
			return filepath.Join(e.Path, rel), true
		}
	}
	return "", false
}

// programPaths are what a bot's command needs to see beyond the system
// directories, and what it names. Shown: for the program (found in the
// bot's PATH) and for the interpreter of a script (`#!`, through
// /usr/bin/env too), its directory, or its installation where it lies in
// the bin directory of one (a directory beside bin named lib, lib64,
// libexec, share or versions: a Python virtual environment, pyenv, nvm,
// a JDK), both for the path as given and for the file a link leads to;
// for every argument that names a file by arena/fileargs's rule (a path,
// or a file name with an extension, whole or after "=": "--model=m.bin";
// relative ones against dir, else the arena's directory), the file's
// directory; for one naming a directory, the directory. Named: the
// program itself when given as a path, and those arguments. A directory
// that would be /, /tmp, /dev or /proc shows only the file.
func programPaths(argv []string, dir string, env []string) (show, named []string) {
	if len(argv) == 0 {
		return nil, nil
	}
	addShow := func(p string) {
		if p != "" && !slices.Contains(show, p) {
			show = append(show, p)
		}
	}
	executable := func(prog string) {
		for _, p := range []string{prog, realPath(prog)} {
			addShow(installation(p))
		}
	}
	prog, ok := fileargs.Program(argv[0], dir)
	if ok {
		named = append(named, prog)
	} else if found, err := lookPath(argv[0], env); err == nil && filepath.IsAbs(found) {
		prog = found
	}
	if prog != "" {
		executable(prog)
		if interp, cmd := shebang(prog); interp != "" {
			executable(interp)
			if cmd != "" {
				if found, err := lookPath(cmd, env); err == nil && filepath.IsAbs(found) {
					executable(found)
				}
			}
		}
	}
	files, _ := fileargs.Files(argv, dir)
	for _, f := range files {
		if f.Kind == fileargs.Bare {
			continue // passed as written: a word the bot takes, for all the arena knows
		}
		named = append(named, f.Abs)
		if d := filepath.Dir(f.Abs); f.Info.IsDir() || wholeOnly(d) {
			addShow(f.Abs)
		} else {
			addShow(d)
		}
	}
	return show, named
}

// installation is what showing executable path brings: its directory, or
// the installation whose bin directory that is; the file alone in /.
func installation(path string) string {
	if path == "" {
		return ""
	}
	d := filepath.Dir(path)
	if wholeOnly(d) {
		return path
	}
	switch filepath.Base(d) {
	case "bin", "sbin", "shims":
		parent := filepath.Dir(d)
		if parent == "/" {
			return d
		}
		for _, sib := range []string{"lib", "lib64", "libexec", "share", "versions"} {
			if st, err := os.Stat(filepath.Join(parent, sib)); err == nil && st.IsDir() {
				return parent
			}
		}
	}
	return d
}

// wholeOnly: a directory never shown whole (/, /tmp, /dev, /proc): what
// lies directly in it is shown alone.
func wholeOnly(dir string) bool { return dir == "/" || slices.Contains(reserved, dir) }

// arenaExecutable is the arena executable's path, and its real path if
// that differs: what an isolated bot is shown of it.
func arenaExecutable() []string {
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	if r := realPath(self); r != "" {
		return []string{self, r}
	}
	return []string{self}
}

// realPath is path with every link resolved, or "" if that fails or
// changes nothing.
func realPath(path string) string {
	r, err := filepath.EvalSymlinks(path)
	if err != nil || r == path {
		return ""
	}
	return r
}

// shebang reads a script's interpreter line (fileargs.Shebang): the
// interpreter, when it is a path, and the command it runs when that is
// env ("#!/usr/bin/env python3").
func shebang(path string) (interp, cmd string) {
	line, ok := bytes.CutPrefix(fileargs.Head(path), []byte("#!"))
	if !ok {
		return "", ""
	}
	line, _, _ = bytes.Cut(line, []byte("\n"))
	if interp, cmd = fileargs.Shebang(string(line)); !filepath.IsAbs(interp) {
		return "", ""
	}
	return interp, cmd
}

// checkReadable: bots with a uid of their own read their programs as any
// user would, so every program file, its directory and the bot's dir must
// be open to others (isolate asks the same of its boxes' files). A clear
// refusal at start beats every process of a bot failing to start.
func (s *Sandbox) checkReadable() error {
	env := s.Env("", nil)
	for _, p := range s.Options.Programs {
		show, named := programPaths(p.Argv, p.Dir, env)
		need := map[string]os.FileMode{}
		for _, n := range named {
			need[n] |= 0o004
			need[filepath.Dir(n)] |= 0o001
		}
		if len(p.Argv) == 0 {
			continue
		}
		if _, ok := fileargs.Program(p.Argv[0], p.Dir); ok && len(named) > 0 {
			need[named[0]] |= 0o001 // executed
		}
		for _, d := range append(show, p.Dir) {
			// A directory shown is entered; a file shown alone (one
			// directly in /tmp) is read.
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				need[d] |= 0o001
			} else if d != "" {
				need[d] |= 0o004
			}
		}
		for path, bits := range need {
			st, err := os.Stat(path)
			if err != nil || path == "/" {
				continue
			}
			if st.IsDir() && bits&0o004 != 0 {
				bits |= 0o001
			}
			if st.Mode().Perm()&bits != bits {
				return &ClosedError{Path: path, Mode: st.Mode().Perm(), Need: bits}
			}
		}
	}
	return nil
}

// systemFile: a path in the system's own directories, whose permissions
// are not the organiser's to open (/etc/shadow, /root/...).
func systemFile(path string) bool {
	for _, d := range []string{"/etc", "/root", "/var", "/boot", "/proc", "/sys", "/dev", "/run", "/usr", "/lib", "/bin", "/sbin"} {
		if path == d || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}

// ClosedError is a file or directory a bot needs that other users may not
// read (or enter, or run), where bots run as uids of their own.
type ClosedError struct {
	Path string
	Mode os.FileMode // its permissions
	Need os.FileMode // what others need: 0o004 read, 0o001 execute (enter)
}

func (e *ClosedError) Error() string {
	if systemFile(e.Path) {
		return fmt.Sprintf("%s (mode %v) is not open to other users, and each bot runs as a uid of its own (the arena runs as root): "+
			"it is the system's, and bots may not read it; give the bot a copy of what it needs in a directory of your own", e.Path, e.Mode)
	}
	chmod := "o+"
	if e.Need&0o004 != 0 {
		chmod += "r"
	}
	if e.Need&0o001 != 0 {
		chmod += "x"
	}
	return fmt.Sprintf("%s (mode %v) is not open to other users, and each bot runs as a uid of its own (the arena runs as root): chmod %s %s, or run every bot as one user with --bot-user NAME",
		e.Path, e.Mode, chmod, e.Path)
}
