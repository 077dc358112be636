package stdio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/shlex"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/fileargs"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/internal/words"
)

// Command is a bot program run as a child process over stdio: the stdio
// scheme's Target, and its Launcher once bound (Binding sets its Name and
// Sandbox).
type Command struct {
	Name string
	// Line is the command as written ("" for one built from Argv).
	Line string
	// Argv is the command, already split; no shell is involved.
	Argv []string
	// Dir is its working directory ("" = the arena's, or with a Sandbox a
	// fresh one per process).
	Dir string
	// Env are variables added to its environment: to the arena's own, or
	// with a Sandbox to the scrubbed one.
	Env []string
	// Sandbox, if set, confines every process of the bot.
	Sandbox *sandbox.Sandbox
}

// Spec is the bot as the pool runs it, bound: every session a process
// of c.
func (c Command) Spec() bot.Spec { return bot.Spec{Name: c.Name, Target: c, Launcher: c} }

// Specs are the Specs of cmds, in order.
func Specs(cmds []Command) []bot.Spec {
	out := make([]bot.Spec, len(cmds))
	for i, c := range cmds {
		out[i] = c.Spec()
	}
	return out
}

// Scheme is "stdio".
func (Command) Scheme() string { return SchemeName }

// String is the command as written, or its words.
func (c Command) String() string {
	if c.Line != "" || len(c.Argv) == 0 {
		return c.Line
	}
	return strings.Join(c.Argv, " ")
}

// WithEnv is c with env added to its environment: a local bot takes the
// variables its tournament file gives it (bot.Local).
func (c Command) WithEnv(env []string) bot.Target {
	c.Env = env
	return c
}

// Launch starts a process of c, in c.Sandbox if set.
func (c Command) Launch(name string, opt bot.LaunchOptions) (bot.Endpoint, error) {
	env, err := engineEnv(c.Env)
	if err != nil {
		return nil, err
	}
	cfg := transport.ProcessConfig{Argv: c.Argv, Dir: c.Dir, Env: env, MaxLine: opt.MaxLine, StderrCap: opt.StderrCap,
		LeaveDescendants: opt.LeaveDescendants}
	var proc *transport.Process
	if c.Sandbox != nil {
		proc, err = c.Sandbox.Start(name, cfg)
	} else {
		cfg.Env = append(os.Environ(), cfg.Env...)
		proc, err = transport.Start(cfg)
	}
	if err != nil {
		return nil, err
	}
	return processEndpoint{proc}, nil
}

// EngineEnv is the variable of every bot's environment that holds the
// absolute path of the arena executable, so that a bot may start the
// rules engine as `$ARENA_ENGINE engine` (docs/engine.md); the sandbox
// shows that file to an isolated bot, read-only.
const EngineEnv = "ARENA_ENGINE"

// engineEnv is a bot's added variables: EngineEnv, then env (which may
// set it otherwise: the later wins).
func engineEnv(env []string) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the arena executable for %s: %w", EngineEnv, err)
	}
	return append([]string{EngineEnv + "=" + self}, env...), nil
}

// processEndpoint is a bot process as an Endpoint, and a bot.Process.
type processEndpoint struct{ *transport.Process }

var _ bot.Process = processEndpoint{}

func (p processEndpoint) Done() <-chan struct{}              { return p.Exited() }
func (p processEndpoint) SetStderr(w io.Writer)              { p.Process.SetStderr(w) }
func (p processEndpoint) Shutdown(grace time.Duration) error { return p.Process.Shutdown(grace) }

// NewGame restarts a sandboxed process's per-game accounting (its CPU
// time), so that its start-up or an earlier game is not counted against
// this one.
func (p processEndpoint) NewGame() {
	if box, ok := p.Confinement().(*sandbox.Box); ok {
		box.NewGame()
	}
}

// ParseArgs is ParseCommand of args as a shell gave them to a program
// (arena connect -- CMD ARGS...), each already a word: each is quoted
// for ParseCommand to split again, so that its checks and its rules for
// files and bundled bots are the same.
func ParseArgs(args []string, dir string) ([]string, error) {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = words.ShellQuote(a)
	}
	return ParseCommand(strings.Join(quoted, " "), dir)
}

