//go:build linux

package sandbox_test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/proctest"
	"github.com/arena-dev/arena/internal/testkit"
)

// The test binary is also the misbehaving bot: with SANDBOX_TEST_MODE set
// (through the sandbox's configured environment) it does one bad thing.
const envMode = "SANDBOX_TEST_MODE"

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // the bots' wrapper is this test binary
	if mode := os.Getenv(envMode); mode != "" {
		os.Exit(misbehave(mode))
	}
	if os.Getenv("SANDBOX_TEST_USERNS") != "" {
		sandbox.ForceUserNS()
	}
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

func misbehave(mode string) int {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	switch mode {
	case "env":
		env := os.Environ()
		sort.Strings(env)
		for _, kv := range env {
			fmt.Fprintln(out, kv)
		}
		wd, _ := os.Getwd()
		fmt.Fprintln(out, "cwd="+wd)
		fmt.Fprintln(out, "uid="+strconv.Itoa(os.Getuid()))
	case "alloc": // touch 512 MiB, 1 MiB at a time
		var keep [][]byte
		for i := 0; i < 512; i++ {
			b := make([]byte, 1<<20)
			for j := range b {
				b[j] = byte(j)
			}
			keep = append(keep, b)
		}
		fmt.Fprintln(out, "allocated", len(keep))
	case "forkbomb":
		n := 0
		var err error
		for ; n < 200; n++ {
			cmd := exec.Command("sleep", "30")
			if err = cmd.Start(); err != nil {
				break
			}
		}
		fmt.Fprintf(out, "started %d %v\n", n, err)
		out.Flush()
		time.Sleep(30 * time.Second)
	case "view": // what an isolated bot can see and do
		initCmd, _ := os.ReadFile("/proc/1/cmdline")
		fmt.Fprintf(out, "init %s\n", initCmd)
		ents, _ := os.ReadDir("/proc")
		n := 0
		for _, e := range ents {
			if _, err := strconv.Atoi(e.Name()); err == nil {
				n++
			}
		}
		fmt.Fprintln(out, "procs", n)
		for _, path := range []string{"/etc/arena-test", filepath.Join(os.Getenv("SANDBOX_TEST_DIR"), "x"), filepath.Join(os.Getenv("TMPDIR"), "x"), "/dev/shm/x"} {
			err := os.WriteFile(path, []byte("x"), 0o644)
			fmt.Fprintln(out, "write", path, err)
		}
		hidden := os.Getenv("SANDBOX_TEST_HIDDEN")
		ents, err := os.ReadDir(hidden)
		fmt.Fprintln(out, "hidden", len(ents), err)
		// Undoing it takes CAP_SYS_ADMIN, which even a root bot lacks.
		fmt.Fprintln(out, "umount", syscall.Unmount(hidden, syscall.MNT_DETACH))
		fmt.Fprintln(out, "remount", syscall.Mount("", "/", "", syscall.MS_REMOUNT|syscall.MS_BIND, ""))
		status, _ := os.ReadFile("/proc/self/status")
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "CapEff:") || strings.HasPrefix(l, "CapBnd:") || strings.HasPrefix(l, "NoNewPrivs:") {
				fmt.Fprintln(out, strings.Join(strings.Fields(l), " "))
			}
		}
	case "cgroup":
		data, _ := os.ReadFile("/proc/self/cgroup")
		out.Write(data)
	case "fds": // the descriptors it was started with
		inherited, _, err := proctest.Descriptors()
		if err != nil {
			fmt.Fprintln(out, err)
			return 1
		}
		fmt.Fprintln(out, "inherited", strings.Join(inherited, " "))
	case "pagecache": // on a line, write SANDBOX_TEST_MIB MiB into a file of its directory, through the page cache
		in := bufio.NewScanner(os.Stdin)
		fmt.Fprintln(out, "ready")
		out.Flush()
		if !in.Scan() {
			return 1
		}
		mib, _ := strconv.Atoi(os.Getenv("SANDBOX_TEST_MIB"))
		f, err := os.Create("cache")
		if err != nil {
			fmt.Fprintln(out, "create", err)
			return 1
		}
		chunk := make([]byte, 1<<20)
		for i := 0; i < mib && err == nil; i++ {
			_, err = f.Write(chunk)
		}
		fmt.Fprintln(out, "wrote", err)
		out.Flush()
		in.Scan() // until stdin closes
	case "fill": // fill TMPDIR 1 MiB per file
		chunk := make([]byte, 1<<20)
		total := 0
		var err error
		for i := 0; i < 64 && err == nil; i++ {
			err = os.WriteFile(filepath.Join(os.Getenv("TMPDIR"), strconv.Itoa(i)), chunk, 0o644)
			if err == nil {
				total++
			}
		}
		fmt.Fprintln(out, "wrote", total, err)
	case "escape-env": // a descendant that leaves the group and clears its environment
		cmd := exec.Command("setsid", "env", "-i", "sleep", os.Getenv("SANDBOX_TEST_SLEEP"))
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(out, "error", err)
			return 1
		}
		fmt.Fprintln(out, "started")
		out.Flush()
		time.Sleep(30 * time.Second)
	case "spin4": // four spinning threads for a second of wall time
		stop := time.Now().Add(time.Second)
		done := make(chan bool)
		for i := 0; i < 4; i++ {
			go func() {
				for time.Now().Before(stop) {
				}
				done <- true
			}()
		}
		for i := 0; i < 4; i++ {
			<-done
		}
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		fmt.Fprintln(out, "cpu_ms", cpu.Milliseconds())
	case "bigfile":
		f, err := os.Create("big")
		if err != nil {
			fmt.Fprintln(out, "create", err)
			return 1
		}
		chunk := make([]byte, 1<<20)
		for i := 0; i < 16; i++ {
			if _, err := f.Write(chunk); err != nil {
				fmt.Fprintln(out, "write failed:", err)
				return 1
			}
		}
		fmt.Fprintln(out, "wrote all")
	case "spin":
		for i := 0; ; i++ {
			if i == -1 {
				break
			}
		}
	case "escape": // a descendant leaves the process group with setsid
		cmd := exec.Command("setsid", "sleep", "30")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(out, "error", err)
			return 1
		}
		fmt.Fprintln(out, cmd.Process.Pid)
		out.Flush()
		time.Sleep(30 * time.Second)
	case "note-write":
		return noteWrite(out)
	case "note-read":
		return noteRead(out)
	case "peek":
		return peek(out)
	case "devices":
		return devices(out)
	case "net":
		data, _ := os.ReadFile("/proc/net/dev")
		up := []string{}
		for _, line := range strings.Split(string(data), "\n")[2:] {
			if name, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
				up = append(up, name)
			}
		}
		c, err := net.DialTimeout("tcp", os.Getenv("SANDBOX_TEST_ADDR"), time.Second)
		if err == nil {
			c.Close()
		}
		fmt.Fprintf(out, "ifaces=%s dial=%v\n", strings.Join(up, ","), err)
	}
	return 0
}

