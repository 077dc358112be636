// Package fds keeps a process's open descriptors from the programs it
// starts. Go makes every descriptor it opens close-on-exec, and os/exec
// hands a child only stdin, stdout, stderr and ExtraFiles; but the kernel
// hands a child every descriptor not marked close-on-exec, and those are
// the ones a process inherited when it was started (a shell's
// `7<>notes.txt`, a CI runner's log pipe, an agent's socket). CloseOnExec
// marks them, so that whatever the process, or a child it forks, execs
// next inherits none.
package fds

import "embed"

// Sources are the package's code, without its tests, for the sandbox
// wrapper's fingerprint: the wrapper runs it before it execs a bot.
//
//go:embed fds.go fds_bsd.go fds_linux.go fds_other.go fds_unix.go
var Sources embed.FS

// CloseOnExec marks every open descriptor from from up close-on-exec.
// Descriptors this process keeps using stay open in it; an exec closes
// them. It takes no lock and opens nothing without close-on-exec, so it
// may run under syscall.ForkLock, just before a fork.
func CloseOnExec(from int) error { return closeOnExec(from) }
