//go:build linux

package devcgroup

// The machinery of the tests that run real processes: cgroups of their
// own, and a helper process (this test binary again) that joins them and
// tries devices.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

const helperEnv = "ARENA_DEVCG_HELPER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(helper(spec))
	}
	os.Exit(m.Run())
}

// op is one thing the helper tries.
type op struct {
	Kind string // "open", "mknod" or "pty"
	Path string
	// Mode: for open "r", "w" or "rw"; for mknod the type, "c" or "b".
	Mode         string
	Major, Minor uint32
}

func (o op) String() string {
	switch o.Kind {
	case "open":
		path := o.Path
		if !strings.HasPrefix(path, "/dev/") {
			path = "node " + filepath.Base(path) // one the test made
		}
		return fmt.Sprintf("open(%s, %s)", path, o.Mode)
	case "mknod":
		return fmt.Sprintf("mknod(%s, %s %d:%d)", filepath.Base(o.Path), o.Mode, o.Major, o.Minor)
	}
	return "pty (open /dev/ptmx, then its slave in /dev/pts)"
}

type helperSpec struct {
	Join []string // cgroup directories
	Ops  []op
}

// result is what one op came to: Errno 0 for success, and the error
// (Errno notErrno when it has none).
type result struct {
	Errno syscall.Errno
	Err   string
}

const notErrno = ^syscall.Errno(0)

// helper is the helper process: it joins the cgroups before it opens
// anything, then tries each op and prints the results.
func helper(spec string) int {
	var s helperSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 2
	}
	pid := []byte(strconv.Itoa(os.Getpid()))
	for _, dir := range s.Join {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), pid, 0); err != nil {
			fmt.Fprintln(os.Stderr, "helper: joining", dir+":", err)
			return 2
		}
	}
	out := make([]result, len(s.Ops))
	for i, o := range s.Ops {
		if err := try(o); err != nil {
			out[i].Err = err.Error()
			if !errors.As(err, &out[i].Errno) {
				out[i].Errno = notErrno
			}
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 2
	}
	return 0
}

func try(o op) error {
	// Never a controlling terminal (console, ttys), never a blocking open.
	const flags = unix.O_NOCTTY | unix.O_NONBLOCK | unix.O_CLOEXEC
	switch o.Kind {
	case "open":
		mode := map[string]int{"r": unix.O_RDONLY, "w": unix.O_WRONLY, "rw": unix.O_RDWR}[o.Mode]
		fd, err := unix.Open(o.Path, mode|flags, 0)
		if err == nil {
			unix.Close(fd)
		}
		return err
	case "mknod":
		mode := uint32(unix.S_IFCHR)
		if o.Mode == "b" {
			mode = unix.S_IFBLK
		}
		return unix.Mknod(o.Path, mode|0o600, int(unix.Mkdev(o.Major, o.Minor)))
	case "pty":
		m, err := unix.Open("/dev/ptmx", unix.O_RDWR|flags, 0)
		if err != nil {
			return fmt.Errorf("/dev/ptmx: %w", err)
		}
		defer unix.Close(m)
		if err := unix.IoctlSetPointerInt(m, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlockpt: %w", err)
		}
		n, err := unix.IoctlGetInt(m, unix.TIOCGPTN)
		if err != nil {
			return fmt.Errorf("ptsname: %w", err)
		}
		slave := fmt.Sprintf("/dev/pts/%d", n)
		s, err := unix.Open(slave, unix.O_RDWR|flags, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", slave, err)
		}
		unix.Close(s)
		return nil
	}
	return fmt.Errorf("unknown op %q", o.Kind)
}

// runHelper runs the helper in the cgroups and returns its results, one
// per op. It returns only once the helper is reaped, so the cgroups are
// empty again.
func runHelper(t *testing.T, join []string, ops []op) []result {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := json.Marshal(helperSpec{Join: join, Ops: ops})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	// GORACE: a race-enabled helper would wait a second before exiting.
	cmd.Env = []string{helperEnv + "=" + string(spec), "GORACE=atexit_sleep_ms=0"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper in %v: %v: %s", join, err, stderr.String())
	}
	var res []result
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(ops) {
		t.Fatalf("helper in %v: bad output %q (%v)", join, out, err)
	}
	return res
}

func (r result) String() string {
	if r.Errno == 0 {
		return "ok"
	}
	if name := unix.ErrnoName(r.Errno); name != "" {
		return name + " (" + r.Err + ")"
	}
	return r.Err
}

