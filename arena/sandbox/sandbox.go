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
// (stage 1, wrapper.go): it builds the bot's root (root.go, from the plan
// made by plan.go), then starts the bot in a user namespace of its own
// through a second stage that drops every privilege and execs CMD, and
// stays to reap and to report the bot's exit. Any binary that imports this
// package acts as the wrapper when started that way (test binaries
// included).
//
// Limits go to cgroups where the arena may create them (cgroup v2 with the
// memory, pids and cpu controllers, or the v1 hierarchies), and to rlimits
// otherwise; Detect finds out once what this machine allows and
// Sandbox.Describe says which mechanism enforces what, and which
// protection is missing.
package sandbox

import (
	"fmt"
	"math"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Command is the hidden arena subcommand that wraps a bot.
const Command = "__sandbox"

// envSpec carries the wrapper's instructions (JSON) in its environment;
// the bot never sees it.
const envSpec = "ARENA_SANDBOX"

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
	"Contest": "contest"}

func optionErr(option, format string, a ...any) error {
	return &OptionError{Option: option, Err: fmt.Errorf(format, a...)}
}

// Sandbox is a validated confinement: limits, options and the mechanisms
// this machine offers for them.
type Sandbox struct {
	Limits  Limits
	Options Options
	Caps    *Capabilities

	self string
	uid  int // -1: the arena's
	gid  int
	uids *uidPool // isolated bots of a root arena: a uid each
	plan plan
	// Why bots are not isolated, or have the host's network.
	isoWhy, netWhy string
}

// isolation is how a bot's view of its own is made, found by Detect.
type isolation int

const (
	isolateNone   isolation = iota
	isolateRoot             // namespaces made as root
	isolateUserNS           // the same inside a new user namespace
)

// plan says which mechanism enforces each limit and protection.
type plan struct {
	V2      string `json:"v2,omitempty"` // parent of the bots' cgroups in the unified hierarchy
	V2Mem   bool   `json:"v2_mem,omitempty"`
	V2Pids  bool   `json:"v2_pids,omitempty"`
	V1Mem   string `json:"v1_mem,omitempty"` // parent directories in v1 hierarchies
	V1Pids  string `json:"v1_pids,omitempty"`
	RlMem   bool   `json:"rl_mem,omitempty"`
	RlProcs bool   `json:"rl_procs,omitempty"`
	V2CPU   bool   `json:"v2_cpu,omitempty"`
	V1CPU   string `json:"v1_cpu,omitempty"`
	V1Acct  string `json:"v1_acct,omitempty"` // cpuacct: CPU time of all the bot's processes
	// V1Dev is the v1 devices hierarchy; V2Dev: a BPF device filter on
	// the v2 cgroup.
	V1Dev string `json:"v1_dev,omitempty"`
	V2Dev bool   `json:"v2_dev,omitempty"`
	// Isolate: namespaces and a root of its own, in a user namespace made
	// by the arena if UserNS.
	Isolate bool `json:"isolate,omitempty"`
	UserNS  bool `json:"userns,omitempty"`
	// Network is the bot's network (a Network* mode).
	Network string `json:"network,omitempty"`
	// What the isolated root is made of, as Detect found possible.
	Overlay bool `json:"overlay,omitempty"` // shared directories through private overlays
	Mknod   bool `json:"mknod,omitempty"`   // device nodes of its own
	Seccomp bool `json:"seccomp,omitempty"`
}

