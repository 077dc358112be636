package sandbox

import "sync"

// Capabilities is what this machine lets the arena do, found once.
type Capabilities struct {
	// V2 is the arena's own cgroup in the unified hierarchy when the arena
	// may create child cgroups there ("" otherwise); V2Memory and V2Pids
	// tell whether those controllers are enabled for the children, V2Kill
	// whether cgroup.kill exists (Linux 5.14+).
	V2       string
	V2Memory bool
	V2Pids   bool
	V2CPU    bool
	V2Kill   bool
	// V2AtBirth: a process can be started straight into a child of V2
	// (clone3's CLONE_INTO_CGROUP, Linux 5.7+), with no move afterwards.
	V2AtBirth bool
	// V1Memory, V1Pids, V1CPU and V1Acct (cpuacct) are the arena's cgroups
	// in writable v1 hierarchies, used when v2 lacks the controller.
	V1Memory string
	V1Pids   string
	V1CPU    string
	V1Acct   string
	// V1Devices is the arena's cgroup in a writable v1 devices hierarchy;
	// V2Devices tells whether a BPF device filter can be attached to the
	// bots' v2 cgroups.
	V1Devices string
	V2Devices bool
	// SlowJoin is the mount point of the cgroup v2 hierarchy when it is
	// mounted without favordynmods (Linux 6.0+): moving a process into a
	// cgroup then waits for an RCU grace period, 10-20 ms after an idle
	// moment, which every confined bot's start that joins a v1 cgroup
	// (or the v2 one, without V2AtBirth) pays. Mounted with it the
	// move takes a fraction of a millisecond (at some cost to every fork
	// and exit on the machine). "" otherwise.
	SlowJoin string
	// SysAdmin: CAP_SYS_ADMIN (network namespaces). SetID: CAP_SETUID and
	// CAP_SETGID (another user).
	SysAdmin, SetID bool

	probes // what probing found (detect_linux.go)
}

var (
	detectOnce sync.Once
	detected   *Capabilities
)

// Detect probes the machine once per process.
func Detect() *Capabilities {
	detectOnce.Do(func() { detected = detect() })
	return detected
}
