// Package sandbox confines bot processes: resource limits (memory, CPU
// time and rate, processes, open files, file size, disk), a scrubbed
// environment, a working directory of their own and, where the machine
// allows it, isolation: a minimal root of its own (the system's runtime
// directories, the bot's own program, a private /tmp and /dev, its own
// /proc), its own PID, IPC, UTS, network, cgroup and user namespaces, its
// own uid when the arena runs as root, a device cgroup, a seccomp filter
// and no capabilities. docs/security.md describes the threat model: a bot
// must learn nothing of a deal that its seat may not know, by any channel.
//
// A bot process is started as `ARENA __sandbox -- CMD...` (Sandbox.Prepare
// makes the command and the Box that the transport keeps as its
// Confinement): this same executable. Unconfined by namespaces it joins
// the bot's cgroups, applies the rlimits, drops its privileges and execs
// CMD in place. Isolated, it is the init process of the bot's namespaces
// (stage 1, wrapper_linux.go): it builds the bot's root (root_linux.go,
// from the plan made by plan_linux.go), then starts the bot in a user
// namespace of its own through a second stage that drops every privilege
// and execs CMD, and stays to reap and to report the bot's exit.
//
// The re-execution is explicit, as Docker's pkg/reexec does it: a binary
// acts as the wrapper only if its main calls RunWrapperIfAsked first thing
// (cmd/arena does; so does TestMain in every test binary whose tests start
// sandboxed bots). Importing the package does nothing by itself, and New
// refuses to make a Sandbox in a process that has not made the call.
//
// Limits go to cgroups where the arena may create them (cgroup v2 with the
// memory, pids and cpu controllers, or the v1 hierarchies), and to rlimits
// otherwise; Detect finds out once what this machine allows and
// Sandbox.Describe says which mechanism enforces what, and which
// protection is missing.
//
// All of it is Linux's. On other systems (sandbox_other.go) New gives a
// Sandbox that runs bots unconfined, with the scrubbed environment and a
// directory of their own only: Describe is a warning saying so, every
// Protection is missing, and the options that need a mechanism (another
// user, isolation, a network of their own, Contest) are refused.
package sandbox

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/internal/bytesize"
)

// Command is the hidden arena subcommand that wraps a bot.
const Command = "__sandbox"

// Limits are per bot process. Zero means unlimited.
type Limits struct {
	// Memory in bytes: the bot with every process it starts (cgroup), or
	// each process's data segment (RLIMIT_DATA) without a memory cgroup.
	Memory int64 `json:"memory"`
	// CPUTime a bot may use per game: counted from the moment its process
	// is handed a game (so time burnt between games counts toward the next
	// one), for the bot and every process it starts when it has a cgroup
	// (else its main process only), checked every 50ms by the arena, which
	// kills the bot past it.
	CPUTime time.Duration `json:"cpu_time"`
	// Procs counts processes and threads (pids cgroup; RLIMIT_NPROC per
	// user otherwise).
	Procs int64 `json:"procs"`
	// Files is the number of open file descriptors per process.
	Files int64 `json:"files"`
	// FileSize is the largest file a process may write.
	FileSize int64 `json:"file_size"`
	// CPUs is the CPU rate: how many cores' worth of time the bot with
	// every process it starts may use (cgroup cpu quota; 0.5 is half a
	// core). 0 is unlimited. A quota throttles even on an idle machine
	// and, on an overloaded one, can delay a bot's answer by a period.
	CPUs float64 `json:"cpus"`
	// Disk is the size of the bot's writable directory when it is
	// isolated (a tmpfs, counted in its memory too).
	Disk int64 `json:"disk"`
}

// DefaultLimits protect the machine out of the box.
var DefaultLimits = Limits{Memory: 1 << 30, Procs: 256, Files: 1024, FileSize: 64 << 20, Disk: 256 << 20}

// Isolation modes (Options.Isolate).
const (
	// IsolateAuto isolates bots where this machine allows it.
	IsolateAuto = "auto"
	// IsolateYes isolates bots, or refuses to start.
	IsolateYes = "yes"
	// IsolateNo leaves bots the arena's view of files and processes.
	IsolateNo = "no"
)

// Network modes (Options.Network).
const (
	// NetworkLoopback, the default, gives each bot process a network
	// namespace of its own with only its own loopback up: a bot may talk to
	// itself over 127.0.0.1, and no socket reaches another process.
	NetworkLoopback = "loopback"
	// NetworkNone gives each bot process an empty network namespace.
	NetworkNone = "none"
	// NetworkHost leaves bots the host's network (loopback included):
	// they can reach each other, the machine's services and the internet.
	NetworkHost = "host"
)

