// Package sandbox confines bot processes: resource limits (memory, CPU
// time and rate, processes, open files, file size, disk), a scrubbed
// environment, a working directory of their own, isolation where the
// machine allows it (mount, PID and IPC namespaces: a read-only view of
// the files without the arena's output, a private tmpfs, only its own
// processes), no capabilities, and optionally another user and no network.
// docs/security.md describes the threat model.
//
// A bot process is started as `ARENA __sandbox -- CMD...` (Sandbox.Prepare
// makes the command and the Box that the transport keeps as its
// Confinement): this same executable, which builds the isolated view (in
// its new namespaces), joins the bot's cgroups, applies rlimits, changes
// directory and user, drops its capabilities and then execs CMD in place,
// so the bot keeps the pid and process group the arena knows. Any binary
// that imports this package acts as the wrapper when started that way
// (test binaries included), see wrapper.go; isolate.go builds the view.
//
// Limits go to cgroups where the arena may create them (cgroup v2 with the
// memory, pids and cpu controllers, or the v1 hierarchies), and to rlimits
// otherwise; Detect finds out once what this machine allows and
// Sandbox.Describe says which mechanism enforces what.
package sandbox

import (
	"errors"
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
	// one), for the bot and every process it starts when it has a cgroup v2
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

// Options are the other confinements.
type Options struct {
	// User runs bots as this user (name or uid); needs root.
	User string
	// NoNetwork runs each bot in a new, empty network namespace (not even
	// loopback is up); needs CAP_SYS_ADMIN.
	NoNetwork bool
	// Env adds NAME=VALUE to every bot's environment; a bare NAME passes
	// the arena's own value through (if it has one).
	Env []string
	// Isolate gives each bot process a view of its own (IsolateAuto when
	// empty): the whole filesystem read-only but for its directory (a
	// private tmpfs of Limits.Disk), the Hide paths covered, and its own
	// process and IPC namespaces, so it sees only its own processes and
	// nothing it starts outlives it. It needs root, or unprivileged user
	// namespaces.
	Isolate string
	// Hide are directories covered by an empty one in an isolated bot's
	// view: the arena's output directory, whose replays and logs of
	// finished games would tell the deal of games still being played.
	Hide []string
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
	plan plan
}

// isolation is how a bot's view of its own is made, found by Detect.
type isolation int

const (
	isolateNone   isolation = iota
	isolateRoot             // mount, PID and IPC namespaces as root
	isolateUserNS           // the same inside a new user namespace
)

// plan says which mechanism enforces each limit.
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
	// Isolate: namespaces of its own, in a user namespace if UserNS.
	Isolate bool `json:"isolate,omitempty"`
	UserNS  bool `json:"userns,omitempty"`
}

