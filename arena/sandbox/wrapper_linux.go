//go:build linux

package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/internal/fds"
)

// Arguments of the wrapper's other roles.
const (
	argProbe       = "--probe"        // Detect: can a bot's root be made here?
	argProbeStage2 = "--probe-stage2" // the probe's second stage
	argFingerprint = "--fingerprint"  // print Fingerprint (checkWrapper)
)

// statusFD is where an isolated bot's wrapper writes the bot's wait
// status (the arena's pipe).
const statusFD = 3

// exeFD is where the second stage finds the arena executable it runs from.
const exeFD = 3

// Main is the wrapper: it confines itself as the spec says and execs the
// bot command in its place, or (isolated) starts it and waits for it. It
// returns only on failure (exit status 127, the reason on stderr, which
// the arena logs as the bot's), or with the isolated bot's status.
func Main(args []string) int {
	if len(args) == 1 && args[0] == argFingerprint {
		fmt.Println(Fingerprint())
		return 0
	}
	var sp spec
	if err := json.Unmarshal([]byte(os.Getenv(envSpec)), &sp); err != nil {
		return fail("bad spec: %v", err)
	}
	os.Unsetenv(envSpec)
	if len(args) > 0 {
		switch args[0] {
		case argProbe:
			return probeMain(&sp)
		case argProbeStage2:
			return probeStage2(&sp)
		case "--":
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return fail("no command")
	}
	// Join the cgroups first, so everything after (and every process the
	// bot starts) is counted.
	pid := []byte(strconv.Itoa(os.Getpid()))
	for _, dir := range sp.Cgroups {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), pid, 0); err != nil {
			return fail("joining cgroup %s: %v", dir, err)
		}
	}
	if sp.Plan.Isolate {
		return stage1(&sp, args)
	}
	return direct(&sp, args)
}

func fail(format string, a ...any) int {
	fmt.Fprintf(os.Stderr, "arena sandbox: "+format+"\n", a...)
	return 127
}

// direct confines a bot that is not isolated and execs it in place, so it
// keeps the pid and process group the arena knows: its network, rlimits,
// directory, user, a session keyring of its own, no capabilities, the
// seccomp filter.
func direct(sp *spec, args []string) int {
	if sp.Plan.Network == NetworkLoopback {
		if err := loopbackUp(); err != nil {
			return fail("network: %v", err)
		}
	}
	if err := setRlimits(sp); err != nil {
		return fail("%v", err)
	}
	if sp.Work != "" {
		if err := os.Chdir(sp.Work); err != nil {
			return fail("working directory: %v", err)
		}
	}
	path, err := lookPath(args[0], sp.Env)
	if err != nil {
		return fail("%v", err)
	}
	// What the wrapper was started with beyond 0-2 is not the bot's (the
	// exec closes it). Marked before the uid changes, which makes
	// /proc/self/fd unreadable (the fallback where close_range lacks its
	// flag), and before the seccomp filter.
	if err := fds.CloseOnExec(3); err != nil {
		return fail("closing inherited descriptors: %v", err)
	}
	// Capabilities, securebits and no_new_privs are per thread: all on the
	// one that execs.
	runtime.LockOSThread()
	if err := newSessionKeyring(); err != nil {
		return fail("%v", err)
	}
	// The bounding set goes while the wrapper may still drop it: after a
	// change to another user it could not.
	if err := lockPrivileges(); err != nil {
		return fail("%v", err)
	}
	if sp.UID >= 0 {
		if err := syscall.Setgroups([]int{sp.GID}); err != nil {
			return fail("setgroups: %v", err)
		}
		if err := syscall.Setgid(sp.GID); err != nil {
			return fail("setgid: %v", err)
		}
		if err := syscall.Setuid(sp.UID); err != nil {
			return fail("setuid: %v", err)
		}
		// A change of credentials clears the parent-death signal: set it
		// again, and make sure the arena did not die meanwhile.
		if err := parentDeathSignal(sp.PPid); err != nil {
			return fail("%v", err)
		}
	}
	if err := clearCapabilities(); err != nil {
		return fail("%v", err)
	}
	if sp.Plan.Seccomp {
		if err := installSeccomp(); err != nil {
			return fail("%v", err)
		}
	}
	err = syscall.Exec(path, args, sp.Env)
	return fail("exec %s: %v", args[0], err)
}