// start runs this test binary as a sandboxed bot in mode.
func start(t *testing.T, sb *sandbox.Sandbox, mode, dir string, extra ...string) (*transport.Process, *sandbox.Box) {
	t.Helper()
	p := startCfg(t, sb, transport.ProcessConfig{Argv: []string{os.Args[0]}, Dir: dir, Env: append([]string{envMode + "=" + mode}, extra...)})
	return p, p.Confinement().(*sandbox.Box)
}

// startCfg starts cfg in the sandbox, closed when the test ends.
func startCfg(t *testing.T, sb *sandbox.Sandbox, cfg transport.ProcessConfig) *transport.Process {
	t.Helper()
	p, err := sb.Start("tester", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func newSandbox(t *testing.T, l sandbox.Limits, o sandbox.Options) *sandbox.Sandbox {
	t.Helper()
	sb, err := sandbox.New(l, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(sb.Describe())
	return sb
}

// lines reads stdout lines until EOF or the deadline.
func lines(p *transport.Process, wait time.Duration) ([]string, error) {
	var out []string
	deadline := time.Now().Add(wait)
	for {
		l, err := p.Receive(deadline)
		if err != nil {
			return out, err
		}
		out = append(out, string(l))
	}
}

func exited(t *testing.T, p *transport.Process, wait time.Duration) {
	t.Helper()
	select {
	case <-p.Exited():
	case <-time.After(wait):
		t.Fatalf("the bot was not stopped within %v", wait)
	}
}

func TestEnvironmentIsScrubbed(t *testing.T) {
	t.Setenv("ARENA_SECRET", "hunter2")
	t.Setenv("PASSED_THROUGH", "yes")
	sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{Env: []string{"EXTRA=1", "PASSED_THROUGH", "NOT_SET_ANYWHERE"}})
	p, _ := start(t, sb, "env", "")
	got, _ := lines(p, 5*time.Second)
	vars := map[string]string{}
	for _, l := range got {
		k, v, _ := strings.Cut(l, "=")
		vars[k] = v
	}
	var names []string
	for k := range vars {
		if k != "cwd" && k != "uid" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	want := "ARENA_BOT_NAME EXTRA HOME LANG LC_ALL PASSED_THROUGH PATH SANDBOX_TEST_MODE TMPDIR"
	if strings.Join(names, " ") != want {
		t.Fatalf("bot environment holds %v, want exactly %s", names, want)
	}
	if vars["ARENA_BOT_NAME"] != "tester" || vars["LANG"] != "C.UTF-8" || vars["PASSED_THROUGH"] != "yes" || vars["PATH"] != os.Getenv("PATH") {
		t.Errorf("values: %v", vars)
	}
	// No directory given: a fresh one of its own, which is HOME and TMPDIR.
	if vars["cwd"] != vars["HOME"] || vars["HOME"] != vars["TMPDIR"] || !strings.Contains(vars["cwd"], "arena-") {
		t.Errorf("cwd %s, HOME %s, TMPDIR %s: want one fresh directory", vars["cwd"], vars["HOME"], vars["TMPDIR"])
	}
	p.Close()
	if _, err := os.Stat(vars["TMPDIR"]); !os.IsNotExist(err) {
		t.Errorf("the bot's directory %s outlived it: %v", vars["TMPDIR"], err)
	}
}

func TestConfiguredWorkingDirectory(t *testing.T) {
	for _, isolate := range []string{sandbox.IsolateNo, sandbox.IsolateAuto} {
		t.Run(isolate, func(t *testing.T) {
			dir := t.TempDir()
			sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{Isolate: isolate})
			p, _ := start(t, sb, "env", dir)
			got, _ := lines(p, 5*time.Second)
			if !contains(got, "cwd="+dir) {
				t.Fatalf("want cwd %s, got %v", dir, got)
			}
			if contains(got, "TMPDIR="+dir) {
				t.Errorf("TMPDIR should be a fresh directory, got %v", got)
			}
			// HOME is the bot's directory, unless that is read-only.
			isolated := strings.Contains(sb.Describe(), "isolation: own")
			if home := contains(got, "HOME="+dir); home == isolated {
				t.Errorf("isolated %v: HOME %s? %v", isolated, dir, got)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestMemoryLimitStopsTheBot(t *testing.T) {
	sb := newSandbox(t, sandbox.Limits{Memory: 64 << 20}, sandbox.Options{})
	p, _ := start(t, sb, "alloc", "")
	got, err := lines(p, 10*time.Second)
	if contains(got, "allocated 512") {
		t.Fatalf("the bot allocated 512 MiB under a 64 MiB limit")
	}
	exited(t, p, 5*time.Second)
	t.Logf("stopped: %v", err)
	if c := sb.Caps; c.V2Memory || c.V1Memory != "" {
		if !strings.Contains(err.Error(), "memory limit 64MiB reached") {
			t.Errorf("the exit does not name the memory limit: %v", err)
		}
	}
}

func TestProcessLimitStopsAForkBomb(t *testing.T) {
	sb := newSandbox(t, sandbox.Limits{Procs: 16}, sandbox.Options{})
	if strings.Contains(sb.Describe(), "procs 16 (NOT ENFORCED)") {
		t.Skip("no pids cgroup and the bot runs as root: " + sb.Describe())
	}
	p, _ := start(t, sb, "forkbomb", "")
	l, err := p.Receive(time.Now().Add(10 * time.Second))
	var ce *transport.ClosedError
	if errors.As(err, &ce) && strings.Contains(ce.Detail, "process limit 16 reached") {
		// The limit caught the bot's own runtime starting a thread (seen
		// under load) before it could report: held all the same.
		t.Logf("stopped by the limit: %v", err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var n int
	fmt.Sscan(strings.TrimPrefix(string(l), "started "), &n)
	if n >= 16 || !strings.Contains(string(l), "resource temporarily unavailable") {
		t.Fatalf("fork bomb not held by a 16-process limit: %s", l)
	}
	t.Log(string(l))
}

func TestFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	// Not isolated: the bot's directory is writable and the file visible here.
	sb := newSandbox(t, sandbox.Limits{FileSize: 1 << 20}, sandbox.Options{Isolate: sandbox.IsolateNo})
	p, _ := start(t, sb, "bigfile", dir)
	got, err := lines(p, 10*time.Second)
	exited(t, p, 5*time.Second)
	if contains(got, "wrote all") {
		t.Fatal("the bot wrote 16 MiB under a 1 MiB file size limit")
	}
	st, serr := os.Stat(filepath.Join(dir, "big"))
	if serr != nil || st.Size() > 1<<20 {
		t.Fatalf("file: %v %v", st, serr)
	}
	t.Logf("stopped: %v %v", got, err)
}

func TestCPUTimeLimitKillsABusyLoop(t *testing.T) {
	sb := newSandbox(t, sandbox.Limits{CPUTime: time.Second}, sandbox.Options{})
	start := time.Now()
	p, _ := start2(t, sb, "spin")
	exited(t, p, 30*time.Second) // a second of CPU; longer on a loaded machine
	_, err := p.Receive(time.Now().Add(time.Second))
	if err == nil || !strings.Contains(err.Error(), "CPU time limit 1s per game reached") {
		t.Fatalf("want a CPU time kill, got %v", err)
	}
	if took := time.Since(start); took < time.Second {
		t.Fatalf("killed after %v, before its second of CPU", took)
	}
	t.Logf("stopped after %v: %v", time.Since(start).Round(time.Millisecond), err)
}

func TestCPURateLimit(t *testing.T) {
	sb := newSandbox(t, sandbox.Limits{CPUs: 0.2}, sandbox.Options{})
	if strings.Contains(sb.Describe(), "NOT ENFORCED") {
		t.Skip("no cpu cgroup: " + sb.Describe())
	}
	p, _ := start2(t, sb, "spin4")
	got, _ := lines(p, 10*time.Second)
	var ms int
	if len(got) == 1 {
		fmt.Sscanf(got[0], "cpu_ms %d", &ms)
	}
	// A fifth of a core for a second: 200 ms, whatever the number of cores.
	if ms == 0 || ms > 350 {
		t.Fatalf("four threads spinning for 1s under a 0.2-core limit used %d ms of CPU (%v)", ms, got)
	}
	t.Logf("used %d ms of CPU in 1 s under a 0.2-core limit", ms)
}

func start2(t *testing.T, sb *sandbox.Sandbox, mode string) (*transport.Process, *sandbox.Box) {
	return start(t, sb, mode, "")
}

// TestCPUTimeIsPerGame: NewGame restarts the count, so a bot that uses a
// little CPU in every game is never stopped by the sum.
func TestCPUTimeIsPerGame(t *testing.T) {
	sb := newSandbox(t, sandbox.Limits{CPUTime: 300 * time.Millisecond}, sandbox.Options{})
	p, box := start(t, sb, "spin", "")
	for i := 0; i < 4; i++ { // about 200ms of CPU per "game", 800ms in all
		time.Sleep(200 * time.Millisecond)
		box.NewGame()
	}
	select {
	case <-p.Exited():
		t.Fatalf("killed though no game used its 300ms: %s", box.Explain())
	default:
	}
	exited(t, p, 30*time.Second) // a game without NewGame runs out
}

func TestCgroupKillCatchesEscapedDescendants(t *testing.T) {
	c := sandbox.Detect()
	if c.V2 == "" && c.V1Memory == "" && c.V1Pids == "" {
		t.Skip("no writable cgroup: only the process group is killed")
	}
	// Not isolated: in a PID namespace the pid the bot prints is not the
	// host's, and the namespace alone would kill the descendant.
	sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateNo})
	p, _ := start(t, sb, "escape", "")
	l, err := p.Receive(time.Now().Add(5 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(l))
	// The pid is only the test's to signal if it names the bot's
	// descendant here, in the test's PID namespace (setsid, once it has
	// left the bot's process group, execs sleep in place): held by a
	// pidfd, it cannot become another process's.
	var child *proctest.Process
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if pgid, _ := syscall.Getpgid(pid); pgid != p.Pid() {
			if child = proctest.Hold(pid, "sleep\x0030\x00", ""); child != nil {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d is not the bot's descendant (sleep 30, out of the bot's process group) in this PID namespace", pid)
		}
	}
	defer child.Kill()
	p.Close()
	for deadline := time.Now().Add(2 * time.Second); child.Alive(); {
		if time.Now().After(deadline) {
			t.Fatalf("descendant %d that left the process group survived Close", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// alive: the process exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && s[i+2] != 'Z'
}

func TestNoNetwork(t *testing.T) {
	sb, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Network: sandbox.NetworkNone})
	if err != nil {
		if !sandbox.Detect().SysAdmin && strings.Contains(err.Error(), "needs CAP_SYS_ADMIN (run the arena as root) or isolation in a user namespace") {
			t.Skip("neither root nor user namespaces: checked the message only")
		}
		t.Fatal(err)
	}
	t.Log(sb.Describe())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p, _ := start(t, sb, "net", "", "SANDBOX_TEST_ADDR="+ln.Addr().String())
	got, _ := lines(p, 5*time.Second)
	if len(got) != 1 || !strings.HasPrefix(got[0], "ifaces=lo dial=") || strings.HasSuffix(got[0], "dial=<nil>") {
		t.Fatalf("the bot has network: %v", got)
	}
	t.Log(got[0])
}

func TestBotUser(t *testing.T) {
	if !sandbox.Detect().SetID {
		_, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{User: "nobody"})
		if err == nil || !strings.Contains(err.Error(), "needs root") {
			t.Fatalf("without root: want a clear error, got %v", err)
		}
		t.Skip("not root: checked the message only")
	}
	if _, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{User: "no-such-user-here"}); err == nil {
		t.Fatal("an unknown user was accepted")
	}
	sb, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{User: "nobody"})
	if err != nil {
		t.Skipf("no user nobody: %v", err)
	}
	// The test binary may sit in a directory nobody cannot enter: run sh.
	p := startCfg(t, sb, transport.ProcessConfig{Argv: []string{"sh", "-c", `echo "$(id -u) $(pwd) $HOME"; touch x && echo wrote`}})
	got, _ := lines(p, 5*time.Second)
	if len(got) != 2 || !strings.HasPrefix(got[0], "65534 ") || got[1] != "wrote" {
		t.Fatalf("want uid 65534 writing in its own directory, got %v (stderr %q)", got, p.StderrTail())
	}
}

func TestWrapperFailureIsReported(t *testing.T) {
	sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{})
	p := startCfg(t, sb, transport.ProcessConfig{Argv: []string{"no-such-program-anywhere"}})
	_, err := p.Receive(time.Now().Add(5 * time.Second))
	exited(t, p, 2*time.Second)
	p.Close() // lets the last stderr bytes in
	if err == nil || !strings.Contains(err.Error(), "status 127") || !strings.Contains(p.StderrTail(), "not found in the bot's PATH") {
		t.Fatalf("got %v, stderr %q", err, p.StderrTail())
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]int64{"1GiB": 1 << 30, "64MiB": 64 << 20, "512k": 512 << 10, "100": 100, "unlimited": 0, "0": 0, "1.5G": 3 << 29} {
		if got, err := sandbox.ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "lots", "-1M", "1QiB"} {
		if _, err := sandbox.ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	if got := sandbox.FormatSize(64 << 20); got != "64MiB" {
		t.Errorf("FormatSize = %s", got)
	}
	if d, err := sandbox.ParseDuration("unlimited"); err != nil || d != 0 {
		t.Errorf("ParseDuration(unlimited) = %v %v", d, err)
	}
	if _, err := sandbox.ParseCount("x"); err == nil {
		t.Error("ParseCount(x) accepted")
	}
}

func TestDescribeNamesEveryLimit(t *testing.T) {
	sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{})
	d := sb.Describe()
	for _, want := range []string{"memory 1GiB (", "procs 256 (", "cpu unlimited", "files 1024 (rlimit)", "file size 64MiB (rlimit)", "kill: ", "network: ", "devices: ", "syscalls: "} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe lacks %q: %s", want, d)
		}
	}
}

// TestBotIsInItsCgroupV2: a confined bot, isolated or not, runs in a
// cgroup v2 of its own (named for it), whether its wrapper was started
// there (CLONE_INTO_CGROUP, Capabilities.V2AtBirth) or moved itself into
// it. Read from outside: an isolated bot has a cgroup namespace of its own.
func TestBotIsInItsCgroupV2(t *testing.T) {
	for _, iso := range []string{sandbox.IsolateNo, sandbox.IsolateYes} {
		t.Run("isolate="+iso, func(t *testing.T) {
			sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{Isolate: iso})
			if sb.Caps.V2 == "" {
				t.Skip("no cgroup v2 here: " + sb.Describe())
			}
			t.Logf("started in its cgroup: %v", sb.Caps.V2AtBirth)
			p, _ := start(t, sb, "pagecache", t.TempDir())
			if l, err := p.Receive(time.Now().Add(20 * time.Second)); err != nil || string(l) != "ready" {
				t.Fatalf("got %q, %v; stderr %s", l, err, p.StderrTail())
			}
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", p.Pid()))
			if err != nil {
				t.Fatal(err)
			}
			var v2 string
			for _, l := range strings.Split(string(data), "\n") {
				if rest, ok := strings.CutPrefix(l, "0::"); ok {
					v2 = rest
				}
			}
			if !regexp.MustCompile(`/arena-\d+-\d+-tester$`).MatchString(v2) {
				t.Fatalf("the bot's cgroup v2 is %q, not one of its own (/proc/PID/cgroup: %q)", v2, data)
			}
		})
	}
}