// New checks that what is asked can be done here. It fails with an
// *OptionError naming the option this machine cannot provide (another
// user, no network, isolation) or a bad value, and with a *ContestError
// when Options.Contest is set and a protection is missing.
func New(l Limits, o Options) (*Sandbox, error) {
	caps := Detect()
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the arena executable: %w", err)
	}
	s := &Sandbox{Limits: l, Options: o, Caps: caps, self: self, uid: -1, gid: -1}
	if o.User != "" {
		if !caps.SetID {
			return nil, optionErr("User", "%q: running bots as another user needs root (CAP_SETUID and CAP_SETGID); this arena runs as uid %d without them", o.User, os.Getuid())
		}
		uid, gid, err := lookupUser(o.User)
		if err != nil {
			return nil, optionErr("User", "%q: %v", o.User, err)
		}
		s.uid, s.gid = uid, gid
	}
	for _, kv := range o.Env {
		if name, _, _ := strings.Cut(kv, "="); name == "" || strings.ContainsAny(name, "\x00") {
			return nil, optionErr("Env", "%q: want NAME=VALUE or NAME", kv)
		}
	}
	if math.IsNaN(l.CPUs) || l.CPUs < 0 {
		return nil, optionErr("CPUs", "%v: want a positive number of cores, or 0 for unlimited", l.CPUs)
	}
	p := &s.plan
	how, why := isolateNone, ""
	switch o.Isolate {
	case "", IsolateAuto:
		how, why = caps.isolation()
	case IsolateYes:
		if how, why = caps.isolation(); how == isolateNone {
			return nil, optionErr("Isolate", "bots need mount and PID namespaces of their own, which need root or unprivileged user namespaces; this arena has neither (%s)", why)
		}
	case IsolateNo:
		why = "--bot-isolate no"
	default:
		return nil, optionErr("Isolate", "%q: want auto, yes or no", o.Isolate)
	}
	p.Isolate = how != isolateNone
	s.isoWhy = why
	if p.Isolate {
		p.UserNS = how == isolateUserNS
		if p.UserNS && s.uid >= 0 {
			// A user namespace maps only the arena's own uid.
			return nil, optionErr("User", "running bots as another user needs root")
		}
		f := caps.features()
		p.Overlay, p.Mknod = f.Overlay, f.Mknod && !p.UserNS
	}
	p.Seccomp = caps.features().Seccomp
	if err := s.resolvePaths(); err != nil {
		return nil, err
	}
	switch o.Network {
	case "", NetworkLoopback, NetworkNone, NetworkHost:
	default:
		return nil, optionErr("Network", "%q: want loopback, none or host", o.Network)
	}
	p.Network = o.Network
	if p.Network == "" {
		p.Network = NetworkLoopback
	}
	if p.Network != NetworkHost && !p.Isolate && !caps.SysAdmin {
		if o.Network != "" {
			return nil, optionErr("Network", "%s: a network namespace of its own for each bot needs CAP_SYS_ADMIN (run the arena as root) or isolation in a user namespace; this arena has neither, so bots would share the host's network", p.Network)
		}
		p.Network = NetworkHost // the default, where nothing better is possible: said by Describe
		s.netWhy = "needs root or isolation in a user namespace"
	}
	if p.Network != NetworkHost && !p.Isolate {
		// As root, bare: the wrapper's network namespace alone.
		if err := caps.netProbe(self, p.Network); err != nil {
			if o.Network != "" {
				return nil, optionErr("Network", "%s: creating a network namespace failed (%v); bots would share the host's network", p.Network, err)
			}
			p.Network, s.netWhy = NetworkHost, "failed here: "+err.Error()
		}
	}
	if p.Isolate && !p.UserNS && s.uid < 0 {
		spec := o.UIDs
		if spec == "" {
			spec = DefaultUIDs
		}
		first, last, err := ParseUIDs(spec)
		if err != nil {
			return nil, optionErr("UIDs", "%v", err)
		}
		if s.uids, err = newUIDPool(first, last); err != nil {
			return nil, optionErr("UIDs", "%v", err)
		}
		if err := s.checkReadable(); err != nil {
			return nil, err
		}
	}
	if caps.V2 != "" {
		p.V2 = caps.V2
		p.V2Mem = caps.V2Memory && l.Memory > 0
		p.V2Pids = caps.V2Pids && l.Procs > 0
	}
	if l.Memory > 0 && !p.V2Mem {
		if caps.V1Memory != "" {
			p.V1Mem = caps.V1Memory
		} else {
			p.RlMem = true
		}
	}
	if l.Procs > 0 && !p.V2Pids {
		if caps.V1Pids != "" {
			p.V1Pids = caps.V1Pids
		} else {
			p.RlProcs = true
		}
	}
	// No cpu cgroup without a rate: measured on an overloaded machine, a
	// cgroup per bot (even without a quota) delays some answers past a
	// short move limit, which bare processes do not (docs/security.md).
	if l.CPUs > 0 {
		if caps.V2 != "" && caps.V2CPU {
			p.V2CPU = true
		} else {
			p.V1CPU = caps.V1CPU
		}
	}
	if caps.V2 == "" && l.CPUTime > 0 {
		p.V1Acct = caps.V1Acct
	}
	switch {
	case caps.V1Devices != "" && !preferDeviceFilter:
		p.V1Dev = caps.V1Devices
	case caps.V2 != "" && caps.V2Devices:
		p.V2Dev = true
	case caps.V1Devices != "":
		p.V1Dev = caps.V1Devices
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

// botRoot: RLIMIT_NPROC does not bind a root process.
func (s *Sandbox) botRoot() bool {
	switch {
	case s.uid >= 0:
		return s.uid == 0
	case s.uids != nil:
		return false
	}
	return os.Geteuid() == 0
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

// spec is what the wrapper of one bot process is told.
func (s *Sandbox) spec(name, dir string, extraEnv []string) spec {
	return spec{Name: name, Dir: dir, Env: s.Env(name, extraEnv), Limits: s.Limits, UID: s.uid, GID: s.gid,
		Plan: s.plan, BotRoot: s.botRoot()}
}

// spec is what the wrapper of one bot process is told, in its environment.
type spec struct {
	Name    string   `json:"name"`
	Dir     string   `json:"dir,omitempty"`
	Env     []string `json:"env"`
	Limits  Limits   `json:"limits"`
	UID     int      `json:"uid"` // -1: the arena's
	GID     int      `json:"gid"`
	Plan    plan     `json:"plan"`
	BotRoot bool     `json:"bot_root,omitempty"`

	// Filled in per process by Prepare.
	Cgroups []string `json:"cgroups,omitempty"` // cgroup directories to join
	Work    string   `json:"work,omitempty"`    // working directory
	Tmp     string   `json:"tmp,omitempty"`     // the bot's own directory (TMPDIR), on the host
	PPid    int      `json:"ppid,omitempty"`    // the arena
	// Isolated: the bot's root (Tmp on the host is where it is built) and
	// the bot's own directory in it.
	Root  []mountEntry `json:"root,omitempty"`
	Inner string       `json:"inner,omitempty"`
}

func lookupUser(name string) (uid, gid int, err error) {
	u, err := user.Lookup(name)
	if err != nil {
		if _, numErr := strconv.Atoi(name); numErr == nil {
			u, err = user.LookupId(name)
		}
	}
	if err != nil {
		return 0, 0, fmt.Errorf("no such user")
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("unusable uid/gid %s/%s", u.Uid, u.Gid)
	}
	return uid, gid, nil
}

// ParseSize reads a byte count: 1048576, 512KiB, 64MiB, 1GiB (also K, M,
// G, KB, MB, GB as powers of 1024). "0" and "unlimited" mean no limit (0).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "unlimited" || t == "none" {
		return 0, nil
	}
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') {
		i--
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	mult := map[string]int64{"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
		"G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v < 0 || v*float64(mult) > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size (try 64MiB, 1GiB, or unlimited)", s)
	}
	return int64(v * float64(mult)), nil
}

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
func FormatSize(n int64) string {
	if n <= 0 {
		return "unlimited"
	}
	for _, u := range []struct {
		s string
		v int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n%u.v == 0 {
			return fmt.Sprintf("%d%s", n/u.v, u.s)
		}
	}
	return strconv.FormatInt(n, 10)
}
