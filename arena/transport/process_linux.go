package transport

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
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
	want := []byte(marker)
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				syscall.Kill(pid, syscall.SIGKILL)
				break
			}
		}
	}
}
