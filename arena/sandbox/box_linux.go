//go:build linux

package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arena-dev/arena/arena/sandbox/devcgroup"
	"github.com/arena-dev/arena/internal/procfs"
)

// Box is one bot process's confinement: its cgroups and its directory.
// It implements transport.Confinement.
type Box struct {
	// Argv and Env start the wrapper, in Dir ("": the wrapper enters the
	// bot's directory itself).
	Argv, Env []string
	Dir       string

	spec    spec
	v2      string   // the v2 cgroup (kill, and limits if enabled)
	v2Birth *os.File // v2 open, when the wrapper starts in it (CLONE_INTO_CGROUP) rather than moving into it; closed once started
	v1      []string
	v1Acct  string // the v1 cpuacct cgroup: CPU time of every process
	v1CPU   string // the v1 cpu cgroup (the rate limit), or ""
	v1Mem   string // the v1 memory cgroup (the memory limit), or ""
	dir     boxDir // removed at Release
	pid     atomic.Int64
	release sync.Once
	done    chan struct{} // closed at Release: stops the CPU watchdog

	cpuBase   atomic.Int64 // CPU used when the current game began (ns)
	cpuKilled atomic.Bool

	meterMu     sync.Mutex  // Usage's files
	meter       *meterFiles // opened at the first Usage
	meterClosed bool        // at Release

	uidRelease func() // frees the bot's uid (isolated, root arena)
	// An isolated bot's wrapper outlives it and writes its wait status to
	// statusW (its fd 3): how the bot ended, for Status.
	statusR, statusW *os.File
	statusOnce       sync.Once
	status           syscall.WaitStatus
	statusOK         bool
}

// dirOwners are the users whose box directories a killed arena like
// this one would have left: the arena's, and the bot user's it gives
// them to (sweepBoxDirs).
func (s *Sandbox) dirOwners() []int {
	owners := []int{os.Geteuid()}
	if s.uid >= 0 {
		owners = append(owners, s.uid)
	}
	return owners
}

