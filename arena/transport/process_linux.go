package transport

import (
	"os"
	"syscall"

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