// stage1 is an isolated bot's wrapper, the init process of its
// namespaces: it builds the bot's root (buildRoot), brings up its
// loopback, sets the rlimits and starts the second stage in a user and
// cgroup namespace of their own, as the bot's uid; then it reaps every
// orphan until the bot ends, and reports the bot's wait status to the
// arena before it exits the same way.
func stage1(sp *spec, args []string) int {
	syscall.CloseOnExec(statusFD)
	status := os.NewFile(statusFD, "status")
	if err := enterRoot(sp); err != nil {
		return fail("%v", err)
	}
	if err := setRlimits(sp); err != nil {
		return fail("%v", err)
	}
	// Signals the arena sends the bot's process group are the bot's to
	// answer: the wrapper outlives it only by its exit, never by itself.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
		syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM)
	// Opened before the bot starts: an open of the bot's /dev/null once it
	// runs would be an event on a watch the bot holds on it, which it
	// could not tell from another process's.
	null, err := os.OpenFile("/dev/null", os.O_RDWR, 0)
	if err != nil {
		return fail("%v", err)
	}
	pid, err := startBot(sp, args)
	if err != nil {
		return fail("%v", err)
	}
	// The bot's stdin, stdout and stderr are its own: a bot that closes
	// stdout must be seen to (EOF), not kept open by the wrapper.
	if err := detachStdio(null); err != nil {
		return fail("%v", err)
	}
	ws, err := reap(pid)
	if err != nil {
		return fail("waiting for the bot: %v", err)
	}
	var buf [4]byte
	binary.LittleEndian.PutUint32(buf[:], uint32(ws))
	status.Write(buf[:])
	status.Close()
	if ws.Signaled() {
		// pid 1 of a PID namespace cannot die of a signal it sends
		// itself: the arena reads the signal from the status.
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// enterRoot builds the bot's root, makes it the wrapper's and brings up
// the bot's loopback.
func enterRoot(sp *spec) error {
	if err := buildRoot(sp); err != nil {
		return fmt.Errorf("isolation: %w", err)
	}
	if sp.Plan.Network == NetworkLoopback {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("network: %w", err)
		}
	}
	return nil
}

// stage2Command is Detect's probe's second stage: the arena executable
// (from exe, opened before the host's files went out of reach) in a user
// namespace of its own, mapping only the bot's uid and gid, and a cgroup
// namespace rooted at the bot's cgroups, which checks there that it can
// take the bot's uid and drop everything (probeStage2, enterBot). A bot's
// own second stage is a fork that runs system calls only (startBot).
func stage2Command(sp *spec, exe *os.File, args []string) (*exec.Cmd, error) {
	uid, gid, err := secondStageThread(sp)
	if err != nil {
		return nil, err
	}
	sp2 := *sp
	sp2.UID, sp2.GID = uid, gid
	sp2.Root, sp2.Cgroups = nil, nil
	data, err := json.Marshal(sp2)
	if err != nil {
		return nil, err
	}
	return &exec.Cmd{
		Path:       fmt.Sprintf("/proc/self/fd/%d", exeFD),
		Args:       append([]string{"arena", Command}, args...),
		Env:        []string{envSpec + "=" + string(data)},
		Dir:        "/",
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		ExtraFiles: []*os.File{exe},
		SysProcAttr: &syscall.SysProcAttr{
			Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWCGROUP,
			UidMappings:                []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
			GidMappings:                []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
			GidMappingsEnableSetgroups: false,
			// The child takes the bot's uid before the exec, which then
			// keeps only the capability the second stage needs to give
			// up the rest for good (the bounding set of a new user
			// namespace is full).
			Credential:  &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true},
			AmbientCaps: []uintptr{unix.CAP_SETPCAP},
			Pdeathsig:   syscall.SIGKILL,
		},
	}, nil
}