// Prepare makes the confinement for one process of bot name, whose
// command argv is to run in dir ("" = a fresh directory of its own,
// removed when the process ends) with Env(name, extraEnv) as its
// environment: its cgroups (with the limits written) and its directory.
// The caller starts Box.Argv with Box.Env in Box.Dir (the wrapper, which
// confines itself and execs argv), passes the Box as the transport's
// Confinement, and calls Release once the process has been reaped.
func (s *Sandbox) Prepare(name string, argv []string, dir string, extraEnv []string) (*Box, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty bot command")
	}
	sp := s.spec(name, dir, extraEnv)
	sweepOnce.Do(func() { go sweep() })
	sweepBoxDirsOnce(s.dirOwners())
	b := &Box{spec: sp, done: make(chan struct{})}
	id := boxID(sp.Name)
	ok := false
	defer func() {
		if !ok {
			b.Release()
		}
	}()
	var err error
	if b.dir, err = makeBoxDir(id); err != nil {
		return nil, fmt.Errorf("bot directory: %w", err)
	}
	tmp := b.dir.path
	if sp.UID >= 0 {
		if err := b.dir.lock.Chown(sp.UID, sp.GID); err != nil { // the directory's own descriptor
			return nil, fmt.Errorf("bot directory: %w", err)
		}
	}
	work := sp.Dir
	if work == "" {
		work = tmp
	}
	b.spec.Work, b.spec.Tmp = work, tmp
	if sp.Plan.Isolate {
		// In its root the bot's directory is in its private /tmp.
		b.spec.Inner = "/tmp/" + filepath.Base(tmp)
		if sp.Dir == "" {
			b.spec.Work = b.spec.Inner
		}
		if b.spec.Root, err = s.rootPlan(argv, sp.Dir, sp.Env); err != nil {
			return nil, err
		}
		if s.uids != nil {
			uid, release, err := s.uids.take()
			if err != nil {
				return nil, err
			}
			b.uidRelease = release
			b.spec.UID, b.spec.GID = uid, uid
		}
		if b.statusR, b.statusW, err = os.Pipe(); err != nil {
			return nil, err
		}
	}
	home, tmpDir := b.spec.Work, tmp
	if sp.Plan.Isolate {
		home, tmpDir = b.spec.Inner, b.spec.Inner // the only writable place
	}
	b.spec.Env = withDirs(b.spec.Env, home, tmpDir)
	l, p := sp.Limits, sp.Plan
	if p.V2 != "" {
		dir, err := mkCgroup(p.V2, id)
		if err != nil {
			return nil, err
		}
		b.v2 = dir
		if p.V2Dev {
			if err := devcgroup.V2(dir, deviceRules(p.Isolate)); err != nil {
				return nil, fmt.Errorf("device cgroup: %w", err)
			}
		}
		if p.V2Mem {
			if err := writeFile(dir, "memory.max", l.Memory); err != nil {
				return nil, err
			}
			_ = writeFile(dir, "memory.swap.max", 0)
		}
		if p.V2Pids {
			if err := writeFile(dir, "pids.max", l.Procs); err != nil {
				return nil, err
			}
		}
		if p.V2CPU && l.CPUs > 0 {
			quota := fmt.Sprintf("%d %d", cpuQuota(l.CPUs), cpuPeriod)
			if err := os.WriteFile(filepath.Join(dir, "cpu.max"), []byte(quota), 0); err != nil {
				return nil, fmt.Errorf("cgroup: %w", err)
			}
			_ = writeFile(dir, "cpu.max.burst", cpuQuota(l.CPUs))
		}
	}
	if p.V1CPU != "" {
		dir, err := mkCgroup(p.V1CPU, id)
		if err != nil {
			return nil, err
		}
		b.v1, b.v1CPU = append(b.v1, dir), dir
		if l.CPUs > 0 {
			if err := writeFile(dir, "cpu.cfs_period_us", cpuPeriod); err != nil {
				return nil, err
			}
			if err := writeFile(dir, "cpu.cfs_quota_us", cpuQuota(l.CPUs)); err != nil {
				return nil, err
			}
			_ = writeFile(dir, "cpu.cfs_burst_us", cpuQuota(l.CPUs))
		}
	}
	if p.V1Acct != "" && p.V1Acct != p.V1CPU { // cpu,cpuacct may be one hierarchy
		dir, err := mkCgroup(p.V1Acct, id)
		if err != nil {
			return nil, err
		}
		b.v1 = append(b.v1, dir)
		b.v1Acct = dir
	} else if p.V1Acct != "" {
		b.v1Acct = b.v1[len(b.v1)-1]
	}
	if p.V1Mem != "" {
		dir, err := mkCgroup(p.V1Mem, id)
		if err != nil {
			return nil, err
		}
		b.v1, b.v1Mem = append(b.v1, dir), dir
		if err := writeFile(dir, "memory.limit_in_bytes", l.Memory); err != nil {
			return nil, err
		}
		// No escape into swap, where swap accounting exists.
		_ = writeFile(dir, "memory.memsw.limit_in_bytes", l.Memory)
	}
	if p.V1Pids != "" {
		dir, err := mkCgroup(p.V1Pids, id)
		if err != nil {
			return nil, err
		}
		b.v1 = append(b.v1, dir)
		if err := writeFile(dir, "pids.max", l.Procs); err != nil {
			return nil, err
		}
	}
	if p.V1Dev != "" {
		dir, err := mkCgroup(p.V1Dev, id)
		if err != nil {
			return nil, err
		}
		b.v1 = append(b.v1, dir)
		if err := devcgroup.V1(dir, deviceRules(p.Isolate)); err != nil {
			return nil, fmt.Errorf("device cgroup: %w", err)
		}
	}
	b.spec.Cgroups = append([]string(nil), b.v1...)
	if b.v2 != "" && s.Caps.V2AtBirth {
		// Started in its cgroup, the wrapper need not move into it: a move
		// waits on the kernel's lock for moves (docs/security.md).
		if b.v2Birth, err = os.Open(b.v2); err != nil {
			return nil, fmt.Errorf("cgroup: %w", err)
		}
	} else if b.v2 != "" {
		b.spec.Cgroups = append(b.spec.Cgroups, b.v2)
	}
	b.spec.PPid = os.Getpid()
	data, err := json.Marshal(b.spec)
	if err != nil {
		return nil, err
	}
	b.Argv = append([]string{s.self, Command, "--"}, argv...)
	b.Env = []string{envSpec + "=" + string(data)}
	ok = true
	return b, nil
}

func mkCgroup(parent, id string) (string, error) {
	dir := filepath.Join(parent, id)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", fmt.Errorf("cgroup: %w", err)
	}
	return dir, nil
}

func writeFile(dir, name string, v int64) error {
	if err := os.WriteFile(filepath.Join(dir, name), []byte(strconv.FormatInt(v, 10)), 0); err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	return nil
}

// cpuPeriod is the CFS period (µs); the quota is CPUs times it. Short,
// so that a bot which bursts over its rate (its runtime starting threads,
// a garbage collection) waits at most a few milliseconds for the next
// period instead of up to 100 ms, which would cost it a short move limit;
// the quota may also carry over one period as a burst where the kernel
// has it (Linux 5.14+).
const cpuPeriod = 10_000

