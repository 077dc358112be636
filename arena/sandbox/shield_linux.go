package sandbox

import "golang.org/x/sys/unix"

// ShieldArena makes the calling process (the arena) not dumpable, so that
// a bot that runs as the arena's own user (not isolated, as an ordinary
// user) cannot reach into it: its /proc/PID/fd, /proc/PID/mem and
// environ are the kernel's to guard as root's, and ptrace and
// pidfd_getfd need CAP_SYS_PTRACE, which no bot holds. Without this the
// close-on-exec marks would keep nothing from such a bot: it could open
// the arena's ledger, its replay pack or a descriptor the arena was
// started with through /proc/PID/fd/N. The arena reads its own /proc
// entries as before; it leaves no core dump.
func ShieldArena() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
