// Package procfs reads what the arena needs of Linux's /proc: the live
// processes, a process's stat line (state, parent, process group, CPU
// time), its environment and its children. It is the one place that
// parses those files. It builds everywhere; where there is no /proc (not
// Linux) Pids fails and the readers return errors, so callers fall back.
package procfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Root is where the proc file system is mounted.
const Root = "/proc"

// ErrBadStat is a stat file that does not parse.
var ErrBadStat = errors.New("procfs: malformed stat")

// Pids lists the processes /proc shows now (zombies included).
func Pids() ([]int, error) {
	ents, err := os.ReadDir(Root)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out, nil
}

// Stat is what the arena reads of /proc/PID/stat.
type Stat struct {
	Pid   int
	Comm  string // the command name, as the kernel keeps it
	State byte   // R, S, D, Z (zombie), X (dead), ...
	PPid  int
	Pgrp  int
	// UTime and STime are the user and system CPU time.
	UTime, STime time.Duration
}

// Gone reports a process that has exited and only waits to be reaped
// (a zombie) or is being removed.
func (s Stat) Gone() bool { return s.State == 'Z' || s.State == 'X' }

// clkTck is USER_HZ, the unit of the CPU times in stat: 100 on every
// Linux the arena runs on.
const clkTck = 100

// ReadStat reads /proc/PID/stat.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile(filepath.Join(Root, strconv.Itoa(pid), "stat"))
	if err != nil {
		return Stat{}, err
	}
	return parseStat(pid, b)
}

// parseStat reads "pid (comm) state ppid pgrp ... utime stime ...": comm
// may hold spaces and ')', so it ends at the last ')'.
func parseStat(pid int, b []byte) (Stat, error) {
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return Stat{}, fmt.Errorf("%w: %d", ErrBadStat, pid)
	}
	f := bytes.Fields(b[close+1:])
	// After comm: state is field 3 of the line (f[0]), ppid 4, pgrp 5,
	// utime 14 (f[11]) and stime 15 (f[12]).
	if len(f) < 13 || len(f[0]) != 1 {
		return Stat{}, fmt.Errorf("%w: %d", ErrBadStat, pid)
	}
	s := Stat{Pid: pid, Comm: string(b[open+1 : close]), State: f[0][0]}
	s.PPid, _ = strconv.Atoi(string(f[1]))
	s.Pgrp, _ = strconv.Atoi(string(f[2]))
	ut, _ := strconv.ParseInt(string(f[11]), 10, 64)
	st, _ := strconv.ParseInt(string(f[12]), 10, 64)
	s.UTime, s.STime = time.Duration(ut)*time.Second/clkTck, time.Duration(st)*time.Second/clkTck
	return s, nil
}

// HasEnv reports whether process pid's environment holds the exact entry
// kv ("NAME=value"). A zombie's environment is empty.
func HasEnv(pid int, kv string) bool {
	env, err := os.ReadFile(filepath.Join(Root, strconv.Itoa(pid), "environ"))
	if err != nil {
		return false
	}
	want := []byte(kv)
	for _, x := range bytes.Split(env, []byte{0}) {
		if bytes.Equal(x, want) {
			return true
		}
	}
	return false
}

// WithEnv lists the live processes whose environment holds kv (HasEnv).
func WithEnv(kv string) []int {
	pids, _ := Pids()
	var out []int
	for _, pid := range pids {
		if HasEnv(pid, kv) {
			out = append(out, pid)
		}
	}
	return out
}

// Children lists the children of pid's main thread.
func Children(pid int) []int {
	data, _ := os.ReadFile(filepath.Join(Root, strconv.Itoa(pid), "task", strconv.Itoa(pid), "children"))
	var out []int
	for _, w := range bytes.Fields(data) {
		if child, err := strconv.Atoi(string(w)); err == nil {
			out = append(out, child)
		}
	}
	return out
}
