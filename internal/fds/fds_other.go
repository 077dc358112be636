//go:build !unix

package fds

// closeOnExec has nothing to do: without fork and exec, a child inherits
// only the handles it is given.
func closeOnExec(int) error { return nil }
