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
