//go:build !unix

package transport

import (
	"errors"
	"runtime"
	"syscall"
)

// errNoProcesses is Start's refusal: the transport reads a bot's replies
// with deadlines and kills a bot with everything it started, and here the
// os package gives pipes no deadlines and processes no groups.
var errNoProcesses = errors.New("bots cannot run on " + runtime.GOOS +
	": the arena needs pipes with read deadlines and process groups, which it has only on Unix (Linux, macOS)")

// processAttr refuses: see errNoProcesses.
func processAttr() (*syscall.SysProcAttr, error) { return nil, errNoProcesses }

// killGroup kills the bot's process (never reached: Start refuses).
func (p *Process) killGroup() { _ = p.cmd.Process.Kill() }

// killMarked has no /proc to find the bot's descendants by.
func killMarked(marker string) {}

// awaitExit returns at once (never reached: Start refuses).
func awaitExit(pid int) {}
