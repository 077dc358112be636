//go:build linux

package sandbox

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/internal/fds"
)

// The isolated bot's second stage is a fork of the first that runs system
// calls only, then execs the bot: no Go runtime starts between the
// wrapper and the bot. It was the arena executable re-executed in the
// bot's user namespace (stage2Command, which Detect's probe still runs),
// a whole runtime's start and exit per bot process: about an eighth of
// the CPU an isolated `--restart-bots` match spent (docs/performance.md,
// a restarted bot's process).
//
// A Go program cannot run Go code in a child it forks, except what the
// syscall package's own child runs (os/exec's SysProcAttr), which stops
// short of the keyring, the securebits, the bounding set and seccomp. So
// the child here is written as syscall's is: one nosplit function that
// touches no heap and calls nothing but raw system calls, between the
// runtime's fork hooks (linked by name from package syscall, as gVisor
// does for the same need: their signatures are kept for it, go.dev/issue/67401).

//go:linkname runtimeBeforeFork syscall.runtime_BeforeFork
func runtimeBeforeFork()

//go:linkname runtimeAfterFork syscall.runtime_AfterFork
func runtimeAfterFork()

//go:linkname runtimeAfterForkInChild syscall.runtime_AfterForkInChild
func runtimeAfterForkInChild()

// botChild is everything the second stage's child needs, made before the
// fork: it allocates nothing after.
type botChild struct {
	path, dir  *byte
	argv, envv []*byte
	uid, gid   uintptr
	seccomp    bool
	prog       unix.SockFprog
	capHdr     unix.CapUserHeader
	capNone    [2]unix.CapUserData
	goAhead    int // read end: the parent has written the id maps
	report     int // write end: the step and errno of a failure
}

// The child's steps, in order: a failure's report names its step.
const (
	stepGoAhead = iota
	stepSetgid
	stepSetuid
	stepSecurebits
	stepBounding
	stepAmbient
	stepCapset
	stepPdeathsig
	stepSeccomp
	stepChdir
	stepExec
)

// childSteps name the steps for the wrapper's message (exec's names the
// command too).
var childSteps = [...]string{stepGoAhead: "waiting for the id maps", stepSetgid: "setresgid", stepSetuid: "setresuid",
	stepSecurebits: "securebits", stepBounding: "dropping the bounding set", stepAmbient: "ambient capabilities",
	stepCapset: "capset", stepPdeathsig: "parent-death signal", stepSeccomp: "seccomp",
	stepChdir: "working directory", stepExec: "exec"}

// startBot starts the bot, args, as stage 1's child in a user namespace of
// its own that maps only the bot's uid and gid, and a cgroup namespace
// rooted at the bot's cgroups; the child takes the bot's uid, joins the
// session keyring stage 1 made, gives up every capability and the means
// to regain one, installs the seccomp filter and execs the bot from its
// working directory. It returns the child's pid once the exec succeeded.
func startBot(sp *spec, args []string) (int, error) {
	// The child inherits this thread's credentials, the session keyring
	// among them.
	uid, gid, err := secondStageThread(sp)
	if err != nil {
		return 0, err
	}
	if err := newSessionKeyring(); err != nil {
		return 0, err
	}
	if err := os.Chdir(sp.Work); err != nil {
		return 0, fmt.Errorf("working directory: %w", err)
	}
	path, err := lookPath(args[0], sp.Env)
	if err != nil {
		return 0, err
	}
	c := &botChild{uid: uintptr(uid), gid: uintptr(gid), seccomp: sp.Plan.Seccomp,
		capHdr: unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}}
	if c.path, err = syscall.BytePtrFromString(path); err != nil {
		return 0, fmt.Errorf("exec %s: %w", args[0], err)
	}
	if c.dir, err = syscall.BytePtrFromString(sp.Work); err != nil {
		return 0, fmt.Errorf("working directory: %w", err)
	}
	if c.argv, err = syscall.SlicePtrFromStrings(args); err != nil {
		return 0, fmt.Errorf("exec %s: %w", args[0], err)
	}
	if c.envv, err = syscall.SlicePtrFromStrings(sp.Env); err != nil {
		return 0, fmt.Errorf("exec %s: environment: %w", args[0], err)
	}
	if c.seccomp {
		if c.prog, err = seccompProgram(); err != nil {
			return 0, err
		}
	}
	var goAhead, report [2]int
	if err := syscall.Pipe2(goAhead[:], syscall.O_CLOEXEC); err != nil {
		return 0, err
	}
	if err := syscall.Pipe2(report[:], syscall.O_CLOEXEC); err != nil {
		syscall.Close(goAhead[0])
		syscall.Close(goAhead[1])
		return 0, err
	}
	defer syscall.Close(report[0])
	c.goAhead, c.report = goAhead[0], report[1]
	// The child inherits every descriptor of this process, and its exec
	// keeps those not marked close-on-exec: what the wrapper inherited
	// from the arena (its status pipe) and from the arena's own parent (a
	// shell's 7<>notes.txt). Marked under the lock, no descriptor is made
	// without the mark before the fork.
	syscall.ForkLock.Lock()
	var pid int
	var errno syscall.Errno
	err = fds.CloseOnExec(3)
	if err == nil {
		pid, errno = forkBot(c)
	}
	syscall.ForkLock.Unlock()
	syscall.Close(goAhead[0])
	syscall.Close(report[1])
	if err != nil || errno != 0 {
		syscall.Close(goAhead[1])
		if err != nil {
			return 0, fmt.Errorf("closing inherited descriptors: %w", err)
		}
		return 0, fmt.Errorf("clone: %w", errno)
	}
	err = writeIDMaps(pid, uid, gid)
	if err == nil {
		if _, werr := syscall.Write(goAhead[1], []byte{1}); werr != nil {
			err = fmt.Errorf("starting the bot: %w", werr)
		}
	}
	// The child goes on after its go-ahead, or exits at the end of the
	// pipe without one.
	syscall.Close(goAhead[1])
	if err != nil {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
		return 0, err
	}
	// The report pipe closes on the exec (success) or carries a failure.
	var buf [5]byte
	n, _ := syscall.Read(report[0], buf[:])
	if n == len(buf) {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
		step, e := int(buf[0]), syscall.Errno(binary.LittleEndian.Uint32(buf[1:]))
		name := "starting the bot"
		if step < len(childSteps) {
			name = childSteps[step]
		}
		if step == stepExec {
			name = "exec " + args[0]
		}
		return 0, fmt.Errorf("%s: %w", name, e)
	}
	return pid, nil
}

