//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// leaveGroup makes cmd start in a session (and process group) of its own.
func leaveGroup(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return nil
}
