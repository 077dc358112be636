//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// deniedSyscalls fail with EPERM in every bot process. First the kernel
// keyrings: they are not namespaced by anything but a key's permissions
// (any process may name a key by its serial number, and a bot sets its own
// key's permissions), so two processes of a bot could pass a deal through
// them; a bot needs none. Then what no bot needs and what widens the
// kernel's surface or reaches outside the bot (the set Docker's default
// profile refuses, by and large): mounting and namespaces, BPF, perf,
// userfaultfd, io_uring, modules, kexec, reboot, swap, clocks, quotas,
// accounting, the kernel log, handles to files by number, fanotify.
var deniedSyscalls = append([]uintptr{
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_SETNS, unix.SYS_UNSHARE,
	unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOUNT_SETATTR,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_ACCT, unix.SYS_QUOTACTL, unix.SYS_QUOTACTL_FD,
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_ADJTIMEX, unix.SYS_CLOCK_ADJTIME,
	unix.SYS_SYSLOG, unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_LOOKUP_DCOOKIE,
	unix.SYS_FANOTIFY_INIT, unix.SYS_VHANGUP,
}, archDeniedSyscalls...)

// Offsets into struct seccomp_data.
const (
	seccompNR   = 0
	seccompArch = 4
)

// seccompFilter is the classic BPF program: any other architecture's
// calls (the 32-bit ABI on a 64-bit kernel, x32) are refused whole, then
// the denied list, then everything is allowed.
func seccompFilter() []unix.SockFilter {
	deny := unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	prog := []unix.SockFilter{
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompArch),
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 1, Jf: 0, K: nativeArch},
		stmt(unix.BPF_RET|unix.BPF_K, deny),
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompNR),
	}
	n := len(deniedSyscalls)
	if x32Bit != 0 {
		// Jump to the deny at the end when nr >= the x32 bit.
		prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, Jt: uint8(n + 1), Jf: 0, K: x32Bit})
	}
	for i, nr := range deniedSyscalls {
		prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: uint8(n - i), Jf: 0, K: uint32(nr)})
	}
	return append(prog, stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW), stmt(unix.BPF_RET|unix.BPF_K, deny))
}

// installSeccomp filters the calling thread's system calls, and those of
// everything it execs and starts. It needs no_new_privs (lockPrivileges).
func installSeccomp() error {
	prog, err := seccompProgram()
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return nil
}

// seccompProgram is the filter as PR_SET_SECCOMP takes it (installSeccomp,
// and a bot's second stage, which installs it with a raw call).
func seccompProgram() (unix.SockFprog, error) {
	if nativeArch == 0 {
		return unix.SockFprog{}, errors.New("no seccomp filter for this architecture")
	}
	if len(deniedSyscalls) > 250 {
		panic("seccomp filter jumps overflow") // a build-time fact, checked by the tests
	}
	filter := seccompFilter()
	return unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}, nil
}

// seccompAvailable tells whether this kernel has seccomp filters that can
// refuse a call with an error, and if not why.
func seccompAvailable() (bool, string) {
	if nativeArch == 0 {
		return false, "no seccomp filter for this architecture"
	}
	action := uint32(unix.SECCOMP_RET_ERRNO)
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&action)))
	if e != 0 {
		return false, "the kernel refuses seccomp filters: " + e.Error()
	}
	return true, ""
}
