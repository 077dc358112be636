//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
)

// The sandbox is made of Linux mechanisms (namespaces, cgroups, seccomp,
// the wrapper that sets them up): here bots run unconfined, as the package
// doc says.

// unavailable says why nothing is enforced here.
const unavailable = "not available on " + runtime.GOOS

// system: there is no mechanism to plan here, only the reason.
type system struct {
	isoWhy string // why bots are not isolated
}

// probes: there is nothing to probe here.
type probes struct {
	isoErr string // why bots cannot be isolated
}

// detect finds nothing: no cgroup, no capability the arena can use.
func detect() *Capabilities {
	return &Capabilities{probes: probes{isoErr: "the sandbox is " + unavailable}}
}

// CanIsolate tells whether bots can be isolated here: never.
func (c *Capabilities) CanIsolate() error { return errors.New(c.isoErr) }

// setUp checks the options: those that need a mechanism are refused.
func (s *Sandbox) setUp() error {
	l, o := s.Limits, s.Options
	if o.User != "" {
		return optionErr("User", "%q: running bots as another user needs the sandbox, which is %s", o.User, unavailable)
	}
	if err := checkValues(l, o); err != nil {
		return err
	}
	switch o.Isolate {
	case "", IsolateAuto, IsolateNo:
	case IsolateYes:
		return optionErr("Isolate", "bots need a root and namespaces of their own, which the sandbox makes only on Linux: it is %s", unavailable)
	default:
		return optionErr("Isolate", "%q: want auto, yes or no", o.Isolate)
	}
	s.isoWhy = s.Caps.isoErr
	if err := s.resolvePaths(); err != nil {
		return err
	}
	switch o.Network {
	case "", NetworkHost:
	case NetworkLoopback, NetworkNone:
		return optionErr("Network", "%s: a network namespace of its own for each bot needs the sandbox, which is %s; bots would share the host's network", o.Network, unavailable)
	default:
		return optionErr("Network", "%q: want loopback, none or host", o.Network)
	}
	return nil
}

// Protections lists every protection, none of them in place here.
func (s *Sandbox) Protections() []Protection {
	out := []Protection{{ProtectIsolation, "bots are not isolated: " + s.isoWhy}}
	for _, name := range []string{ProtectUserNS, ProtectUID, ProtectNetwork, ProtectFiles, ProtectDevices, ProtectSyscalls} {
		out = append(out, Protection{name, "the sandbox is " + unavailable})
	}
	return out
}

// Summary is the short warning that nothing is enforced here.
func (s *Sandbox) Summary() string {
	return "warning: bots run unconfined, with no limit: the sandbox needs Linux"
}

// Details say what running unconfined means.
func (s *Sandbox) Details() []string {
	return []string{
		"the sandbox is " + unavailable + " (it needs Linux)",
		"limits: none is enforced (memory, processes, CPU, files, disk)",
		"isolation: none: bots see the arena's files, processes and network as its user",
		"kill: only a bot's process group is killed when it ends",
		"clock: wall time (time a loaded machine makes a bot wait is charged to it)",
	}
}

// Describe is the warning on one line.
func (s *Sandbox) Describe() string {
	return "warning: bots run unconfined: " + strings.Join(s.Details(), "; ")
}

// Box is one bot process's directory (there is nothing else to hold
// here). It implements transport.Confinement.
type Box struct {
	// Argv and Env start the bot itself, in Dir.
	Argv, Env []string
	Dir       string

	dir     boxDir // removed at Release
	release sync.Once
}

// Prepare makes the directory of one process of bot name (dir "" = a
// fresh directory of its own, removed when the process ends): its command
// argv runs there, unconfined, with Env(name, extraEnv) as its
// environment. The caller starts Box.Argv with Box.Env in Box.Dir, passes
// the Box as the transport's Confinement, and calls Release once the
// process has been reaped.
func (s *Sandbox) Prepare(name string, argv []string, dir string, extraEnv []string) (*Box, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty bot command")
	}
	sweepBoxDirsOnce([]int{os.Geteuid()})
	own, err := makeBoxDir(boxID(name))
	if err != nil {
		return nil, fmt.Errorf("bot directory: %w", err)
	}
	work := dir
	if work == "" {
		work = own.path
	}
	return &Box{Argv: argv, Env: withDirs(s.Env(name, extraEnv), work, own.path), Dir: work, dir: own}, nil
}

// Configure adds nothing: the bot starts as the transport starts it.
func (b *Box) Configure(*exec.Cmd) {}

// Started has nothing to watch: no CPU time limit is enforced here.
func (b *Box) Started(int) {}

// NewGame has no CPU time allowance to renew.
func (b *Box) NewGame() {}

// Kill can do nothing beyond the transport's kill of the bot's process
// group: without cgroups a process that left it is out of reach.
func (b *Box) Kill() {}

// Release removes the bot's directory.
func (b *Box) Release() {
	b.release.Do(b.dir.remove)
}

// Explain names no limit: none is enforced here.
func (b *Box) Explain() string { return "" }

// Status: the process is the bot itself, whose status is its own.
func (b *Box) Status() (syscall.WaitStatus, bool) {
	var ws syscall.WaitStatus
	return ws, false
}

// Main would be the wrapper, which exists on Linux only.
func Main(args []string) int {
	fmt.Fprintf(os.Stderr, "arena sandbox: the sandbox wrapper is %s\n", unavailable)
	return 127
}

// ShieldArena does nothing here: bots run unconfined, as the arena's
// user, with the arena's files (the start-up warning says so).
func ShieldArena() error { return nil }
