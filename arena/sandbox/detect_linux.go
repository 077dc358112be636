//go:build linux

package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/arena/sandbox/devcgroup"
	"github.com/arena-dev/arena/internal/procfs"
)

// probes are what the arena finds out about isolation and networks on
// first need (a process start).
type probes struct {
	// How bots get namespaces of their own: see isolation.
	isoOnce sync.Once
	iso     isolation
	isoErr  string
	feat    features
	netMu   sync.Mutex
	netErr  map[string]error // network mode -> what the probe found
}

// netProbe tells (once per mode) whether a bot that is not isolated can
// have a network namespace of its own.
func (c *Capabilities) netProbe(self, mode string) error {
	c.netMu.Lock()
	defer c.netMu.Unlock()
	if err, ok := c.netErr[mode]; ok {
		return err
	}
	_, err := probe(self, plan{Network: mode})
	if c.netErr == nil {
		c.netErr = map[string]error{}
	}
	c.netErr[mode] = err
	return err
}

// features are what the probe found an isolated bot's root can be made
// of here, and whether seccomp filters work.
type features struct {
	Overlay    bool   `json:"overlay"`
	OverlayErr string `json:"overlay_err,omitempty"`
	Mknod      bool   `json:"mknod"`
	Seccomp    bool   `json:"-"`
	SeccompErr string `json:"-"`
}

// features probes isolation (once) and reports what it found.
func (c *Capabilities) features() features {
	c.isolation()
	return c.feat
}

// isolation says how bots can be isolated here, or why not.
func (c *Capabilities) isolation() (isolation, string) {
	c.isoOnce.Do(func() {
		c.iso, c.feat, c.isoErr = detectIsolation(c.SysAdmin)
		c.feat.Seccomp, c.feat.SeccompErr = seccompAvailable()
	})
	return c.iso, c.isoErr
}

// CanIsolate tells whether bots can be isolated here, and if not why.
func (c *Capabilities) CanIsolate() error {
	if how, why := c.isolation(); how == isolateNone {
		return errors.New(why)
	}
	return nil
}

func detect() *Capabilities {
	c := &Capabilities{}
	if eff, ok := capEff(); ok && !forceUserNS {
		c.SysAdmin = eff&(1<<21) != 0
		c.SetID = eff&(1<<6) != 0 && eff&(1<<7) != 0
	}
	own := ownCgroups()
	mounts := cgroupMounts()
	for _, m := range mounts {
		if m.v2 {
			if c.V2 != "" {
				continue
			}
			dir := cgroupDir(m, own[""])
			if dir == "" || !canCreate(dir) {
				continue
			}
			c.V2 = dir
			if !m.opts["favordynmods"] && kernelAtLeast(6, 0) {
				c.SlowJoin = m.point
			}
			ctl := readWords(filepath.Join(dir, "cgroup.subtree_control"))
			avail := readWords(filepath.Join(dir, "cgroup.controllers"))
			for _, want := range []string{"memory", "pids", "cpu"} {
				if !ctl[want] && avail[want] {
					// Fails (EBUSY) when the arena's cgroup holds processes
					// and is not the root: the no-internal-process rule.
					if os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+"+want), 0) == nil {
						ctl[want] = true
					}
				}
			}
			c.V2Memory, c.V2Pids, c.V2CPU = ctl["memory"], ctl["pids"], ctl["cpu"]
			c.V2Kill = probeKill(dir)
			c.V2AtBirth = probeAtBirth(dir)
			c.V2Devices = c.SysAdmin && probeDeviceFilter(dir)
			continue
		}
		for ctl, dst := range map[string]*string{"memory": &c.V1Memory, "pids": &c.V1Pids, "cpu": &c.V1CPU, "cpuacct": &c.V1Acct, "devices": &c.V1Devices} {
			if !m.opts[ctl] || *dst != "" {
				continue
			}
			if ctl == "devices" && !c.SysAdmin {
				continue // writing device rules takes CAP_SYS_ADMIN
			}
			if dir := cgroupDir(m, own[ctl]); dir != "" && canCreate(dir) {
				*dst = dir
			}
		}
	}
	return c
}

// detectIsolation tries namespaces as root, then in a user namespace.
func detectIsolation(sysAdmin bool) (isolation, features, string) {
	self, err := os.Executable()
	if err != nil {
		return isolateNone, features{}, err.Error()
	}
	var why []string
	if sysAdmin {
		f, err := probe(self, plan{Isolate: true, Network: NetworkLoopback})
		if err == nil {
			return isolateRoot, f, ""
		}
		why = append(why, "as root: "+err.Error())
	}
	f, err := probe(self, plan{Isolate: true, UserNS: true, Network: NetworkLoopback})
	if err != nil {
		why = append(why, "in a user namespace: "+err.Error())
		return isolateNone, features{}, strings.Join(why, "; ")
	}
	return isolateUserNS, f, ""
}

// forceUserNS: tests of the unprivileged path (user namespaces) as root.
var forceUserNS bool