// secondStageThread locks the calling goroutine to its thread and makes
// that thread's credentials the ones a second stage forked from it
// inherits: no supplementary group of the arena's (as root; in the bot's
// user namespace setgroups is not allowed), and no_new_privs. It returns
// the bot's uid and gid: the spec's, or the wrapper's own when it has none.
func secondStageThread(sp *spec) (uid, gid int, err error) {
	runtime.LockOSThread()
	uid, gid = sp.UID, sp.GID
	if uid < 0 {
		uid, gid = os.Getuid(), os.Getgid()
	}
	if !sp.Plan.UserNS {
		// On this thread alone: syscall.Setgroups would stop every thread
		// of the wrapper to set them all.
		if _, _, e := syscall.RawSyscall(syscall.SYS_SETGROUPS, 0, 0, 0); e != 0 {
			return 0, 0, fmt.Errorf("setgroups: %w", e)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, 0, fmt.Errorf("no_new_privs: %w", err)
	}
	return uid, gid, nil
}

// detachStdio points the wrapper's stdin, stdout and stderr at null, an
// open /dev/null, and closes it.
func detachStdio(null *os.File) error {
	defer null.Close()
	for fd := 0; fd <= 2; fd++ {
		if err := unix.Dup3(int(null.Fd()), fd, 0); err != nil {
			return fmt.Errorf("detaching fd %d: %w", fd, err)
		}
	}
	return nil
}

// reap waits for pid, reaping every other process that ends meanwhile (the
// wrapper is the init process of the bot's PID namespace: orphans are
// its children).
func reap(pid int) (syscall.WaitStatus, error) {
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if got == pid {
			return ws, nil
		}
	}
}

// enterBot is what the probe's second stage does, what startBot's child
// does for a bot with raw system calls: on the thread that would exec.
func enterBot(sp *spec) error {
	runtime.LockOSThread()
	syscall.CloseOnExec(exeFD)
	if os.Getuid() != sp.UID || os.Getgid() != sp.GID {
		return fmt.Errorf("running as %d:%d, not the bot's %d:%d", os.Getuid(), os.Getgid(), sp.UID, sp.GID)
	}
	if err := newSessionKeyring(); err != nil {
		return err
	}
	if err := lockPrivileges(); err != nil {
		return err
	}
	if err := clearCapabilities(); err != nil {
		return err
	}
	if sp.Plan.Seccomp {
		if err := installSeccomp(); err != nil {
			return err
		}
	}
	return nil
}

// parentDeathSignal sets the parent-death signal again after a change of
// credentials cleared it, and checks the parent did not die meanwhile (in
// a PID namespace of its own the parent is out of sight: ppid 0).
func parentDeathSignal(ppid int) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0); e != 0 {
		return fmt.Errorf("prctl: %v", e)
	}
	if now := os.Getppid(); ppid != 0 && now != 0 && now != ppid {
		return errors.New("the arena is gone")
	}
	return nil
}

// newSessionKeyring leaves the arena's session keyring for a new,
// anonymous one (the bot then cannot reach keys at all: seccomp).
func newSessionKeyring() error {
	_, _, e := syscall.RawSyscall(unix.SYS_KEYCTL, unix.KEYCTL_JOIN_SESSION_KEYRING, 0, 0)
	if e != 0 && e != syscall.ENOSYS {
		return fmt.Errorf("session keyring: %v", e)
	}
	return nil
}

// loopbackUp brings up the loopback interface of the bot's own network
// namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("lo: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("lo up: %w", err)
	}
	return nil
}

