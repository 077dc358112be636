package transport

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/internal/procfs"
)

// processAttr starts a bot in a process group of its own (killed whole by
// killGroup), killed if the arena dies.
func processAttr() (*syscall.SysProcAttr, error) {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}, nil
}

// killGroup kills the bot's process group.
func (p *Process) killGroup() { _ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }

// killMarked SIGKILLs every live process whose environment holds marker.
func killMarked(marker string) {
	for _, pid := range procfs.WithEnv(marker) {
		if pid != os.Getpid() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// awaitExit returns once the process pid has exited (it is not reaped),
// waiting in the runtime poller on a pidfd, so that no OS thread is held
// per live bot (os.Process.Wait holds one in waitid). Where there are no
// pollable pidfds (Linux before 5.10) it returns at once and Wait blocks
// a thread as before.
func awaitExit(pid int) {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	raw, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = raw.Read(func(fd uintptr) bool {
		var info unix.Siginfo // zero: Linux leaves it so while the child runs
		err := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		// Done when it has exited (SIGCHLD is reported), or when waitid
		// cannot tell (Wait reports that).
		return err != nil && err != unix.EAGAIN || err == nil && info.Signo != 0
	})
}