// preferDeviceFilter: tests of the v2 BPF device filter on a machine that
// also has the v1 devices hierarchy (which New prefers).
var preferDeviceFilter bool

func capEff() (uint64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "CapEff:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// ownCgroups maps controller ("" for v2) to the arena's cgroup path.
func ownCgroups() map[string]string {
	out := map[string]string{}
	data, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

type mount struct {
	root, point string
	v2          bool
	opts        map[string]bool
}

// kernelAtLeast reports whether the running kernel's release is at least
// major.minor.
func kernelAtLeast(major, minor int) bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	var ma, mi int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

func cgroupMounts() []mount {
	var out []mount
	all, _ := procfs.Mounts()
	for _, pm := range all {
		if pm.FSType != "cgroup" && pm.FSType != "cgroup2" || !strings.Contains(pm.Options, "rw") {
			continue
		}
		m := mount{root: pm.Root, point: pm.Point, v2: pm.FSType == "cgroup2", opts: map[string]bool{}}
		for _, o := range strings.Split(pm.SuperOptions, ",") {
			m.opts[o] = true
		}
		out = append(out, m)
	}
	return out
}

// cgroupDir is where the cgroup path own lies under mount m.
func cgroupDir(m mount, own string) string {
	if own == "" {
		return ""
	}
	rel := own
	if m.root != "/" {
		var ok bool
		if rel, ok = strings.CutPrefix(own, m.root); !ok {
			rel = own
		}
	}
	dir := filepath.Join(m.point, rel)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

func canCreate(dir string) bool {
	probe := filepath.Join(dir, fmt.Sprintf("arena-%d-probe", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return false
	}
	os.Remove(probe)
	return true
}

// probeAtBirth tells whether a child can be started into a cgroup under
// dir (CLONE_INTO_CGROUP). The child is a program that does not exist:
// the clone either fails (no clone3, or the cgroup refused), or succeeds
// and the child's exec fails with ENOENT, which is all that is needed.
func probeAtBirth(dir string) bool {
	probe := filepath.Join(dir, fmt.Sprintf("arena-%d-probe-birth", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return false
	}
	defer os.Remove(probe)
	fd, err := os.Open(probe)
	if err != nil {
		return false
	}
	defer fd.Close()
	cmd := exec.Command(filepath.Join(probe, "no-such-program"))
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(fd.Fd())}
	err = cmd.Start()
	if err == nil { // not expected: it cannot exist
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return true
	}
	return errors.Is(err, syscall.ENOENT)
}

func probeKill(dir string) bool {
	probe := filepath.Join(dir, fmt.Sprintf("arena-%d-probe", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return false
	}
	defer os.Remove(probe)
	_, err := os.Stat(filepath.Join(probe, "cgroup.kill"))
	return err == nil
}

func readWords(path string) map[string]bool {
	data, _ := os.ReadFile(path)
	out := map[string]bool{}
	for _, w := range strings.Fields(string(data)) {
		out[w] = true
	}
	return out
}

// probe starts the wrapper in the namespaces of plan p, lets it build an
// isolated bot's root (the system directories, a private /tmp and /dev,
// its own /proc), start its second stage in a user namespace of its own and
// exit, to learn whether the kernel, a seccomp or an LSM policy allows it,
// and what the root could be made of. Without isolation it only tries the
// network namespace.
func probe(self string, p plan) (features, error) {
	if !wrapperReady.Load() {
		return features{}, errNoWrapper
	}
	sp := spec{UID: -1, GID: -1, Plan: p, Limits: Limits{Disk: 1 << 20}}
	if p.Isolate {
		dir, err := makeBoxDir(boxID("probe"))
		if err != nil {
			return features{}, err
		}
		defer dir.remove()
		sp.Tmp, sp.Inner = dir.path, "/tmp/"+filepath.Base(dir.path)
		sp.Work = sp.Inner
		sp.Plan.Overlay, sp.Plan.Mknod = true, !p.UserNS
		sp.Root = systemEntries()
		sp.Env = []string{"PATH=/usr/bin:/bin"}
	}
	data, err := json.Marshal(sp)
	if err != nil {
		return features{}, err
	}
	cmd := exec.Command(self, Command, "--probe")
	cmd.Env = []string{envSpec + "=" + string(data)}
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	p.attr(cmd.SysProcAttr)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return features{}, fmt.Errorf("%v %s", err, strings.TrimSpace(stderr.String()))
	}
	var f features
	if p.Isolate {
		if err := json.Unmarshal(out, &f); err != nil {
			return features{}, fmt.Errorf("probe said %q: %v", out, err)
		}
	}
	return f, nil
}

// probeDeviceFilter tells whether a BPF device filter attaches to a child
// of the v2 cgroup dir.
func probeDeviceFilter(dir string) bool {
	if devcgroup.Supported() != nil {
		return false
	}
	probe := filepath.Join(dir, fmt.Sprintf("arena-%d-probe", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return false
	}
	defer os.Remove(probe)
	return devcgroup.V2(probe, devcgroup.Bots) == nil
}