// New checks that what is asked can be done here. It fails with a message
// naming the missing privilege for a user or network isolation the arena
// cannot provide.
func New(l Limits, o Options) (*Sandbox, error) {
	caps := Detect()
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the arena executable: %w", err)
	}
	s := &Sandbox{Limits: l, Options: o, Caps: caps, self: self, uid: -1, gid: -1}
	if o.User != "" {
		if !caps.SetID {
			return nil, fmt.Errorf("bot user %q: running bots as another user needs root (CAP_SETUID and CAP_SETGID); this arena runs as uid %d without them", o.User, os.Getuid())
		}
		uid, gid, err := lookupUser(o.User)
		if err != nil {
			return nil, fmt.Errorf("bot user %q: %v", o.User, err)
		}
		s.uid, s.gid = uid, gid
	}
	for _, kv := range o.Env {
		if name, _, _ := strings.Cut(kv, "="); name == "" || strings.ContainsAny(name, "\x00") {
			return nil, fmt.Errorf("bot env %q: want NAME=VALUE or NAME", kv)
		}
	}
	if math.IsNaN(l.CPUs) || l.CPUs < 0 {
		return nil, fmt.Errorf("bot cpus %v: want a positive number of cores, or 0 for unlimited", l.CPUs)
	}
	p := &s.plan
	switch o.Isolate {
	case "", IsolateAuto:
		how, _ := caps.isolation()
		p.Isolate = how != isolateNone
	case IsolateYes:
		if how, why := caps.isolation(); how == isolateNone {
			return nil, fmt.Errorf("isolate: bots need mount and PID namespaces of their own, which need root or unprivileged user namespaces; this arena has neither (%s)", why)
		}
		p.Isolate = true
	case IsolateNo:
	default:
		return nil, fmt.Errorf("isolate %q: want auto, yes or no", o.Isolate)
	}
	if p.Isolate {
		how, _ := caps.isolation()
		p.UserNS = how == isolateUserNS
		if p.UserNS && s.uid >= 0 {
			// A user namespace maps only the arena's own uid.
			return nil, errors.New("bot user: running bots as another user needs root")
		}
		s.Options.Hide = nil
		for _, h := range o.Hide {
			abs, err := filepath.Abs(h)
			if err != nil {
				return nil, fmt.Errorf("isolate: hiding %s: %v", h, err)
			}
			s.Options.Hide = append(s.Options.Hide, abs)
		}
	}
	if caps.V2 != "" {
		p.V2 = caps.V2
		p.V2Mem = caps.V2Memory && l.Memory > 0
		p.V2Pids = caps.V2Pids && l.Procs > 0
	}
	if o.NoNetwork {
		// As root, or inside the user namespace of an isolated bot.
		var err error
		switch {
		case caps.SysAdmin:
			err = probe(self, plan{}, true)
		case p.Isolate && p.UserNS:
			err = probe(self, plan{Isolate: true, UserNS: true}, true)
		default:
			return nil, errors.New("no network: a bot network namespace needs CAP_SYS_ADMIN (run the arena as root) or isolation in a user namespace; this arena has neither, so bots would share the host's network")
		}
		if err != nil {
			return nil, fmt.Errorf("no network: creating a network namespace failed (%v); bots would share the host's network", err)
		}
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
	return s, nil
}

// botRoot: RLIMIT_NPROC does not bind a root process.
func (s *Sandbox) botRoot() bool {
	if s.uid >= 0 {
		return s.uid == 0
	}
	return os.Geteuid() == 0
}