// writeIDMaps maps the bot's uid and gid, each to itself and nothing
// else, in the user namespace of process pid (setgroups denied first, as
// the kernel requires of an unprivileged gid map).
func writeIDMaps(pid, uid, gid int) error {
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	for _, m := range [][2]string{
		{"uid_map", strconv.Itoa(uid) + " " + strconv.Itoa(uid) + " 1\n"},
		{"setgroups", "deny"},
		{"gid_map", strconv.Itoa(gid) + " " + strconv.Itoa(gid) + " 1\n"},
	} {
		if err := os.WriteFile(dir+m[0], []byte(m[1]), 0); err != nil {
			return fmt.Errorf("the bot's user namespace: %w", err)
		}
	}
	return nil
}

// forkBot forks the child, in its new user and cgroup namespaces, and
// runs botChildMain in it: the parent gets the child's pid.
//
//go:norace
func forkBot(c *botChild) (int, syscall.Errno) {
	runtimeBeforeFork()
	pid, _, e := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.CLONE_NEWUSER|syscall.CLONE_NEWCGROUP|syscall.SIGCHLD), 0, 0, 0, 0, 0)
	if e != 0 || pid != 0 {
		runtimeAfterFork()
		return int(pid), e
	}
	botChildMain(c)
	return 0, 0 // not reached: botChildMain execs or exits
}

// botChildMain is the child: system calls only (see the top of the file).
// It has every capability of its new user namespace until capset, and
// none outside it. The credentials change first, since a change of them
// clears the parent-death signal; then securebits and the bounding set,
// which need CAP_SETPCAP, then the capabilities themselves.
//
//go:nosplit
//go:norace
func botChildMain(c *botChild) {
	var (
		e    syscall.Errno
		step byte
		capN uintptr
		b    [5]byte
		n    uintptr
	)
	runtimeAfterForkInChild()
	step = stepGoAhead
	if n, _, e = syscall.RawSyscall(syscall.SYS_READ, uintptr(c.goAhead), uintptr(unsafe.Pointer(&b[0])), 1); e != 0 || n != 1 {
		goto fail // the parent failed to map the ids, or is gone
	}
	step = stepSetgid
	if _, _, e = syscall.RawSyscall(syscall.SYS_SETRESGID, c.gid, c.gid, c.gid); e != 0 {
		goto fail
	}
	step = stepSetuid
	if _, _, e = syscall.RawSyscall(syscall.SYS_SETRESUID, c.uid, c.uid, c.uid); e != 0 {
		goto fail
	}
	step = stepSecurebits
	if _, _, e = syscall.RawSyscall(syscall.SYS_PRCTL, unix.PR_SET_SECUREBITS, lockedSecurebits, 0); e != 0 {
		goto fail
	}
	step = stepBounding
	for capN = 0; capN < maxCapabilities; capN++ {
		if _, _, e = syscall.RawSyscall(syscall.SYS_PRCTL, unix.PR_CAPBSET_DROP, capN, 0); e == syscall.EINVAL {
			break // past the last capability this kernel knows
		} else if e != 0 {
			goto fail
		}
	}
	step = stepAmbient
	if _, _, e = syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); e != 0 {
		goto fail
	}
	step = stepCapset
	if _, _, e = syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&c.capHdr)), uintptr(unsafe.Pointer(&c.capNone[0])), 0); e != 0 {
		goto fail
	}
	step = stepPdeathsig
	if _, _, e = syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0); e != 0 {
		goto fail
	}
	if c.seccomp {
		step = stepSeccomp
		if _, _, e = syscall.RawSyscall(syscall.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&c.prog))); e != 0 {
			goto fail
		}
	}
	step = stepChdir
	if _, _, e = syscall.RawSyscall(syscall.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); e != 0 {
		goto fail
	}
	step = stepExec
	_, _, e = syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(c.path)),
		uintptr(unsafe.Pointer(&c.argv[0])), uintptr(unsafe.Pointer(&c.envv[0])))
fail:
	if e == 0 {
		e = syscall.EPIPE // the go-ahead pipe closed without a byte
	}
	b[0], b[1], b[2], b[3], b[4] = step, byte(e), byte(e>>8), byte(e>>16), byte(e>>24) // little-endian, as startBot reads it
	syscall.RawSyscall(syscall.SYS_WRITE, uintptr(c.report), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	for {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 127, 0, 0)
	}
}