func cpuQuota(cpus float64) int64 { return max(1000, int64(cpus*cpuPeriod)) } // the kernel's least: 1 ms

// deviceRules are the devices a bot may open: an isolated bot's /dev has
// its own ptys too; a bot that is not isolated sees the host's, and its
// terminals are not the bot's to open.
func deviceRules(isolated bool) []devcgroup.Rule {
	if isolated {
		return devcgroup.Bots
	}
	var out []devcgroup.Rule
	for _, r := range devcgroup.Bots {
		if r.Major == 1 {
			out = append(out, r)
		}
	}
	return out
}

// Configure sets the namespaces the wrapper starts in, and gives an
// isolated bot's wrapper the pipe for the bot's status.
func (b *Box) Configure(cmd *exec.Cmd) {
	b.spec.Plan.attr(cmd.SysProcAttr)
	if b.v2Birth != nil {
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, int(b.v2Birth.Fd())
	}
	if b.statusW != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, b.statusW)
	}
}

// Status is how an isolated bot ended, as its wrapper reported it once
// the wrapper has exited.
func (b *Box) Status() (syscall.WaitStatus, bool) {
	if b.statusR == nil {
		return 0, false
	}
	b.statusOnce.Do(func() {
		var buf [4]byte
		// The wrapper has exited: its end is closed, so this cannot block.
		if _, err := io.ReadFull(b.statusR, buf[:]); err == nil {
			b.status, b.statusOK = syscall.WaitStatus(binary.LittleEndian.Uint32(buf[:])), true
		}
	})
	return b.status, b.statusOK
}

// Started records the process id and starts the CPU watchdog.
func (b *Box) Started(pid int) {
	if b.statusW != nil {
		b.statusW.Close() // the wrapper holds its own
	}
	if b.v2Birth != nil {
		b.v2Birth.Close() // it is in its cgroup
	}
	b.pid.Store(int64(pid))
	// What started the wrapper is not needed again, and a root plan and
	// environment are kilobytes held for as long as the bot lives.
	b.Argv, b.Env = nil, nil
	b.spec.Root, b.spec.Env = nil, nil
	if b.spec.Limits.CPUTime > 0 {
		go b.watch(pid)
	}
	b.meterMu.Lock()
	if !b.meterClosed {
		b.openMeter() // now, not in the bot's first move
	}
	b.meterMu.Unlock()
}

// NewGame gives a running bot process a fresh CPU-time allowance for the
// game it is about to play.
func (b *Box) NewGame() {
	if b.spec.Limits.CPUTime <= 0 {
		return
	}
	if used, err := b.cpuUsed(); err == nil {
		b.cpuBase.Store(int64(used))
	}
}

// watch enforces the CPU time limit: it polls what the bot used since its
// game began and kills it past the limit. (RLIMIT_CPU cannot do this: its
// hard limit can only be raised again for the next game with
// CAP_SYS_RESOURCE, and its soft signal SIGXCPU is ignored by Go programs.)
func (b *Box) watch(pid int) {
	t := time.NewTicker(cpuPoll)
	defer t.Stop()
	for {
		select {
		case <-b.done:
			return
		case <-t.C:
		}
		used, err := b.cpuUsed()
		if err != nil {
			if _, gone := os.Stat(fmt.Sprintf("/proc/%d", pid)); gone != nil && b.v2 == "" && b.v1Acct == "" {
				return
			}
			continue
		}
		if used-time.Duration(b.cpuBase.Load()) >= b.spec.Limits.CPUTime {
			b.cpuKilled.Store(true)
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			b.Kill()
			return
		}
	}
}

const cpuPoll = 50 * time.Millisecond

// cpuUsed is the CPU time of the bot: of its cgroup (every process it
// started) with a cgroup, else of its main process (and of its wrapper,
// which idles, when it is isolated).
func (b *Box) cpuUsed() (time.Duration, error) {
	if b.v2 != "" {
		if us := eventCount(filepath.Join(b.v2, "cpu.stat"), "usage_usec"); us >= 0 {
			return time.Duration(us) * time.Microsecond, nil
		}
	}
	if b.v1Acct != "" {
		data, err := os.ReadFile(filepath.Join(b.v1Acct, "cpuacct.usage"))
		if ns, ok := number(data); err == nil && ok {
			return time.Duration(ns), nil
		}
	}
	pid := int(b.pid.Load())
	used, err := cpuUsed(pid)
	if err != nil || !b.spec.Plan.Isolate {
		return used, err
	}
	// An isolated bot is its wrapper's child.
	for _, child := range procfs.Children(pid) {
		if u, err := cpuUsed(child); err == nil {
			used += u
		}
	}
	return used, nil
}

