//go:build linux

package sandbox

import (
	"fmt"
	"strconv"
	"strings"
)

// Protections lists every protection and whether it is in place.
func (s *Sandbox) Protections() []Protection {
	p := s.plan
	iso := ""
	if !p.Isolate {
		iso = "bots are not isolated: " + s.isoWhy
	}
	notIsolated := func(what string) string {
		if p.Isolate {
			return what
		}
		return "needs isolation"
	}
	out := []Protection{{ProtectIsolation, iso}}
	out = append(out, Protection{ProtectUserNS, notIsolated("")})
	uid := ""
	switch {
	case !p.Isolate:
		uid = "needs isolation"
	case p.UserNS:
		uid = "every bot process runs as the arena's uid: one uid each needs root"
	case s.uid >= 0:
		uid = "--bot-user gives every bot process the same uid"
	}
	out = append(out, Protection{ProtectUID, uid})
	netw := ""
	if p.Network == NetworkHost {
		netw = "bots share the host's network"
		if s.netWhy != "" {
			netw += " (a network namespace of their own " + s.netWhy + ")"
		} else {
			netw += " (--bot-network host)"
		}
	}
	out = append(out, Protection{ProtectNetwork, netw})
	var files []string
	switch {
	case !p.Isolate:
		files = append(files, "needs isolation")
	default:
		if !p.Overlay {
			files = append(files, "no overlayfs here: shared directories are bind mounts, whose file locks and watches other processes see ("+s.Caps.features().OverlayErr+")")
		}
		if !p.Mknod {
			files = append(files, "device nodes are the host's, whose locks are shared (own nodes need root)")
		}
		for _, rw := range s.Options.ReadWrite {
			files = append(files, "--bot-rw "+rw+" is shared by every bot process")
		}
	}
	out = append(out, Protection{ProtectFiles, strings.Join(files, "; ")})
	dev := ""
	if p.V1Dev == "" && !p.V2Dev {
		dev = "no writable devices cgroup (v1) and no BPF device filter (v2)"
	}
	out = append(out, Protection{ProtectDevices, dev})
	sys := ""
	if !p.Seccomp {
		sys = "seccomp filters are not available: " + s.Caps.features().SeccompErr
	}
	out = append(out, Protection{ProtectSyscalls, sys})
	return out
}

// Describe is one line saying which mechanism enforces each limit and
// protection, and what is not enforced on this machine.
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
	if p.Isolate {
		iso = "own root, namespaces and user namespace per process"
		if p.UserNS {
			iso += ", in a user namespace"
		}
		iso += " (read-only system and program, private /tmp and /dev, own /proc"
		if p.Overlay {
			iso += ", shared directories as private overlays"
		}
		iso += ")"
	}
	usr := "the arena's"
	switch {
	case s.uid >= 0:
		usr = fmt.Sprintf("%s (uid %d)", s.Options.User, s.uid)
	case s.uids != nil:
		usr = fmt.Sprintf("one uid per process from %d-%d", s.uids.first, s.uids.last)
	}
	netw := map[string]string{NetworkLoopback: "own loopback only", NetworkNone: "none (own namespace)", NetworkHost: "shared with the host"}[p.Network]
	dev := "host's /dev"
	if p.Isolate {
		dev = "own null, zero, full, random, urandom, ptys"
	}
	switch {
	case p.V1Dev != "":
		dev += " + cgroup v1"
	case p.V2Dev:
		dev += " + cgroup v2 BPF"
	}
	sys := "no filter"
	if p.Seccomp {
		sys = "seccomp (no keyrings)"
	}
	for _, pr := range s.Protections() {
		if pr.Missing != "" && pr.Name != ProtectIsolation {
			not = append(not, pr.Name+" ("+pr.Missing+")")
		}
	}
	if !p.Isolate {
		not = append(not, "isolation ("+s.isoWhy+")")
	}
	clk := "wall time (no cgroup v2 with cpu.pressure: time a loaded machine makes a bot wait is charged to it)"
	if s.FairClock() {
		clk = "fair (cgroup v2 cpu.pressure: time a bot waits for a CPU is not charged)"
	}
	wrapper := s.self
	if s.wrapperNote != "" {
		wrapper += " (" + s.wrapperNote + ")"
	}
	line := fmt.Sprintf("sandbox: %s; kill: %s; isolation: %s; user: %s; network: %s; devices: %s; syscalls: %s; clock: %s; wrapper: %s",
		strings.Join(parts, ", "), strings.Join(kill, " + "), iso, usr, netw, dev, sys, clk, wrapper)
	if len(not) > 0 {
		line += "; not enforced: " + strings.Join(not, "; ")
	}
	moves := p.V1Mem != "" || p.V1Pids != "" || p.V1CPU != "" || p.V1Acct != "" || p.V1Dev != "" || p.V2 != "" && !s.Caps.V2AtBirth
	if s.Caps.SlowJoin != "" && moves {
		line += "; slow starts: each bot's start waits 10-20 ms for the kernel's cgroup lock (as root, `mount -o remount,favordynmods " + s.Caps.SlowJoin + "` ends the wait)"
	}
	return line
}
