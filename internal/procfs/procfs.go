// Package procfs reads what the arena needs of Linux's /proc: the live
// processes, a process's stat line (state, parent, process group, CPU
// time), its environment and its children, the machine's steal time
// (/proc/stat) and the mounts (mountinfo). It is the one place that
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
	// Start is when the process started, since the machine booted
	// (BootTime).
	Start time.Duration
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
	// utime 14 (f[11]), stime 15 (f[12]) and starttime 22 (f[19]).
	if len(f) < 20 || len(f[0]) != 1 {
		return Stat{}, fmt.Errorf("%w: %d", ErrBadStat, pid)
	}
	s := Stat{Pid: pid, Comm: string(b[open+1 : close]), State: f[0][0]}
	s.PPid, _ = strconv.Atoi(string(f[1]))
	s.Pgrp, _ = strconv.Atoi(string(f[2]))
	ut, _ := strconv.ParseInt(string(f[11]), 10, 64)
	st, _ := strconv.ParseInt(string(f[12]), 10, 64)
	start, _ := strconv.ParseInt(string(f[19]), 10, 64)
	s.UTime, s.STime = time.Duration(ut)*time.Second/clkTck, time.Duration(st)*time.Second/clkTck
	s.Start = time.Duration(start) * time.Second / clkTck
	return s, nil
}

// BootTime is when the machine booted, on the wall clock, as far as
// /proc/uptime tells (to 10 ms): a Stat's Start is counted from it.
func BootTime() (time.Time, error) {
	now := time.Now()
	b, err := os.ReadFile(filepath.Join(Root, "uptime"))
	if err != nil {
		return time.Time{}, err
	}
	f := bytes.Fields(b)
	if len(f) == 0 {
		return time.Time{}, fmt.Errorf("%w: %q", ErrBadUptime, b)
	}
	up, err := time.ParseDuration(string(f[0]) + "s")
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: %q", ErrBadUptime, b)
	}
	return now.Add(-up), nil
}

// ErrBadUptime is a /proc/uptime that does not parse.
var ErrBadUptime = errors.New("procfs: malformed /proc/uptime")

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

// Sched is what the scheduler counted for the threads of a process
// (/proc/PID/task/TID/schedstat, summed): the CPU time they ran, the time
// they were ready to run but waited for a CPU, and how many times they
// were given one. The times are in nanoseconds, where stat's CPU times
// are in ticks of 10 ms: fine enough to charge a few microseconds a move.
type Sched struct {
	Run, Wait time.Duration
	Slices    int64
}

// Sub is s less an earlier reading of the same process.
func (s Sched) Sub(earlier Sched) Sched {
	return Sched{Run: s.Run - earlier.Run, Wait: s.Wait - earlier.Wait, Slices: s.Slices - earlier.Slices}
}

// ReadSched sums the schedstat of pid's threads. A thread that has
// exited is no longer counted, so the sum is exact for a process whose
// threads outlive the interval measured (a Go program's do).
func ReadSched(pid int) (Sched, error) {
	dir := filepath.Join(Root, strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return Sched{}, err
	}
	var sum Sched
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if errors.Is(err, os.ErrNotExist) {
			continue // the thread exited since the listing
		}
		if err != nil {
			return Sched{}, err
		}
		s, err := parseSchedstat(b)
		if err != nil {
			return Sched{}, fmt.Errorf("%w: %d/%s", err, pid, t.Name())
		}
		sum.Run, sum.Wait, sum.Slices = sum.Run+s.Run, sum.Wait+s.Wait, sum.Slices+s.Slices
	}
	return sum, nil
}

// ErrBadSchedstat is a schedstat file that does not parse.
var ErrBadSchedstat = errors.New("procfs: malformed schedstat")

// parseSchedstat reads "RUN_NS WAIT_NS SLICES".
func parseSchedstat(b []byte) (Sched, error) {
	f := bytes.Fields(b)
	if len(f) != 3 {
		return Sched{}, ErrBadSchedstat
	}
	var v [3]int64
	for i := range v {
		n, err := strconv.ParseInt(string(f[i]), 10, 64)
		if err != nil || n < 0 {
			return Sched{}, ErrBadSchedstat
		}
		v[i] = n
	}
	return Sched{Run: time.Duration(v[0]), Wait: time.Duration(v[1]), Slices: v[2]}, nil
}

// userHZ is the unit of /proc/stat's CPU times: the kernel shows them in
// ticks of USER_HZ, which Linux fixes at 100 for every architecture.
const userHZ = 100

// ErrBadProcStat is a /proc/stat that does not parse.
var ErrBadProcStat = errors.New("procfs: malformed /proc/stat")

// Stolen is the time the hypervisor kept this machine's CPUs from running
// while they had work (steal time, /proc/stat), since boot, per CPU: the
// machine's total over its number of CPUs, so a virtual machine paused
// for a second adds a second. It is 0 on a machine that is not virtual,
// and counts in steps of 10 ms.
func Stolen() (time.Duration, error) {
	b, err := os.ReadFile(filepath.Join(Root, "stat"))
	if err != nil {
		return 0, err
	}
	return parseStolen(b)
}

// parseStolen reads the steal column (the eighth number) of the "cpu"
// line, the sum over the CPUs, and divides it by the number of "cpuN"
// lines.
func parseStolen(b []byte) (time.Duration, error) {
	var total int64 = -1
	cpus := 0
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		name, rest, _ := bytes.Cut(line, []byte(" "))
		switch {
		case string(name) == "cpu":
			f := bytes.Fields(rest)
			if len(f) < 8 {
				return 0, ErrBadProcStat
			}
			n, err := strconv.ParseInt(string(f[7]), 10, 64)
			if err != nil || n < 0 {
				return 0, ErrBadProcStat
			}
			total = n
		case bytes.HasPrefix(name, []byte("cpu")):
			cpus++
		}
	}
	if total < 0 || cpus == 0 {
		return 0, ErrBadProcStat
	}
	return time.Duration(total) * (time.Second / userHZ) / time.Duration(cpus), nil
}