// cpuUsed reads a process's user+system CPU time from /proc.
func cpuUsed(pid int) (time.Duration, error) {
	st, err := procfs.ReadStat(pid)
	return st.UTime + st.STime, err
}

// Kill kills every process in the bot's cgroups, including descendants
// that left its process group (setsid).
func (b *Box) Kill() {
	if b.v2 != "" && Detect().V2Kill {
		_ = os.WriteFile(filepath.Join(b.v2, "cgroup.kill"), []byte("1"), 0)
		return
	}
	dirs := append([]string(nil), b.v1...)
	if b.v2 != "" {
		dirs = append(dirs, b.v2)
	}
	killProcs(dirs)
}

// killProcs kills the processes listed in the cgroups until none is left
// (a bounded number of rounds: a fork bomb is held by its pids limit).
func killProcs(dirs []string) {
	for round := 0; round < 100; round++ {
		any := false
		for _, d := range dirs {
			for _, pid := range procs(d) {
				any = true
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if !any {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func procs(dir string) []int {
	data, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	var out []int
	for _, w := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(w); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// Release kills what is left, removes the cgroups once empty and the
// bot's directory.
func (b *Box) Release() {
	b.release.Do(func() {
		close(b.done)
		b.closeMeter()
		dirs := append([]string(nil), b.v1...)
		if b.v2 != "" {
			dirs = append(dirs, b.v2)
		}
		if len(dirs) > 0 {
			b.Kill()
			removeCgroups(dirs, 2*time.Second)
		}
		b.dir.remove()
		if b.uidRelease != nil {
			b.uidRelease() // every process of that uid is gone
		}
		for _, f := range []*os.File{b.statusR, b.statusW, b.v2Birth} {
			if f != nil {
				f.Close()
			}
		}
	})
}

// removeCgroups removes empty cgroups, killing stragglers, for up to wait.
func removeCgroups(dirs []string, wait time.Duration) {
	deadline := time.Now().Add(wait)
	for _, d := range dirs {
		for {
			err := os.Remove(d)
			if err == nil || errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
				break
			}
			killProcs([]string{d})
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// Explain says which limit ended the bot, when a cgroup recorded it.
func (b *Box) Explain() string {
	var why []string
	l := b.spec.Limits
	mem := false
	if b.v2 != "" && b.spec.Plan.V2Mem && eventCount(filepath.Join(b.v2, "memory.events"), "oom_kill") > 0 {
		mem = true
	}
	pids := b.v2 != "" && b.spec.Plan.V2Pids && eventCount(filepath.Join(b.v2, "pids.events"), "max") > 0
	for _, d := range b.v1 {
		if eventCount(filepath.Join(d, "memory.oom_control"), "oom_kill") > 0 {
			mem = true
		}
		if eventCount(filepath.Join(d, "pids.events"), "max") > 0 {
			pids = true
		}
	}
	if b.cpuKilled.Load() {
		why = append(why, "CPU time limit "+l.CPUTime.String()+" per game reached")
	}
	if mem {
		why = append(why, "memory limit "+FormatSize(l.Memory)+" reached")
	}
	if pids {
		why = append(why, fmt.Sprintf("process limit %d reached", l.Procs))
	}
	return strings.Join(why, ", ")
}

// eventCount reads "key N" from a cgroup file; -1 if absent.
func eventCount(path, key string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	if n, ok := field(data, key, ""); ok {
		return n
	}
	return -1
}

var sweepOnce sync.Once

// sweep removes the cgroups of arenas that died without cleaning up (a
// SIGKILL), killing whatever still runs in them.
func sweep() {
	c := Detect()
	for _, parent := range []string{c.V2, c.V1Memory, c.V1Pids, c.V1CPU, c.V1Acct, c.V1Devices} {
		if parent == "" {
			continue
		}
		ents, _ := os.ReadDir(parent)
		for _, e := range ents {
			m := boxIDPattern.FindStringSubmatch(e.Name())
			if m == nil || !e.IsDir() {
				continue
			}
			pid, _ := strconv.Atoi(m[1])
			if pid == os.Getpid() {
				continue
			}
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
				continue // that arena is alive
			}
			dir := filepath.Join(parent, e.Name())
			if parent == c.V2 && c.V2Kill {
				_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
			}
			removeTree(dir)
		}
	}
}

// removeTree removes a cgroup and the cgroups below it (an arena that ran
// as a bot), deepest first, killing what runs there.
func removeTree(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			removeTree(filepath.Join(dir, e.Name()))
		}
	}
	removeCgroups([]string{dir}, 200*time.Millisecond)
}
