//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// envSpec carries the wrapper's instructions (JSON) in its environment;
// the bot never sees it.
const envSpec = "ARENA_SANDBOX"

// system is what a Linux sandbox holds beyond its limits and options.
type system struct {
	// self is the program bot processes start through (wrapperProgram);
	// wrapperNote says why a wrapper beside the arena is not it.
	self, wrapperNote string
	uid               int // -1: the arena's
	gid               int
	uids              *uidPool // isolated bots of a root arena: a uid each
	plan              plan
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

// setUp checks that what is asked can be done here and picks the
// mechanism for each limit and protection.
func (s *Sandbox) setUp() error {
	l, o, caps := s.Limits, s.Options, s.Caps
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the arena executable: %w", err)
	}
	s.uid, s.gid = -1, -1
	if s.self, s.wrapperNote, err = wrapperProgram(self, o.Wrapper); err != nil {
		return err
	}
	if o.User != "" {
		if !caps.SetID {
			return optionErr("User", "%q: running bots as another user needs root (CAP_SETUID and CAP_SETGID); this arena runs as uid %d without them", o.User, os.Getuid())
		}
		uid, gid, err := lookupUser(o.User)
		if err != nil {
			return optionErr("User", "%q: %v", o.User, err)
		}
		s.uid, s.gid = uid, gid
	}
	if err := checkValues(l, o); err != nil {
		return err
	}
	p := &s.plan
	how, why := isolateNone, ""
	switch o.Isolate {
	case "", IsolateAuto:
		how, why = caps.isolation()
	case IsolateYes:
		if how, why = caps.isolation(); how == isolateNone {
			return optionErr("Isolate", "bots need mount and PID namespaces of their own, which need root or unprivileged user namespaces; this arena has neither (%s)", why)
		}
	case IsolateNo:
		why = "--bot-isolate no"
	default:
		return optionErr("Isolate", "%q: want auto, yes or no", o.Isolate)
	}
	p.Isolate = how != isolateNone
	s.isoWhy = why
	if p.Isolate {
		p.UserNS = how == isolateUserNS
		if p.UserNS && s.uid >= 0 {
			// A user namespace maps only the arena's own uid.
			return optionErr("User", "running bots as another user needs root")
		}
		f := caps.features()
		p.Overlay, p.Mknod = f.Overlay, f.Mknod && !p.UserNS
	}
	p.Seccomp = caps.features().Seccomp
	if err := s.resolvePaths(); err != nil {
		return err
	}
	switch o.Network {
	case "", NetworkLoopback, NetworkNone, NetworkHost:
	default:
		return optionErr("Network", "%q: want loopback, none or host", o.Network)
	}
	p.Network = o.Network
	if p.Network == "" {
		p.Network = NetworkLoopback
	}
	if p.Network != NetworkHost && !p.Isolate && !caps.SysAdmin {
		if o.Network != "" {
			return optionErr("Network", "%s: a network namespace of its own for each bot needs CAP_SYS_ADMIN (run the arena as root) or isolation in a user namespace; this arena has neither, so bots would share the host's network", p.Network)
		}
		p.Network = NetworkHost // the default, where nothing better is possible: said by Describe
		s.netWhy = "needs root or isolation in a user namespace"
	}
	if p.Network != NetworkHost && !p.Isolate {
		// As root, bare: the wrapper's network namespace alone.
		if err := caps.netProbe(self, p.Network); err != nil {
			if o.Network != "" {
				return optionErr("Network", "%s: creating a network namespace failed (%v); bots would share the host's network", p.Network, err)
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
			return optionErr("UIDs", "%v", err)
		}
		if s.uids, err = newUIDPool(first, last); err != nil {
			return optionErr("UIDs", "%v", err)
		}
		if err := s.checkReadable(); err != nil {
			return err
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
	return nil
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

// wrapperProgram is the program bot processes start through: asked if
// given (refused unless it is from this build), else WrapperName beside
// the arena executable self when it is from this build, else self. note
// says why a wrapper beside the arena is not used.
func wrapperProgram(self, asked string) (path, note string, err error) {
	if asked != "" {
		if err := checkWrapper(asked); err != nil {
			return "", "", optionErr("Wrapper", "%s: %w", asked, err)
		}
		return asked, "", nil
	}
	beside := filepath.Join(filepath.Dir(self), WrapperName)
	if _, err := os.Stat(beside); err != nil {
		return self, "", nil // none: the arena executable, as always
	}
	if err := checkWrapper(beside); err != nil {
		return self, beside + " is not used: " + err.Error(), nil
	}
	return beside, "", nil
}

// ErrOtherBuild is the refusal of a sandbox wrapper built from other
// sandbox code than the arena's (a stale arena-sandbox): it might confine
// bots otherwise than this arena says.
var ErrOtherBuild = errors.New("built from other sandbox code than this arena (build both together: go build -o bin/ ./cmd/arena ./cmd/arena-sandbox)")

// wrapperCheckTime bounds the fingerprint question put to a wrapper.
const wrapperCheckTime = 10 * time.Second

// checkWrapper asks the program at path for its Fingerprint and compares
// it with this one's.
func checkWrapper(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), wrapperCheckTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, Command, argFingerprint)
	cmd.Env = []string{} // nothing of the arena's
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("asking for its fingerprint: %w", err)
	}
	if strings.TrimSpace(string(out)) != Fingerprint() {
		return ErrOtherBuild
	}
	return nil
}