// needRoot skips tests that make cgroups, filters and device nodes
// unless this process has what it takes: CAP_SYS_ADMIN (the v1
// controller wants it for every write) and CAP_MKNOD.
func needRoot(t *testing.T) {
	t.Helper()
	const capMknod, capSysAdmin = 27, 21
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			eff, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err == nil && eff&(1<<capMknod) != 0 && eff&(1<<capSysAdmin) != 0 && os.Geteuid() == 0 {
				return
			}
		}
	}
	t.Skip("needs root with CAP_SYS_ADMIN and CAP_MKNOD: makes cgroups, device filters and device nodes")
}

// ownCgroup is the directory of this process's cgroup in the unified
// hierarchy (controller "") or in the v1 hierarchy of controller; "" if
// there is none here.
func ownCgroup(controller string) string {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	own := ""
	found := false
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if controller == "" && f[0] == "0" && f[1] == "" ||
			controller != "" && contains(strings.Split(f[1], ","), controller) {
			own, found = f[2], true
		}
	}
	if !found {
		return ""
	}
	mi, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer mi.Close()
	sc := bufio.NewScanner(mi)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		if controller == "" && g[0] != "cgroup2" ||
			controller != "" && (g[0] != "cgroup" || !contains(strings.Split(g[2], ","), controller)) {
			continue
		}
		rel, ok := strings.CutPrefix(own, f[3])
		if !ok {
			continue // mounted from elsewhere in the hierarchy
		}
		dir := filepath.Join(f[4], rel)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	cgSeq      atomic.Int64
	sweepOnce  sync.Map // parent directory: *sync.Once
	staleGroup = regexp.MustCompile(`^arena-devcg-(\d+)-\d+$`)
)

// newCgroup makes a child cgroup of parent for this test, removed when
// the test ends, failed or not.
func newCgroup(t *testing.T, parent string) string {
	t.Helper()
	once, _ := sweepOnce.LoadOrStore(parent, new(sync.Once))
	once.(*sync.Once).Do(func() { sweep(parent) })
	dir := filepath.Join(parent, fmt.Sprintf("arena-devcg-%d-%d", os.Getpid(), cgSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatalf("making a cgroup: %v", err)
	}
	t.Cleanup(func() {
		// Every helper was reaped by runHelper: the cgroup is empty.
		if err := os.Remove(dir); err != nil {
			t.Errorf("removing cgroup: %v", err)
		}
	})
	return dir
}

// sweep removes the empty cgroups left by test binaries that were killed
// before their clean-up ran.
func sweep(parent string) {
	ents, _ := os.ReadDir(parent)
	for _, e := range ents {
		m := staleGroup.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if _, err := os.Stat("/proc/" + m[1]); err == nil {
			continue // that test is still running
		}
		_ = os.Remove(filepath.Join(parent, e.Name()))
	}
}

// backend is one way to filter devices, with where its cgroups go.
type backend struct {
	name   string
	parent string
	apply  func(dir string, allow []Rule) error
}

// backends are the filters this machine has, each test skipped with the
// reason when not.
func backends(t *testing.T) []backend {
	needRoot(t)
	return []backend{
		{name: "v1", parent: ownCgroup("devices"), apply: V1},
		{name: "v2", parent: ownCgroup(""), apply: V2},
	}
}

func (b backend) skip(t *testing.T) {
	t.Helper()
	if b.parent == "" {
		if b.name == "v1" {
			t.Skip("no cgroup v1 hierarchy with the devices controller here")
		}
		t.Skip("no cgroup v2 hierarchy here")
	}
	if b.name == "v2" {
		if err := Supported(); err != nil {
			t.Skipf("no device programs here: %v", err)
		}
	}
}

// mknod makes a device node for a test, in a directory of the test.
func mknod(t *testing.T, path string, typ byte, major, minor uint32) {
	t.Helper()
	mode := uint32(unix.S_IFCHR)
	if typ == 'b' {
		mode = unix.S_IFBLK
	}
	if err := unix.Mknod(path, mode|0o600, int(unix.Mkdev(major, minor))); err != nil {
		t.Fatalf("mknod %s %c %d:%d: %v", path, typ, major, minor, err)
	}
}

// nodeDir is a directory of the test where device nodes work: the test's
// temporary directory unless it lies on a nodev mount.
func nodeDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	if st.Flags&unix.ST_NODEV != 0 {
		t.Skipf("%s is on a nodev mount: device nodes there cannot be opened; set TMPDIR", dir)
	}
	return dir
}
