package bot

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/google/shlex"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/bots"
)

// Command is a bot program run as a child process over stdio: the stdio
// Launcher.
type Command struct {
	Name string
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

// Spec is the bot as the pool runs it: every session a process of c.
func (c Command) Spec() Spec { return Spec{Name: c.Name, Launcher: c} }

// Specs are the Specs of cmds, in order.
func Specs(cmds []Command) []Spec {
	out := make([]Spec, len(cmds))
	for i, c := range cmds {
		out[i] = c.Spec()
	}
	return out
}

// Launch starts a process of c, in c.Sandbox if set.
func (c Command) Launch(name string, opt LaunchOptions) (Endpoint, error) {
	cfg := transport.ProcessConfig{Argv: c.Argv, Dir: c.Dir, Env: c.Env, MaxLine: opt.MaxLine, StderrCap: opt.StderrCap}
	var proc *transport.Process
	var err error
	if c.Sandbox != nil {
		proc, err = c.Sandbox.Start(name, cfg)
	} else {
		if len(cfg.Env) > 0 {
			cfg.Env = append(os.Environ(), cfg.Env...)
		}
		proc, err = transport.Start(cfg)
	}
	if err != nil {
		return nil, err
	}
	return processEndpoint{proc}, nil
}

// processEndpoint is a bot process as an Endpoint.
type processEndpoint struct{ *transport.Process }

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

var botName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// CheckName validates a bot name: it becomes a directory name for logs.
func CheckName(name string) error {
	if !botName.MatchString(name) {
		return fmt.Errorf("bot name %q may hold only letters, digits, '.', '_' and '-' (and must not start with '.', '_' or '-')", name)
	}
	return nil
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
// (bots.ParseOptions) and suit the bot. The program must exist: on
// PATH, or as a path (relative to dir when dir is set).
//
// Without dir the bot runs in a directory of its own (see arena/sandbox),
// so a relative program path, and every argument naming an existing file
// relative to the arena's directory ("bots/x.py", "bot.py"), are made
// absolute.
func ParseCommand(cmdline, dir string) ([]string, error) {
	argv, err := shlex.Split(cmdline)
	if err != nil {
		return nil, fmt.Errorf("cannot split command %q: %v", cmdline, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	if argv[0] == "arena" {
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
	prog := argv[0]
	if strings.Contains(prog, "/") {
		if dir != "" && !filepath.IsAbs(prog) {
			prog = filepath.Join(dir, prog)
		}
		if st, err := os.Stat(prog); err != nil || st.IsDir() {
			return nil, fmt.Errorf("command %q not found", argv[0])
		}
		return absArgs(argv, dir), nil
	}
	if _, err := exec.LookPath(prog); err != nil {
		return nil, fmt.Errorf("command %q not found", argv[0])
	}
	return absArgs(argv, dir), nil
}

// absArgs makes paths relative to the arena's directory absolute when the
// bot runs elsewhere (no dir): the program if it is a path, and arguments
// that name an existing file (or directory) and look like paths (a slash
// or an extension, so "greedy" in "arena bot greedy" stays a word).
func absArgs(argv []string, dir string) []string {
	if dir != "" {
		return argv
	}
	out := append([]string(nil), argv...)
	for i, a := range out {
		if a == "" || filepath.IsAbs(a) || strings.HasPrefix(a, "-") {
			continue
		}
		if i > 0 && !strings.Contains(a, "/") && filepath.Ext(a) == "" {
			continue
		}
		if i == 0 && !strings.Contains(a, "/") {
			continue // found on PATH
		}
		st, err := os.Stat(a)
		if err != nil || (i > 0 && st.IsDir() && !strings.Contains(a, "/")) {
			continue
		}
		if abs, err := filepath.Abs(a); err == nil {
			out[i] = abs
		}
	}
	return out
}

// CheckOutside refuses bots that need something in dir, a directory
// isolated bots may not see (it holds a deal secret): the first bot whose
// working directory, program or a file argument given as an absolute path
// (ParseCommand makes relative ones absolute) lies in dir.
func CheckOutside(bots []Command, dir string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, b := range bots {
		paths := []string{b.Dir}
		for _, a := range b.Argv {
			if filepath.IsAbs(a) {
				paths = append(paths, a)
			}
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
				return fmt.Errorf("bot %s needs %s, which lies in %s; bots may not see that directory (it holds the deal secret): keep the secret in a directory of its own", b.Name, p, dir)
			}
		}
	}
	return nil
}