// DefaultUIDs are the uids bot processes get, one each, when the arena
// runs as root and isolates them: a range that the usual conventions
// (systemd's, the subordinate ranges of useradd) leave unused.
const DefaultUIDs = "1879048192-1879113727"

// Program is one bot's command as the run starts it: what an isolated
// bot's root shows of its program, and what is hidden from the others.
type Program struct {
	Argv []string
	Dir  string
}

// Options are the other confinements.
type Options struct {
	// User runs bots as this user (name or uid); needs root. Without it,
	// an isolated bot of a root arena runs as a uid of its own (UIDs).
	User string
	// Network is NetworkLoopback (the default when empty), NetworkNone or
	// NetworkHost. Loopback and none need root or isolation in a user
	// namespace; by default, where neither is possible, bots share the
	// host's network and Describe says so.
	Network string
	// Env adds NAME=VALUE to every bot's environment; a bare NAME passes
	// the arena's own value through (if it has one).
	Env []string
	// Isolate gives each bot process a root and namespaces of its own
	// (IsolateAuto when empty). It needs root, or unprivileged user
	// namespaces.
	Isolate string
	// Hide are files and directories no bot may see: the arena's output
	// directory (replays and logs of finished games tell the deal of games
	// still being played), the tournament file, the deal secret. An
	// isolated bot's root does not hold them; where one lies inside a
	// directory it does hold (a bot's program directory), it is covered.
	Hide []string
	// Programs are every bot of the run: an isolated bot sees its own
	// program and not the files the others name (covered where they lie
	// in a directory it sees).
	Programs []Program
	// ReadOnly and ReadWrite are host paths added to an isolated bot's
	// root, at the same place. A read-write path is shared by every bot
	// process: a channel between them (Describe says so; Contest refuses
	// it).
	ReadOnly, ReadWrite []string
	// UIDs is the range "FIRST-LAST" of uids isolated bot processes of a
	// root arena run as, one each (DefaultUIDs when empty).
	UIDs string
	// Contest refuses to start unless every protection against passing
	// hidden information is in place (Protections).
	Contest bool
	// Wrapper is the program bot processes start through (Linux): ""
	// for WrapperName beside the arena executable if it is from the same
	// build (Fingerprint), else the executable itself. A path given here
	// must be from the same build.
	Wrapper string
}

// OptionError is a sandbox option this machine cannot provide, or a bad
// one. Option names it as Options does (User, Network, Isolate, Env, CPUs,
// UIDs, ReadOnly, ReadWrite, Hide, Contest).
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return optionWords[e.Option] + ": " + e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// optionWords name the options in messages.
var optionWords = map[string]string{"User": "bot user", "Network": "network", "Isolate": "isolate", "Env": "bot env",
	"CPUs": "bot cpus", "UIDs": "bot uids", "ReadOnly": "read-only path", "ReadWrite": "read-write path", "Hide": "hidden path",
	"Contest": "contest", "Wrapper": "sandbox wrapper"}

func optionErr(option, format string, a ...any) error {
	return &OptionError{Option: option, Err: fmt.Errorf(format, a...)}
}

// Sandbox is a validated confinement: limits, options and the mechanisms
// this machine offers for them.
type Sandbox struct {
	Limits  Limits
	Options Options
	Caps    *Capabilities

	system // what this system's sandbox holds (sandbox_linux.go, sandbox_other.go)
}

// New checks that what is asked can be done here. It fails with an
// *OptionError naming the option this machine cannot provide (another
// user, no network, isolation) or a bad value, with a *ClosedError (on
// Linux) when bots run as uids of their own and a file of a program is
// closed to them, and with a *ContestError when Options.Contest is set and
// a protection is missing.
func New(l Limits, o Options) (*Sandbox, error) {
	if !wrapperReady.Load() {
		return nil, errNoWrapper
	}
	s := &Sandbox{Limits: l, Options: o, Caps: Detect()}
	if err := s.setUp(); err != nil {
		return nil, err
	}
	if o.Contest {
		var missing []Protection
		for _, pr := range s.Protections() {
			if pr.Missing != "" {
				missing = append(missing, pr)
			}
		}
		if len(missing) > 0 {
			return nil, &ContestError{Missing: missing}
		}
	}
	return s, nil
}

