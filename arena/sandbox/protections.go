package sandbox

import (
	"strings"
)

// A Protection is one guarantee the sandbox gives against a bot that wants
// to learn what its seat may not know, and whether this machine provides
// it. docs/security.md describes each.
type Protection struct {
	// Name is one of the Protect* names.
	Name string
	// Missing says why it is not provided here; "" when it is.
	Missing string
}

// The protections, by name.
const (
	// ProtectIsolation: a root of its own (the system's runtime
	// directories and its own program, read-only; no output directory, no
	// tournament file, no other bot's program), a private /tmp and /dev
	// (nodev everywhere else), its own /proc, and its own mount, PID, IPC,
	// UTS and cgroup namespaces.
	ProtectIsolation = "isolation"
	// ProtectUserNS: a user namespace of its own per process (its own
	// keyrings and per-user counts).
	ProtectUserNS = "user namespace"
	// ProtectUID: a uid of its own per process, never shared with a
	// process that runs at the same time.
	ProtectUID = "own uid"
	// ProtectNetwork: a network namespace of its own per process (at most
	// its own loopback), so no socket reaches another process.
	ProtectNetwork = "network"
	// ProtectFiles: no kernel object on a shared file carries bits
	// between processes: the shared directories are private overlays (own
	// inodes, so own locks and inotify watches), the device nodes its
	// own, and no path is shared writable.
	ProtectFiles = "private files"
	// ProtectDevices: a device cgroup allowing only the devices of its
	// /dev.
	ProtectDevices = "device cgroup"
	// ProtectSyscalls: a seccomp filter refusing the kernel keyrings
	// (which are not namespaced: a key's serial number reaches it from any
	// process) and calls no bot needs.
	ProtectSyscalls = "syscall filter"
)

// ContestError is New's refusal, with Options.Contest, to start without
// every protection.
type ContestError struct {
	Missing []Protection
}

func (e *ContestError) Error() string {
	var parts []string
	for _, p := range e.Missing {
		parts = append(parts, p.Name+" ("+p.Missing+")")
	}
	return "contest: refusing to start, this machine or these settings do not provide: " + strings.Join(parts, "; ")
}
