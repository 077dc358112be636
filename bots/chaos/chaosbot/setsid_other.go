//go:build !unix

package main

import (
	"errors"
	"os/exec"
	"runtime"
)

// leaveGroup refuses: there is no setsid here.
func leaveGroup(*exec.Cmd) error {
	return errors.New("fork-escape needs setsid, which " + runtime.GOOS + " does not have")
}