// checkValues checks the options whatever the system: the names of the
// bots' variables and the CPU rate.
func checkValues(l Limits, o Options) error {
	for _, kv := range o.Env {
		if name, _, _ := strings.Cut(kv, "="); name == "" || strings.ContainsAny(name, "\x00") {
			return optionErr("Env", "%q: want NAME=VALUE or NAME", kv)
		}
	}
	if math.IsNaN(l.CPUs) || l.CPUs < 0 {
		return optionErr("CPUs", "%v: want a positive number of cores, or 0 for unlimited", l.CPUs)
	}
	return nil
}

// resolvePaths makes the hidden, added and program paths absolute and
// checks the added ones exist.
func (s *Sandbox) resolvePaths() error {
	o := &s.Options
	abs := func(option string, paths []string, mustExist bool) ([]string, error) {
		var out []string
		for _, p := range paths {
			a, err := filepath.Abs(p)
			if err != nil {
				return nil, optionErr(option, "%s: %v", p, err)
			}
			if mustExist {
				if _, err := os.Stat(a); err != nil {
					return nil, optionErr(option, "%s: %v", p, err)
				}
				if a == "/" {
					return nil, optionErr(option, "/: the whole filesystem is not a path to add")
				}
			}
			out = append(out, a)
		}
		return out, nil
	}
	var err error
	if o.Hide, err = abs("Hide", o.Hide, false); err != nil {
		return err
	}
	if o.ReadOnly, err = abs("ReadOnly", o.ReadOnly, true); err != nil {
		return err
	}
	if o.ReadWrite, err = abs("ReadWrite", o.ReadWrite, true); err != nil {
		return err
	}
	for option, added := range map[string][]string{"ReadOnly": o.ReadOnly, "ReadWrite": o.ReadWrite} {
		for _, a := range added {
			for _, h := range o.Hide {
				if within(a, h) {
					return optionErr(option, "%s lies in %s, which bots may not see", a, h)
				}
			}
		}
	}
	return nil
}

// within: path is dir or lies below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ParseUIDs reads a uid range "FIRST-LAST".
func ParseUIDs(spec string) (first, last int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(spec), "-")
	first, err1 := strconv.Atoi(strings.TrimSpace(a))
	last, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || first < 1 || last < first || last >= 1<<32-1 {
		return 0, 0, fmt.Errorf("%q is not a uid range (want FIRST-LAST, such as %s)", spec, DefaultUIDs)
	}
	return first, last, nil
}

// Env is the environment of bot name before its directories are known:
// PATH (the arena's), LANG and LC_ALL (C.UTF-8), ARENA_BOT_NAME, then the
// sandbox's configured variables and extra (per bot) in that order, later
// ones winning. HOME and TMPDIR are added per process unless given.
func (s *Sandbox) Env(name string, extra []string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	vars := map[string]string{"PATH": path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "ARENA_BOT_NAME": name}
	for _, kv := range append(append([]string(nil), s.Options.Env...), extra...) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			var set bool
			if v, set = os.LookupEnv(k); !set {
				continue
			}
		}
		vars[k] = v
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// ParseSize reads a byte count: 1048576, 512KiB, 64MiB, 1GiB (also K, M,
// G, KB, MB, GB as powers of 1024). "0" and "unlimited" mean no limit (0).
func ParseSize(s string) (int64, error) { return bytesize.Parse(s) }

// ParseCount reads a count; "0" and "unlimited" mean no limit (0).
func ParseCount(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "unlimited" || t == "none" {
		return 0, nil
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a count (a whole number, or unlimited)", s)
	}
	return v, nil
}

// ParseCPUs reads a CPU rate in cores (1, 0.5, 2); "0" and "unlimited"
// mean no limit.
func ParseCPUs(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "unlimited" || t == "none" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || (v > 0 && v < 0.1) {
		return 0, fmt.Errorf("%q is not a number of cores (try 1, 0.5, 2, or unlimited; at least 0.1)", s)
	}
	return v, nil
}

// ParseDuration reads a CPU time; "0" and "unlimited" mean no limit.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "unlimited" || t == "none" || t == "0" {
		return 0, nil
	}
	v, err := time.ParseDuration(t)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a duration (try 10s, 1m, or unlimited)", s)
	}
	return v, nil
}

// FormatSize writes bytes the way ParseSize reads them.
func FormatSize(n int64) string { return bytesize.Format(n) }
