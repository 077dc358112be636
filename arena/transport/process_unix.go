//go:build unix && !linux

package transport

import "syscall"

// processAttr starts a bot in a process group of its own (killed whole by
// killGroup). There is no parent-death signal here: a bot outlives an
// arena that is killed (kill -9) instead of ending its bots.
func processAttr() (*syscall.SysProcAttr, error) {
	return &syscall.SysProcAttr{Setpgid: true}, nil
}

// killGroup kills the bot's process group.
func (p *Process) killGroup() { _ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }

// killMarked would kill the processes that carry marker, but there is no
// /proc here to find them by: a process that left the bot's process group
// outlives the bot.
func killMarked(marker string) {}

// awaitExit returns at once: Wait waits for the process.
func awaitExit(pid int) {}