// setRlimits applies the limits that rlimits enforce.
func setRlimits(sp *spec) error {
	l, p := sp.Limits, sp.Plan
	set := func(name string, res int, v uint64) error {
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: v, Max: v}); err != nil {
			return fmt.Errorf("rlimit %s: %v", name, err)
		}
		return nil
	}
	const rlimitNPROC = 6 // the same on every Linux architecture Go supports but mips/sparc
	errs := []error{set("core", syscall.RLIMIT_CORE, 0)}
	if l.Memory > 0 && p.RlMem {
		errs = append(errs, set("data", syscall.RLIMIT_DATA, uint64(l.Memory)))
	}
	if l.Procs > 0 && p.RlProcs && !sp.BotRoot {
		errs = append(errs, set("nproc", rlimitNPROC, uint64(l.Procs)))
	}
	if l.Files > 0 {
		errs = append(errs, set("nofile", syscall.RLIMIT_NOFILE, uint64(l.Files)))
	}
	if l.FileSize > 0 {
		errs = append(errs, set("fsize", syscall.RLIMIT_FSIZE, uint64(l.FileSize)))
	}
	return errors.Join(errs...)
}

// probeMain is Detect's probe: in the namespaces of an isolated bot it
// finds out which of overlays and device nodes of its own work, builds a
// root with what does, and runs a second stage through it; it prints what
// it found (features) as JSON.
func probeMain(sp *spec) int {
	if !sp.Plan.Isolate {
		return 0 // the namespaces alone were the question
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fail("making mounts private: %v", err)
	}
	var f features
	f.Overlay, f.OverlayErr = tryOverlay(sp.Tmp)
	if !sp.Plan.UserNS {
		f.Mknod = tryMknod(sp.Tmp) == nil
	}
	sp.Plan.Overlay, sp.Plan.Mknod = f.Overlay, f.Mknod
	// The second stage runs from the arena executable, opened before the
	// host's files go out of reach.
	exe, err := os.Open("/proc/self/exe")
	if err != nil {
		return fail("opening the arena executable: %v", err)
	}
	defer exe.Close()
	if err := enterRoot(sp); err != nil {
		return fail("%v", err)
	}
	if !sp.Plan.UserNS {
		sp.UID, sp.GID = 65534, 65534
	}
	sp.Work = sp.Inner
	cmd, err := stage2Command(sp, exe, []string{argProbeStage2})
	if err != nil {
		return fail("%v", err)
	}
	cmd.Stdout = nil
	if out, err := cmd.Output(); err != nil {
		return fail("second stage: %v %s", err, out)
	}
	data, _ := json.Marshal(f)
	os.Stdout.Write(data)
	return 0
}

// probeStage2 checks the second stage can take the bot's uid and drop
// everything.
func probeStage2(sp *spec) int {
	sp.Plan.Seccomp = false // probed on its own
	if err := enterBot(sp); err != nil {
		return fail("%v", err)
	}
	return 0
}

// tryOverlay mounts a read-only overlay of /usr in scratch space.
func tryOverlay(tmp string) (bool, string) {
	dir := filepath.Join(tmp, "overlay-probe")
	empty, mnt := filepath.Join(dir, "empty"), filepath.Join(dir, "mnt")
	for _, d := range []string{empty, mnt} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return false, err.Error()
		}
	}
	defer os.RemoveAll(dir)
	if err := unix.Mount("overlay", mnt, "overlay", roFlags, "lowerdir=/usr:"+empty); err != nil {
		return false, "overlay: " + err.Error()
	}
	unix.Unmount(mnt, unix.MNT_DETACH)
	return true, ""
}

// tryMknod makes a null device in a tmpfs of scratch space.
func tryMknod(tmp string) error {
	dir := filepath.Join(tmp, "mknod-probe")
	if err := mkdirMount(dir, "tmpfs", "tmpfs", unix.MS_NOSUID, "size=4k"); err != nil {
		return err
	}
	defer func() {
		unix.Unmount(dir, unix.MNT_DETACH)
		os.Remove(dir)
	}()
	return unix.Mknod(filepath.Join(dir, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3)))
}

// lookPath finds a command in the bot's PATH.
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("command %q not found in the bot's PATH", name)
}
