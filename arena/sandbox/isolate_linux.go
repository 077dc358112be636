//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// attr sets the namespaces a wrapper starts in: for an isolated bot new
// mount, PID, IPC and UTS namespaces (and a user namespace when the arena
// is not root); a network namespace unless the bot has the host's.
func (p plan) attr(a *syscall.SysProcAttr) {
	if p.Network != NetworkHost && p.Network != "" {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	if !p.Isolate {
		return
	}
	a.Cloneflags |= syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	if p.UserNS {
		// The arena's own uid and gid, the same inside: files the bot
		// writes (and the ones it reads) keep their owner.
		uid, gid := os.Getuid(), os.Getgid()
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
}

// lockedSecurebits are the securebits a bot's process runs with: NOROOT,
// NO_SETUID_FIXUP, KEEP_CAPS off and NO_CAP_AMBIENT_RAISE, each with its
// lock bit, so none can be changed back.
const lockedSecurebits = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 | 1<<6 | 1<<7

// maxCapabilities bounds the capability numbers tried when the bounding
// set is emptied: the drop fails with EINVAL past the last one the kernel
// knows, well below it.
const maxCapabilities = 64

// lockPrivileges takes from this thread (and what it execs) every way
// back to privileges, while it still may: the capability bounding set is
// emptied, securebits locked (exec gives root no capabilities, a change of
// uid none back), ambient capabilities cleared and no_new_privs set (no
// set-uid program or file capability works). It needs CAP_SETPCAP in the
// thread's user namespace, when it has capabilities at all. The thread
// keeps its other capabilities until clearCapabilities.
func lockPrivileges() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	if data[0].Effective&(1<<unix.CAP_SETPCAP) == 0 {
		return nil // nothing to drop, nothing to drop with
	}
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, lockedSecurebits, 0, 0, 0); err != nil {
		return fmt.Errorf("securebits: %w", err)
	}
	for c := 0; c < maxCapabilities; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); errors.Is(err, unix.EINVAL) {
			break // past the last capability this kernel knows
		} else if err != nil {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("ambient capabilities: %w", err)
	}
	return nil
}

// clearCapabilities leaves this thread none: a root bot could otherwise
// undo its confinement (remount, unmount a cover, leave its cgroups). It
// must run on the thread that execs, after lockPrivileges.
func clearCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	data := [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}
