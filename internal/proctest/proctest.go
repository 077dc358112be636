//go:build linux

// Package proctest finds the processes a test started, for tests that must
// prove no bot process survives: each test marks its bots with an
// environment variable and asks which live processes still carry it. It
// reads /proc and holds processes by pidfd, so it exists on Linux only.
package proctest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/arena-dev/arena/internal/procfs"
	"golang.org/x/sys/unix"
)

// WithEnv lists the live processes whose environment holds the exact entry
// kv ("NAME=value"). Zombies have an empty environ and are not listed.
func WithEnv(kv string) []int { return procfs.WithEnv(kv) }

// Process is a live process a test found, held by a pidfd: its pid cannot
// name another process while the Process is open, so signalling it never
// reaches an unrelated process that took a dead one's number.
type Process struct {
	Pid int
	fd  int
}

// Hold opens a pidfd on pid and checks, through it, that pid is still the
// process the test means: one whose command line is cmdline (its
// NUL-separated arguments), or, with cmdline "", whose environment holds
// the entry env. It returns nil when pid is gone or is another process.
func Hold(pid int, cmdline, env string) *Process {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return nil
	}
	// Opened first, checked second: once the pidfd is open the number
	// stays this process's, so a match now is a match for good.
	ok := false
	if cmdline != "" {
		data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		ok = err == nil && string(data) == cmdline
	} else {
		data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
		ok = err == nil && slices.ContainsFunc(bytes.Split(data, []byte{0}), func(e []byte) bool { return string(e) == env })
	}
	if !ok {
		unix.Close(fd)
		return nil
	}
	return &Process{Pid: pid, fd: fd}
}

// Alive tells whether the process has not exited (a zombie has).
func (p *Process) Alive() bool {
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n == 0
}

// Kill sends it SIGKILL, if it is still there, and lets the pidfd go.
func (p *Process) Kill() {
	if p == nil {
		return
	}
	unix.PidfdSendSignal(p.fd, unix.SIGKILL, nil, 0)
	unix.Close(p.fd)
}

// Descriptors lists this process's open descriptors (/proc/self/fd, but
// for the one that reads it), each as "N=what it refers to", in order, in
// two lists: those it inherited, and those it opened itself. Every
// descriptor Go opens is close-on-exec (the runtime's poller, the cgroup
// files it reads the CPU limit from), and an exec closes every such
// descriptor, so one without the flag came through the exec that started
// the program: called first thing, it tells a bot what it was handed.
func Descriptors() (inherited, own []string, err error) {
	dir, err := os.Open("/proc/self/fd")
	if err != nil {
		return nil, nil, err
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil, nil, err
	}
	var fds []int
	for _, name := range names {
		if fd, err := strconv.Atoi(name); err == nil && uintptr(fd) != dir.Fd() {
			fds = append(fds, fd)
		}
	}
	slices.Sort(fds)
	for _, fd := range fds {
		target, _ := os.Readlink(filepath.Join("/proc/self/fd", strconv.Itoa(fd)))
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil {
			return nil, nil, err
		}
		d := strconv.Itoa(fd) + "=" + target
		if flags&unix.FD_CLOEXEC != 0 {
			own = append(own, d)
		} else {
			inherited = append(inherited, d)
		}
	}
	return inherited, own, nil
}