// Describe is one line saying which mechanism enforces each limit, and
// what is not enforced on this machine.
func (s *Sandbox) Describe() string {
	l, p := s.Limits, s.plan
	var parts, not []string
	add := func(what, value, how string) {
		if value == "" {
			parts = append(parts, what+" unlimited")
			return
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", what, value, how))
	}
	mem := ""
	if l.Memory > 0 {
		mem = FormatSize(l.Memory)
	}
	switch {
	case p.V2Mem:
		add("memory", mem, "cgroup v2")
	case p.V1Mem != "":
		add("memory", mem, "cgroup v1")
	default:
		add("memory", mem, "rlimit data, per process")
	}
	procs := ""
	if l.Procs > 0 {
		procs = strconv.FormatInt(l.Procs, 10)
	}
	switch {
	case p.V2Pids:
		add("procs", procs, "cgroup v2")
	case p.V1Pids != "":
		add("procs", procs, "cgroup v1")
	case l.Procs > 0 && s.botRoot():
		parts = append(parts, "procs "+procs+" (NOT ENFORCED)")
		not = append(not, "procs (bots run as root, which RLIMIT_NPROC does not bind, and no pids cgroup is writable; use --bot-user)")
	default:
		add("procs", procs, "rlimit, per user")
	}
	cpu, cpuHow := "", "arena watchdog, main process"
	if l.CPUTime > 0 {
		cpu = l.CPUTime.String() + "/game"
	}
	switch {
	case p.V2 != "":
		cpuHow = "arena watchdog, cgroup v2 accounting"
	case p.V1Acct != "":
		cpuHow = "arena watchdog, cgroup v1 accounting"
	}
	add("cpu", cpu, cpuHow)
	rate := ""
	if l.CPUs > 0 {
		rate = strconv.FormatFloat(l.CPUs, 'g', -1, 64)
	}
	switch {
	case l.CPUs == 0:
		add("cpus", "", "")
	case p.V2CPU:
		add("cpus", rate, "cgroup v2")
	case p.V1CPU != "":
		add("cpus", rate, "cgroup v1")
	default:
		parts = append(parts, "cpus "+rate+" (NOT ENFORCED)")
		not = append(not, "cpus (no writable cpu cgroup)")
	}
	files := ""
	if l.Files > 0 {
		files = strconv.FormatInt(l.Files, 10)
	}
	add("files", files, "rlimit")
	fsize := ""
	if l.FileSize > 0 {
		fsize = FormatSize(l.FileSize)
	}
	add("file size", fsize, "rlimit")
	disk := ""
	if l.Disk > 0 {
		disk = FormatSize(l.Disk)
	}
	switch {
	case l.Disk == 0:
		add("disk", "", "")
	case !p.Isolate:
		parts = append(parts, "disk "+disk+" (NOT ENFORCED)")
		not = append(not, "disk (bots are not isolated)")
	default:
		add("disk", disk, "tmpfs")
	}
	var kill []string
	if p.Isolate {
		kill = append(kill, "PID namespace")
	}
	switch {
	case s.Caps.V2Kill:
		kill = append(kill, "cgroup v2")
	case s.Caps.V1Memory != "" || s.Caps.V1Pids != "":
		kill = append(kill, "cgroup v1")
	}
	if len(kill) == 0 {
		kill = append(kill, "process group and environment marker")
		not = append(not, "processes that leave the bot's process group and clear their environment (no writable cgroup, no isolation)")
	}
	iso := "none: bots see the arena's files and processes"
	switch {
	case p.Isolate && p.UserNS:
		iso = "own namespaces in a user namespace (read-only files, private directory and processes)"
	case p.Isolate:
		iso = "own namespaces (read-only files, private directory and processes)"
	}
	if !p.Isolate {
		why := "--bot-isolate no"
		if s.Options.Isolate != IsolateNo {
			why = "needs root or unprivileged user namespaces"
		}
		not = append(not, "isolation ("+why+")")
	}
	usr := "the arena's"
	if s.uid >= 0 {
		usr = fmt.Sprintf("%s (uid %d)", s.Options.User, s.uid)
	}
	net := "shared with the host"
	if s.Options.NoNetwork {
		net = "none (own namespace)"
	}
	line := fmt.Sprintf("sandbox: %s; kill: %s; isolation: %s; user: %s; network: %s",
		strings.Join(parts, ", "), strings.Join(kill, " + "), iso, usr, net)
	if len(not) > 0 {
		line += "; not enforced: " + strings.Join(not, "; ")
	}
	return line
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
	sp := spec{Name: name, Dir: dir, Env: s.Env(name, extraEnv), Limits: s.Limits, UID: s.uid, GID: s.gid,
		NoNetwork: s.Options.NoNetwork, Plan: s.plan, BotRoot: s.botRoot()}
	if s.plan.Isolate {
		sp.Hide = s.Options.Hide
	}
	return sp
}

// spec is what the wrapper of one bot process is told, in its environment.
type spec struct {
	Name      string   `json:"name"`
	Dir       string   `json:"dir,omitempty"`
	Env       []string `json:"env"`
	Limits    Limits   `json:"limits"`
	UID       int      `json:"uid"`
	GID       int      `json:"gid"`
	NoNetwork bool     `json:"no_network,omitempty"`
	Plan      plan     `json:"plan"`
	BotRoot   bool     `json:"bot_root,omitempty"`

	// Filled in per process by Prepare.
	Cgroups []string `json:"cgroups,omitempty"` // cgroup directories to join
	Work    string   `json:"work,omitempty"`    // working directory
	Tmp     string   `json:"tmp,omitempty"`     // the bot's own directory (TMPDIR)
	PPid    int      `json:"ppid,omitempty"`    // the arena
	Hide    []string `json:"hide,omitempty"`    // directories an isolated bot may not see
	Program string   `json:"program,omitempty"` // set by the wrapper
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