// ErrBundledBot is the error of an "arena bot" command with no bot name,
// or with more after it: `arena bot` takes one name and nothing else.
var ErrBundledBot = errors.New("`arena bot NAME` takes one bundled bot's name and nothing else")

// ParseCommand splits a bot command line like a shell would (quotes
// honoured) without running a shell. A first word "arena" means this very
// executable, so bundled bots need nothing installed; "arena bot NAME"
// must name one bundled bot and nothing more (else an error wrapping
// bots.ErrUnknown, which lists them, or ErrBundledBot), since such a bot
// would exit at once and forfeit every game; a bot with a strength
// (bots.Tunable) may be followed by its flags, which must parse
// (bots.ParseOptions) and suit the bot.
//
// The program must exist: on PATH, or as a path (relative to dir when dir
// is set), which must be runnable (else a *NotRunnableError). Arguments
// that name files follow arena/fileargs's rule; one that must name a file
// and does not ("nope/bot.py") is a *MissingFileError, so that a mistyped
// script is refused before a game rather than forfeiting every one.
//
// Without dir the bot runs in a directory of its own (see arena/sandbox),
// so a relative program path, and every argument naming a file by a path
// relative to the arena's directory ("bots/x.py", "bot.py",
// "--model=data/m.bin"), are made absolute.
func ParseCommand(cmdline, dir string) ([]string, error) {
	argv, err := shlex.Split(cmdline)
	if err != nil {
		return nil, fmt.Errorf("cannot split command %q: %v", cmdline, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	if argv[0] == "arena" {
		return bundledCommand(cmdline, argv)
	}
	if prog, ok := fileargs.Program(argv[0], dir); ok {
		st, err := os.Stat(prog)
		if err != nil || st.IsDir() {
			return nil, &ProgramNotFoundError{Prog: argv[0], Abs: prog, IsDir: err == nil}
		}
		if err := checkRunnable(argv[0], prog, dir, st); err != nil {
			return nil, err
		}
	} else if _, err := exec.LookPath(argv[0]); err != nil {
		e := &ProgramNotFoundError{Prog: argv[0]}
		// A file of that name here is what the user meant: a name with
		// no slash is looked up on PATH only, as a shell does.
		if here := fileargs.Resolve(argv[0], dir); fileExists(here) {
			e.Here = here
		}
		return nil, e
	}
	files, missing := fileargs.Files(argv, dir)
	if len(missing) > 0 {
		m := missing[0]
		return nil, &MissingFileError{Arg: argv[m.Index], Path: m.Path, Abs: m.Abs, Dir: dir}
	}
	return absArgs(argv, dir, files), nil
}

// bundledCommand is the command of a bundled bot, "arena bot NAME [FLAGS]",
// with this executable as its program.
func bundledCommand(cmdline string, argv []string) ([]string, error) {
	if len(argv) > 1 && argv[1] == "bot" {
		switch {
		case len(argv) == 2:
			return nil, fmt.Errorf("%w: %q names none (bundled bots: %s)", ErrBundledBot, cmdline, strings.Join(bots.Names(), ", "))
		case len(argv) > 3 && !bots.Tunable(argv[2]):
			return nil, fmt.Errorf("%w: %q has %q after it", ErrBundledBot, cmdline, strings.Join(argv[3:], " "))
		}
		if err := bots.Check(argv[2]); err != nil {
			return nil, err
		}
		if len(argv) > 3 {
			// A bot with a strength takes its flags: checked here, so
			// that a bad one is refused before a game starts.
			o, err := bots.ParseOptions(argv[3:])
			if err == nil {
				_, err = bots.NewWith(argv[2], o)
			}
			if err != nil {
				return nil, fmt.Errorf("%q: %w", cmdline, err)
			}
		}
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the arena executable: %w", err)
	}
	argv[0] = self
	return argv, nil
}

// absArgs makes the paths of argv relative to the arena's directory
// absolute when the bot runs elsewhere (no dir): the program if it is a
// path, and the arguments that name files (files, by fileargs's rule),
// keeping what precedes a path ("--model=").
func absArgs(argv []string, dir string, files []fileargs.File) []string {
	if dir != "" {
		return argv
	}
	out := append([]string(nil), argv...)
	if prog, ok := fileargs.Program(out[0], ""); ok {
		out[0] = prog
	}
	for _, f := range files {
		if !filepath.IsAbs(f.Path) && f.Kind != fileargs.Bare {
			out[f.Index] = f.Prefix + f.Abs
		}
	}
	return out
}

// ProgramNotFoundError is a bot command whose program is not there: a
// path to nothing (or to a directory), or a name not found on PATH. It
// wraps fs.ErrNotExist.
type ProgramNotFoundError struct {
	Prog  string // as written
	Abs   string // for a path: where it was looked for
	IsDir bool   // the path is a directory
	// Here is, for a name not found on PATH, the file of that name in the
	// directory the bot runs from, if there is one ("run.py" meant as
	// "./run.py").
	Here string
}

func (e *ProgramNotFoundError) Error() string {
	switch {
	case e.IsDir:
		return fmt.Sprintf("command %q is a directory (%s), not a program: name the program in it", e.Prog, e.Abs)
	case e.Abs != "":
		return fmt.Sprintf("command %q not found (there is no %s): give the path of the program, or its name if it is on PATH", e.Prog, e.Abs)
	case e.Here != "":
		fix := "./" + e.Prog
		if interp := fileargs.Interpreter(e.Prog); interp != "" {
			fix += fmt.Sprintf(" (or %s %s)", interp, e.Prog)
		}
		return fmt.Sprintf("command %q not found on PATH; a name without a slash is looked up there only, as a shell does, but %s is here: write %s", e.Prog, e.Here, fix)
	}
	return fmt.Sprintf("command %q not found on PATH: give its path, or install it", e.Prog)
}

func (e *ProgramNotFoundError) Unwrap() error { return fs.ErrNotExist }

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// MissingFileError is a bot command's argument that must name a file
// (fileargs.Missing: a script) and names none. It wraps fs.ErrNotExist.
type MissingFileError struct {
	Arg  string // the argument as written ("nope/bot.py", "--model=m.onnx")
	Path string // the path in it, as written
	Abs  string // where it was looked for
	Dir  string // the bot's directory relative paths resolve against; "" for the arena's
}

func (e *MissingFileError) Error() string {
	where := "relative to the directory the arena runs in"
	if e.Dir != "" {
		where = "relative to the bot's dir " + e.Dir
	}
	return fmt.Sprintf("argument %q names no file (there is no %s): give the path of an existing file, %s, or an absolute one",
		e.Arg, e.Abs, where)
}

func (e *MissingFileError) Unwrap() error { return fs.ErrNotExist }

// NotRunnableError is a program, given as a path, that the kernel will not
// run: it has no execute bit, or it is a script without a #! line naming
// its interpreter.
type NotRunnableError struct {
	Prog string      // as the user wrote it (made absolute when relative to a bot's dir)
	Mode fs.FileMode // its permissions
	// NoExec: no execute bit at all; NoShebang: a script (by its
	// extension, or text) that does not start with "#!".
	NoExec, NoShebang bool
	// Interpreter runs scripts of its extension ("python3"), or "".
	Interpreter string
}

func (e *NotRunnableError) Error() string {
	var what, fix string
	switch {
	case e.NoExec && !e.NoShebang:
		what, fix = "is not executable", "chmod +x "+e.Prog
	case e.NoExec:
		what, fix = "is not executable and has no #! line", "chmod +x "+e.Prog+" and add a #! line naming its interpreter"
	default:
		what, fix = "has no #! line, so it cannot run as a program", "add a #! line naming its interpreter"
	}
	if e.NoShebang && e.Interpreter != "" {
		fix = fmt.Sprintf("run it as `%s %s`", e.Interpreter, e.Prog)
		if !strings.Contains(e.Interpreter, " ") {
			chmod := ""
			if e.NoExec {
				chmod = " and chmod +x " + e.Prog
			}
			fix += fmt.Sprintf(", or add `#!/usr/bin/env %s` as its first line%s", e.Interpreter, chmod)
		}
	}
	return fmt.Sprintf("%s (mode %v) %s: %s", e.Prog, e.Mode.Perm(), what, fix)
}

// checkRunnable refuses a program file the kernel will not run (given as
// the user wrote it, found at path), with a fix that works: a file with no
// execute bit for anyone, or a script that does not start with "#!" (a
// script by its extension, or any text file: a binary has NUL bytes in its
// head). A file executable by its owner only is left to the sandbox, which
// knows who runs it.
func checkRunnable(given, path, dir string, st fs.FileInfo) error {
	noExec := st.Mode().Perm()&0o111 == 0
	interp := fileargs.Interpreter(path)
	head := fileargs.Head(path) // nil if it cannot be read: then nothing is said of its #! line
	text := len(head) > 0 && !bytes.ContainsRune(head, 0)
	noShebang := head != nil && !bytes.HasPrefix(head, []byte("#!")) && (interp != "" || text)
	if dir != "" {
		given = path
	}
	if noExec || noShebang {
		return &NotRunnableError{Prog: given, Mode: st.Mode(), NoExec: noExec, NoShebang: noShebang, Interpreter: interp}
	}
	if line, ok := bytes.CutPrefix(head, []byte("#!")); ok {
		return checkShebang(given, string(line), interp)
	}
	return nil
}

// checkShebang checks a script's #! line (line: what follows "#!"), as
// the kernel and /usr/bin/env will read it: its interpreter must be there
// (on PATH, through env), and the line must not end in a carriage return
// (a file saved with Windows line endings), which both would take as part
// of the name.
func checkShebang(prog, line, interp string) error {
	line, _, complete := strings.Cut(line, "\n")
	if !complete {
		return nil // longer than what was read: the kernel's own limit is near
	}
	e := &ShebangError{Prog: prog, Line: "#!" + strings.TrimRight(line, "\r"), Interpreter: interp}
	if strings.HasSuffix(line, "\r") {
		e.CRLF = true
		return e
	}
	named, cmd := fileargs.Shebang(line)
	switch {
	case named == "":
		e.Missing = "no interpreter"
	case !filepath.IsAbs(named):
		return nil // resolved against the bot's working directory, when it starts
	case !fileExists(named):
		e.Missing = named
	case cmd != "":
		if _, err := exec.LookPath(cmd); err != nil {
			e.Missing = cmd
		}
	}
	if e.Missing == "" {
		return nil
	}
	return e
}

// ShebangError is a script whose #! line cannot run it: it ends in a
// carriage return, or names an interpreter that is not there.
type ShebangError struct {
	Prog        string // as the user wrote it
	Line        string // its #! line, without the line end
	CRLF        bool   // the line ends in "\r\n"
	Missing     string // the interpreter that is not there (a path, or a name not on PATH)
	Interpreter string // what runs scripts of its extension ("python3"), or ""
}

func (e *ShebangError) Error() string {
	if e.CRLF {
		return fmt.Sprintf("%s has Windows line endings (its line %q ends in \\r, which becomes part of the interpreter's name): "+
			"convert the file (dos2unix %s, or save it with LF line endings)", e.Prog, e.Line, e.Prog)
	}
	fix := "name one that is installed"
	if e.Interpreter != "" && !strings.Contains(e.Interpreter, " ") {
		fix = fmt.Sprintf("use `#!/usr/bin/env %s`, or run it as `%s %s`", e.Interpreter, e.Interpreter, e.Prog)
	}
	return fmt.Sprintf("%s cannot run: its line %q names the interpreter %s, which is not installed here: %s", e.Prog, e.Line, e.Missing, fix)
}

// CheckOutside refuses bots that need something in dir, a directory
// isolated bots may not see (it holds a deal secret): the first local
// bot (a Command among specs' targets) whose working directory, program
// or a file argument (by fileargs's rule) lies in dir.
func CheckOutside(specs []bot.Spec, dir string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, s := range specs {
		b, ok := s.Target.(Command)
		if !ok {
			continue // it runs elsewhere
		}
		paths := []string{b.Dir}
		if len(b.Argv) > 0 {
			if prog, ok := fileargs.Program(b.Argv[0], b.Dir); ok {
				paths = append(paths, prog)
			}
		}
		files, _ := fileargs.Files(b.Argv, b.Dir)
		for _, f := range files {
			paths = append(paths, f.Abs)
		}
		for _, p := range paths {
			if p == "" {
				continue
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return err
			}
			if rel, err := filepath.Rel(dir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return fmt.Errorf("bot %s needs %s, which lies in %s; bots may not see that directory (it holds the run's results and deal secret): keep the bot's files elsewhere, and the secret in a directory of its own", s.Name, p, dir)
			}
		}
	}
	return nil
}
